/**
 * Recording work for after the answer in the durable job table, in the same transaction as the change
 * that causes it: committed together, or not at all. Each plugin wraps this with its own kinds and
 * payload types (lib/support/enqueue.ts, lib/forms/notifications.ts).
 */
import { Knex } from 'knex';
import { Tables } from '../wp/db/tables';
import { jobsTable } from './queue';
import { ringJobBell } from './wake';

export async function enqueueJob(trx: Knex | Knex.Transaction, tables: Tables, kind: string, payload: unknown, nowSeconds: number, runAt = nowSeconds): Promise<number> {
  const [id] = await trx(jobsTable(tables)).insert({
    kind, payload: JSON.stringify(payload), status: 'queued', run_at: runAt, attempts: 0, created_at: nowSeconds, updated_at: nowSeconds,
  });
  wakeWorkersAfterCommit(trx, jobsTable(tables), kind);
  return Number(id);
}

/** How often a merge that lost to a concurrent one reads the queued job again before queueing its own. */
const MERGE_TRIES = 3;

/**
 * Adds work to the oldest queued job of `kind` instead of queueing another: `merge` gets its payload
 * and gives the payload with the new work added, or undefined when it cannot (a new job is queued
 * then, as when none is queued). The queued job keeps its `run_at` and attempt count. The update is a
 * compare-and-set on the payload, which a merge only lengthens, so two processes merging at once do
 * not lose each other's work; a claim reads the payload after winning (queue.ts). Two processes that
 * both find no queued job each queue one: two jobs, which is harmless.
 */
export async function enqueueOrMergeJob(knex: Knex, tables: Tables, kind: string, payload: unknown, merge: (queued: unknown) => unknown, nowSeconds: number, runAt = nowSeconds): Promise<number> {
  for (let tries = 0; tries < MERGE_TRIES; tries++) {
    const queued: { id: number; payload: string } | undefined = await knex(jobsTable(tables))
      .first('id', 'payload').where({ kind, status: 'queued' }).orderBy('id');
    if (!queued) break;
    const merged = merge(parseJson(queued.payload));
    if (merged === undefined) break;
    const updated = await knex(jobsTable(tables)).where({ id: queued.id, status: 'queued', payload: queued.payload })
      .update({ payload: JSON.stringify(merged), updated_at: nowSeconds });
    if (updated) return Number(queued.id);
  }
  return enqueueJob(knex, tables, kind, payload, nowSeconds, runAt);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The job is claimable only once the transaction commits; workers of this process are woken then. */
function wakeWorkersAfterCommit(trx: Knex | Knex.Transaction, table: string, kind: string): void {
  const committed = 'executionPromise' in trx ? trx.executionPromise : undefined;
  if (!committed) return ringJobBell(table, kind);
  // A rolled-back transaction enqueued nothing: no bell, and no unhandled rejection either.
  committed.then(() => ringJobBell(table, kind), () => undefined);
}
