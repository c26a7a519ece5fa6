/**
 * Acting on a ticket's outgoing email: `retry` re-queues a failed delivery (at most 5 attempts in
 * all), `cancel` stops one that has not been sent. The caller sends the `attempts` count it saw; a
 * different count means someone acted in between, and the request is refused with the current one.
 */
import { WpError } from '../../wp/errors';
import { Site } from '../../wp/site';
import { enqueueJob } from '../enqueue';
import { DELIVERY_META, POST_TYPE, toDelivery } from './rows';
import { Delivery, DeliveryAction } from './types';
import { writeSupport } from '../write';
import { postMetaFor, singleMetaValues, updatePostMeta, updatePostRow } from '../../wp/posts';

export const MAX_DELIVERY_ATTEMPTS = 5;


export async function actOnDelivery(site: Site, ticketId: number, deliveryId: number, action: DeliveryAction, attempts: number): Promise<Delivery> {
  await writeSupport(site, {}, async (ctx) => {
    const delivery = await findDelivery(site, ticketId, deliveryId, ctx.trx);
    if (delivery.attempts !== attempts) {
      throw new WpError('svc_delivery_conflict', 'The delivery has changed since this attempt count. Load it again and retry.', 409, { attempts: delivery.attempts, delivery_status: delivery.status });
    }
    const next = nextStatus(delivery, action);
    // The status row is the concurrency check: it moves only from the status just read.
    const moved = await ctx.trx(ctx.tables.postmeta)
      .where({ post_id: deliveryId, meta_key: DELIVERY_META.status, meta_value: delivery.status })
      .update({ meta_value: next });
    if (!moved) throw new WpError('svc_delivery_conflict', 'The delivery changed while this request ran. Load it again and retry.', 409, { attempts: delivery.attempts });
    ctx.changes.postMetaKey(deliveryId, DELIVERY_META.status);
    if (action === 'retry') {
      await updatePostMeta(ctx.trx, ctx.tables, deliveryId, DELIVERY_META.lastError, '');
      await enqueueJob(ctx.trx, ctx.tables, 'email_delivery', { delivery_id: deliveryId }, ctx.nowSeconds);
    }
    await updatePostRow(ctx.trx, ctx.tables, deliveryId, { post_modified: ctx.dates.local, post_modified_gmt: ctx.dates.gmt }, { type: POST_TYPE.delivery, parent: delivery.messageId });
  });
  return findDelivery(site, ticketId, deliveryId);
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

/** The delivery, if it belongs to a message of this ticket. */
export async function findDelivery(site: Site, ticketId: number, deliveryId: number, trx?: import('knex').Knex.Transaction): Promise<Delivery> {
  const knex = trx ?? site.db.knex;
  const { posts } = site.db.tables;
  const row = await knex(`${posts} as d`).join(`${posts} as m`, 'm.ID', 'd.post_parent')
    .where({ 'd.ID': deliveryId, 'd.post_type': POST_TYPE.delivery, 'm.post_type': POST_TYPE.message, 'm.post_parent': ticketId })
    .first('d.ID', 'd.post_parent', 'd.post_status', 'd.post_date', 'd.post_modified', 'd.post_author');
  if (!row) throw new WpError('svc_delivery_not_found', 'Delivery not found.', 404);
  const meta = await postMetaFor(knex, site.db.tables, [deliveryId]);
  return toDelivery(row, singleMetaValues(meta.get(deliveryId)));
}
