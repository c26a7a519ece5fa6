/**
 * The in-process wake-up call: enqueueJob rings it once the job's transaction has committed, and the
 * workers of this process answer by claiming at once instead of waiting for their next tick. A job
 * enqueued by another process is found by the tick (every second); nothing is lost if nobody listens.
 */
import { EventEmitter } from 'node:events';

const bell = new EventEmitter();
// Every worker of the process (tests run several) listens; that is not a leak.
bell.setMaxListeners(0);

/** Tells this process's workers that a job of `kind` is waiting in `table` (each site of a network has its own). */
export function ringJobBell(table: string, kind: string): void {
  bell.emit('job', table, kind);
}

/** Calls `listener` whenever a job is enqueued in this process; returns the function that stops it. */
export function onJobEnqueued(listener: (table: string, kind: string) => void): () => void {
  bell.on('job', listener);
  return () => bell.off('job', listener);
}
