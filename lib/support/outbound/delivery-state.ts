/**
 * A delivery's state as its email is tried (storage: `svc_delivery` post, meta `_svc_delivery_status`,
 * `_svc_attempts`, `_svc_last_error`): queued → sending (attempts + 1) → sent | failed. The agent's
 * `cancel` and `retry` (tickets/deliveries.ts) act on the same rows; the attempt count is the
 * compare-and-set both sides use, so an attempt and an agent's action never pass each other unseen.
 */
import { Site } from '../../wp/site';
import { MAX_DELIVERY_ATTEMPTS } from '../tickets/deliveries';
import { DELIVERY_META, POST_TYPE } from '../tickets/rows';
import { findDelivery, findTicket, loadConversation, ticketIdOfDelivery } from '../tickets/store';
import { Conversation, Delivery } from '../tickets/types';
import { countDeliveryAttempt, moveDeliveryStatus } from '../tickets/writes';
import { WriteContext, writeSupport } from '../write';
import { updatePostMeta, updatePostRow } from '../../wp/posts';

export interface DeliveryAttempt {
  delivery: Delivery;
  conversation: Conversation;
}

/** Why there is nothing to send, or the attempt that has begun. */
export type AttemptStart = { skipped: string } | DeliveryAttempt;

/**
 * Starts an attempt: a `queued` delivery (or one left `sending` by a crashed attempt) becomes
 * `sending` with one more attempt. A cancelled, sent or failed delivery is left alone: a cancel before
 * the job runs means nothing is sent, and a failed one waits for the agent's retry.
 */
export async function beginDeliveryAttempt(site: Site, deliveryId: number): Promise<AttemptStart> {
  let skipped: string | null;
  try {
    skipped = await writeSupport(site, {}, (ctx) => startAttempt(site, deliveryId, ctx));
  } catch (err) {
    if (!(err instanceof ChangedMeanwhile)) throw err;
    skipped = `delivery ${deliveryId} changed while the attempt started`;
  }
  if (skipped) return { skipped };
  return loadAttempt(site, deliveryId);
}

/** Thrown inside the transaction to roll it back when another writer moved the delivery first. */
class ChangedMeanwhile extends Error {}

async function startAttempt(site: Site, deliveryId: number, ctx: WriteContext): Promise<string | null> {
  const delivery = await findDelivery(site.db, deliveryId, undefined, ctx.trx);
  if (!delivery) return `delivery ${deliveryId} no longer exists`;
  if (delivery.status !== 'queued' && delivery.status !== 'sending') return `delivery ${deliveryId} is ${delivery.status}`;
  if (delivery.attempts >= MAX_DELIVERY_ATTEMPTS) {
    await moveDeliveryStatus(ctx, deliveryId, [delivery.status], 'failed');
    return `delivery ${deliveryId} has used its ${MAX_DELIVERY_ATTEMPTS} attempts`;
  }
  // Both moves are compare-and-set on what was read: an agent's cancel in between wins, and this attempt backs off.
  if (delivery.status === 'queued' && !(await moveDeliveryStatus(ctx, deliveryId, ['queued'], 'sending'))) throw new ChangedMeanwhile();
  if (!(await countDeliveryAttempt(ctx, deliveryId, delivery.attempts))) throw new ChangedMeanwhile();
  await updatePostRow(ctx.trx, ctx.tables, deliveryId, { post_modified: ctx.dates.local, post_modified_gmt: ctx.dates.gmt }, { type: POST_TYPE.delivery, parent: delivery.messageId });
  return null;
}

/**
 * Records how the attempt ended: `error` null for sent. A send that went out stands even if the
 * agent cancelled meanwhile (a cancel cannot recall a message); a failure does not undo a cancel.
 */
export async function finishDeliveryAttempt(site: Site, deliveryId: number, error: string | null): Promise<void> {
  await writeSupport(site, {}, async (ctx) => {
    const from = error === null ? ['sending', 'cancelled'] : ['sending'];
    await moveDeliveryStatus(ctx, deliveryId, from, error === null ? 'sent' : 'failed');
    await updatePostMeta(ctx.trx, ctx.tables, deliveryId, DELIVERY_META.lastError, (error ?? '').slice(0, 1000));
    await updatePostRow(ctx.trx, ctx.tables, deliveryId, { post_modified: ctx.dates.local, post_modified_gmt: ctx.dates.gmt });
  });
}

async function loadAttempt(site: Site, deliveryId: number): Promise<AttemptStart> {
  const ticketId = await ticketIdOfDelivery(site.db, deliveryId);
  const ticket = ticketId === null ? null : await findTicket(site.db, ticketId);
  if (!ticket) return { skipped: `the ticket of delivery ${deliveryId} no longer exists` };
  const conversation = await loadConversation(site.db, ticket, true);
  const delivery = conversation.deliveries.find((d) => d.id === deliveryId);
  if (!delivery) return { skipped: `delivery ${deliveryId} no longer exists` };
  return { delivery, conversation };
}
