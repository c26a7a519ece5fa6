/**
 * `changelog_sync` jobs (`{product_id, scheduled}`): sync one product from its source
 * (lib/support/changelogs/sync.ts). A source that was away or slow (unreachable, timeout, 5xx) is
 * tried again after 5 and 30 minutes; one that is wrong (404, bad content, too large) fails at once.
 * Either way the outcome is already in the product's `_svc_last_sync`.
 */
import { JobHandler, PermanentJobError } from '../../../jobs/handler';
import { ClaimedJob } from '../../../jobs/queue';
import { Site } from '../../../wp/site';
import { FetchLimits, SOURCE_LIMITS } from '../../changelogs/fetch';
import { ChangelogSyncPayload, syncedRecently } from '../../changelogs/schedule';
import { findProductById } from '../../changelogs/store';
import { syncProduct } from '../../changelogs/sync';

export function changelogSyncHandler(limits: FetchLimits = SOURCE_LIMITS): JobHandler {
  return {
    retryDelays: [300, 1800],
    async run(site: Site, job: ClaimedJob): Promise<void> {
      const { product_id: productId, scheduled } = (job.payload ?? {}) as Partial<ChangelogSyncPayload>;
      if (typeof productId !== 'number') throw new PermanentJobError('The job names no product (payload.product_id).');
      const product = await findProductById(site.db, productId);
      // Deleted, unpublished or without a source since the job was queued: nothing to do.
      if (!product || product.status !== 'publish' || !product.source) return;
      if (scheduled && syncedRecently(product, site.clock.now())) return;
      const outcome = await syncProduct(site, product, limits);
      if (outcome.ok) return;
      if (outcome.transient) throw new Error(outcome.message);
      throw new PermanentJobError(outcome.message);
    },
  };
}
