/**
 * Acting on a ticket's outgoing email: `retry` re-queues a failed delivery (at most 5 attempts in
 * all), `cancel` stops one that has not been sent. The caller sends the `attempts` count it saw; a
 * different count means someone acted in between, and the request is refused with the current one.
 */
import { WpError } from '../../wp/errors';
import { Site } from '../../wp/site';
import { enqueueJob } from '../enqueue';
import { DELIVERY_META, POST_TYPE } from './rows';
import { findDelivery } from './store';
import { Delivery, DeliveryAction } from './types';
import { moveDeliveryStatus } from './writes';
import { WriteContext, writeSupport } from '../write';
import { updatePostMeta, updatePostRow } from '../../wp/posts';

export const MAX_DELIVERY_ATTEMPTS = 5;


export async function actOnDelivery(site: Site, ticketId: number, deliveryId: number, action: DeliveryAction, attempts: number): Promise<Delivery> {
  await writeSupport(site, {}, async (ctx) => {
    const delivery = await deliveryOfTicket(site, ticketId, deliveryId, ctx);
    if (delivery.attempts !== attempts) {
      throw new WpError('svc_delivery_conflict', 'The delivery has changed since this attempt count. Load it again and retry.', 409, { attempts: delivery.attempts, delivery_status: delivery.status });
    }
    const next = nextStatus(delivery, action);
    // The status row is the concurrency check: it moves only from the status just read.
    if (!(await moveDeliveryStatus(ctx, deliveryId, [delivery.status], next))) {
      throw new WpError('svc_delivery_conflict', 'The delivery changed while this request ran. Load it again and retry.', 409, { attempts: delivery.attempts });
    }
    if (action === 'retry') {
      await updatePostMeta(ctx.trx, ctx.tables, deliveryId, DELIVERY_META.lastError, '');
      await enqueueJob(ctx.trx, ctx.tables, 'email_delivery', { delivery_id: deliveryId }, ctx.nowSeconds);
    }
    await updatePostRow(ctx.trx, ctx.tables, deliveryId, { post_modified: ctx.dates.local, post_modified_gmt: ctx.dates.gmt }, { type: POST_TYPE.delivery, parent: delivery.messageId });
  });
  return deliveryOfTicket(site, ticketId, deliveryId);
}

function nextStatus(delivery: Delivery, action: DeliveryAction): Delivery['status'] {
  if (action === 'cancel') {
    if (delivery.status === 'sent' || delivery.status === 'cancelled') {
      throw new WpError('svc_delivery_not_cancellable', `A ${delivery.status} delivery cannot be cancelled.`, 409, { delivery_status: delivery.status });
    }
    return 'cancelled';
  }
  if (delivery.status !== 'failed') {
    throw new WpError('svc_delivery_not_failed', 'Only a failed delivery can be retried.', 409, { delivery_status: delivery.status });
  }
  if (delivery.attempts >= MAX_DELIVERY_ATTEMPTS) {
    throw new WpError('svc_delivery_attempts_exhausted', `A delivery is tried at most ${MAX_DELIVERY_ATTEMPTS} times.`, 409, { attempts: delivery.attempts });
  }
  return 'queued';
}

/** The delivery, if it belongs to a message of this ticket (read in the write's transaction when given `ctx`). */
async function deliveryOfTicket(site: Site, ticketId: number, deliveryId: number, ctx?: WriteContext): Promise<Delivery> {
  const delivery = await findDelivery(site.db, deliveryId, ticketId, ctx?.trx);
  if (!delivery) throw new WpError('svc_delivery_not_found', 'Delivery not found.', 404);
  return delivery;
}
