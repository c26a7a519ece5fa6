/**
 * Recording work for after the answer in the durable job table, in the same transaction as the change
 * that causes it: committed together, or not at all. Each plugin wraps this with its own kinds and
 * payload types (lib/support/jobs/enqueue.ts, lib/forms/notifications.ts).
 */
import { Knex } from 'knex';
import { Tables } from '../wp/db/tables';
import { jobsTable } from './queue';
import { ringJobBell } from './wake';

export async function enqueueJob(trx: Knex | Knex.Transaction, tables: Tables, kind: string, payload: unknown, nowSeconds: number, runAt = nowSeconds): Promise<number> {
  const [id] = await trx(jobsTable(tables)).insert({
    kind, payload: JSON.stringify(payload), status: 'queued', run_at: runAt, attempts: 0, created_at: nowSeconds, updated_at: nowSeconds,
  });
  wakeWorkersAfterCommit(trx, kind);
  return Number(id);
}

/** The job is claimable only once the transaction commits; workers of this process are woken then. */
function wakeWorkersAfterCommit(trx: Knex | Knex.Transaction, kind: string): void {
  const committed = 'executionPromise' in trx ? trx.executionPromise : undefined;
  if (!committed) return ringJobBell(kind);
  // A rolled-back transaction enqueued nothing: no bell, and no unhandled rejection either.
  committed.then(() => ringJobBell(kind), () => undefined);
}
