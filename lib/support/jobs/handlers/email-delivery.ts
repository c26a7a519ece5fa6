/**
 * `email_delivery` jobs (`{delivery_id}`): email an agent's public reply to the customer.
 *
 * A send that fails marks the delivery `failed` with the transport's error, and the job fails with
 * it: failed sends are not retried automatically. The contract gives a delivery 5 attempts in all
 * and lets the agent decide to `retry`, which queues a new job; automatic retries would spend the
 * agent's attempts behind their back. Only a failure before the send (the database away) is retried
 * on the queue's schedule, and a crash mid-send sends the same message (same Message-ID) again.
 */
import { JobHandler, PermanentJobError, errorText } from '../../../jobs/handler';
import { ClaimedJob } from '../../../jobs/queue';
import { Site } from '../../../wp/site';
import { beginDeliveryAttempt, finishDeliveryAttempt } from '../../outbound/delivery-state';
import { composeReplyEmail } from '../../outbound/reply-email';

export const emailDeliveryHandler: JobHandler = {
  retryDelays: [60, 300, 1800],
  async run(site: Site, job: ClaimedJob): Promise<void> {
    const deliveryId = deliveryIdOf(job.payload);
    const attempt = await beginDeliveryAttempt(site, deliveryId);
    if ('skipped' in attempt) {
      site.logger.info('email delivery: nothing to send', { job: job.id, reason: attempt.skipped });
      return;
    }
    try {
      await site.mailer.send(await composeReplyEmail(site, attempt.conversation, attempt.delivery));
    } catch (err) {
      const error = errorText(err);
      await finishDeliveryAttempt(site, deliveryId, error);
      throw new PermanentJobError(error);
    }
    await finishDeliveryAttempt(site, deliveryId, null);
  },
};

function deliveryIdOf(payload: unknown): number {
  const id = Number((payload as { delivery_id?: unknown } | null)?.delivery_id);
  if (!Number.isInteger(id) || id <= 0) throw new PermanentJobError('The job names no delivery (payload.delivery_id).');
  return id;
}
