/**
 * The support desk's jobs (team alerts, email deliveries) and their payloads, recorded in the durable
 * job table (lib/jobs) in the same transaction as the change that causes them.
 */
import { Knex } from 'knex';
import { enqueueJob as enqueueAnyJob } from '../../jobs/enqueue';
import { Tables } from '../../wp/db/tables';

export type JobKind = 'team_alert' | 'email_delivery' | 'portal_code_email';

export interface JobPayloads {
  team_alert: { event: 'ticket_created' | 'customer_replied' | 'test'; ticket_id: number; message_id?: number };
  email_delivery: { delivery_id: number };
  /** The code sealed with a key derived from the salts (lib/support/portal/secret.ts), never in clear. */
  portal_code_email: { site_id: string; email: string; sealed: string };
}

export function enqueueJob<K extends JobKind>(trx: Knex | Knex.Transaction, tables: Tables, kind: K, payload: JobPayloads[K], nowSeconds: number, runAt = nowSeconds): Promise<number> {
  return enqueueAnyJob(trx, tables, kind, payload, nowSeconds, runAt);
}
