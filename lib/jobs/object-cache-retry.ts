/**
 * Invalidations of PHP's persistent object cache that failed right after a write (the cache did not
 * answer), tried again from the durable job table until it does (lib/wp/object-cache/coherence.ts).
 * Plugin-blind: the job carries WordPress's own terms (WordPressChanges), whichever plugin wrote.
 */
import { unixSeconds } from '../wp/clock';
import { WordPressChanges, WordPressChangesJson } from '../wp/changes';
import { Site } from '../wp/site';
import { enqueueJob } from './enqueue';
import { JobHandler, PermanentJobError } from './handler';

export const OBJECT_CACHE_JOB = 'object_cache_invalidate';

/** Seconds between tries: a cache restarting is back within the first minutes; after about two hours the job fails for good. */
const RETRY_DELAYS = [15, 30, 60, 120, 300, 600, 1200, 1800, 3600] as const;

/** Queues the changes for another try, after the write's own transaction (which has committed). */
export async function enqueueInvalidationRetry(site: Site, changes: WordPressChanges): Promise<void> {
  const now = unixSeconds(site.clock);
  await enqueueJob(site.db.knex, site.db.tables, OBJECT_CACHE_JOB, changes.toJSON(), now, now + 5);
}

export function objectCacheJobHandler(): JobHandler {
  return {
    retryDelays: RETRY_DELAYS,
    async run(site, job) {
      const coherence = site.objectCache.coherence;
      if (!coherence?.invalidator) throw new PermanentJobError('this process keeps no persistent object cache coherent');
      if (!(await coherence.invalidate(WordPressChanges.fromJSON(job.payload as WordPressChangesJson)))) {
        throw new Error(`the ${coherence.invalidator.kind} object cache did not answer`);
      }
    },
  };
}
