/**
 * Recording work for after the answer (team alerts, email deliveries) in the durable job table, in
 * the same transaction as the change that causes it: committed together, or not at all.
 */
import { Knex } from 'knex';
import { Tables } from '../../wp/db/tables';
import { ringJobBell } from './wake';

export type JobKind = 'team_alert' | 'email_delivery';

export interface JobPayloads {
  team_alert: { event: 'ticket_created' | 'customer_replied' | 'test'; ticket_id: number; message_id?: number };
  email_delivery: { delivery_id: number };
}

export async function enqueueJob<K extends JobKind>(trx: Knex | Knex.Transaction, tables: Tables, kind: K, payload: JobPayloads[K], nowSeconds: number, runAt = nowSeconds): Promise<number> {
  const [id] = await trx(tables.svc('jobs')).insert({
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
