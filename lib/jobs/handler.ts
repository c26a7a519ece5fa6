/**
 * What a kind of job is to the worker: the function that does the work and the schedule of its
 * retries. A handler fails by throwing; `PermanentJobError` says that trying again cannot help.
 */
import { Site } from '../wp/site';
import { ClaimedJob } from './queue';

export interface JobHandler {
  /**
   * Seconds to wait before the next try after try n failed (entry n-1). When there is no entry for n,
   * the job fails for good. A crashed try counts like a failed one.
   */
  retryDelays: readonly number[];
  /** Does the work; may run again after a crash, so it must be safe to repeat (at least once). */
  run(site: Site, job: ClaimedJob): Promise<void>;
  /**
   * What of the payload to keep once the job is done (default: all of it). A payload that carries
   * personal data only to do the work (a form's email) shrinks to what names the work; a queued or
   * failed job keeps its whole payload.
   */
  donePayload?(payload: unknown): unknown;
}

/** A failure that no retry can fix (a 404 from the receiver, a refused address): the job fails at once. */
export class PermanentJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentJobError';
  }
}

/** When the job should be tried again after this failure (Unix seconds), or null for never. */
export function nextRunAt(handler: JobHandler, job: ClaimedJob, err: unknown, nowSeconds: number): number | null {
  if (err instanceof PermanentJobError) return null;
  const delay = handler.retryDelays[job.attempts - 1];
  return delay === undefined ? null : nowSeconds + delay;
}

/** The text recorded for a failure (lib/wp/errors.ts, shared with WordPress's own logs). */
export { errorText } from '../wp/errors';
