/**
 * Scheduled sync (docs/changelogs.md): every hour, at minute 17, each server process's worker
 * enqueues a `changelog_sync` job for every published product with a source that has not synced
 * successfully within the last SYNC_INTERVAL_SECONDS. The job checks that again before reading the
 * source, so the several processes of one site enqueueing at the same minute sync a product once.
 */
import { enqueueJob } from '../../jobs/enqueue';
import { Site } from '../../wp/site';
import { writeSupport } from '../write';
import { Product, listProducts } from './store';

export const CHANGELOG_SYNC_JOB = 'changelog_sync';

/** The minute of every hour the scheduled sync runs at: off the top of the hour. */
export const SYNC_MINUTE = 17;

/** A product synced successfully this recently is not synced again by the schedule (55 minutes). */
export const SYNC_INTERVAL_SECONDS = 55 * 60;

export interface ChangelogSyncPayload {
  product_id: number;
  /** Enqueued by the schedule: skipped when another process's job synced the product meanwhile. */
  scheduled: boolean;
}

/** Enqueues a sync job for each product that is due; returns how many. */
export async function enqueueDueSyncs(site: Site): Promise<number> {
  const now = site.clock.now();
  const due = (await listProducts(site.db)).filter((p) => p.source && !syncedRecently(p, now));
  if (!due.length) return 0;
  await writeSupport(site, {}, async (ctx) => {
    for (const p of due) {
      const payload: ChangelogSyncPayload = { product_id: p.postId, scheduled: true };
      await enqueueJob(ctx.trx, ctx.tables, CHANGELOG_SYNC_JOB, payload, ctx.nowSeconds);
    }
  });
  return due.length;
}

/** Whether the product's last successful sync is younger than SYNC_INTERVAL_SECONDS. */
export function syncedRecently(product: Product, nowMs: number): boolean {
  const last = product.lastSync;
  if (!last?.ok) return false;
  const at = Date.parse(`${last.at.replace(' ', 'T')}Z`);
  return Number.isFinite(at) && nowMs - at < SYNC_INTERVAL_SECONDS * 1000;
}
