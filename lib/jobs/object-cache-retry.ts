/**
 * Invalidations of PHP's persistent object cache that failed right after a write (the cache did not
 * answer), tried again from the durable job table until it does (lib/wp/object-cache/coherence.ts).
 * Plugin-blind: the job carries WordPress's own terms (WordPressChanges), whichever plugin wrote.
 */
import { unixSeconds } from '../wp/clock';
import { WordPressChanges, WordPressChangesJson } from '../wp/changes';
import { Site } from '../wp/site';
import { enqueueOrMergeJob } from './enqueue';
import { JobHandler, PermanentJobError, errorText } from './handler';

export const OBJECT_CACHE_JOB = 'object_cache_invalidate';

/** Seconds between tries: a cache restarting is back within the first minutes; after about two hours the job fails for good. */
const RETRY_DELAYS = [15, 30, 60, 120, 300, 600, 1200, 1800, 3600] as const;

/**
 * Queues the changes for another try, after the write's own transaction (which has committed): added
 * to the queued retry job if there is one, so that a cache that is down holds one worker slot per try
 * however many writes failed meanwhile, not one per write (the worker serves email deliveries too).
 */
export async function enqueueInvalidationRetry(site: Site, changes: WordPressChanges): Promise<void> {
  const now = unixSeconds(site.clock);
  const merge = (queued: unknown) => {
    try {
      return readChanges(queued).merge(changes).toJSON();
    } catch {
      return undefined;
    }
  };
  await enqueueOrMergeJob(site.db.knex, site.db.tables, OBJECT_CACHE_JOB, changes.toJSON(), merge, now, now + 5);
}

export function objectCacheJobHandler(): JobHandler {
  return {
    retryDelays: RETRY_DELAYS,
    async run(site, job) {
      const coherence = site.objectCache.coherence;
      if (!coherence?.invalidator) throw new PermanentJobError('this process keeps no persistent object cache coherent');
      if (!(await coherence.invalidate(readChanges(job.payload)))) {
        throw new Error(`the ${coherence.invalidator.kind} object cache did not answer`);
      }
    },
  };
}

/** The job's changes; a payload that is not a set of changes can never be sent, so it fails for good. */
function readChanges(payload: unknown): WordPressChanges {
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) throw new PermanentJobError('the payload is not a set of changes');
  try {
    return WordPressChanges.fromJSON(payload as WordPressChangesJson);
  } catch (err) {
    throw new PermanentJobError(`the payload is not a set of changes: ${errorText(err)}`);
  }
}
