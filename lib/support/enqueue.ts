/**
 * The support desk's jobs (team alerts, email deliveries) and their payloads, recorded in the durable
 * job table (lib/jobs) in the same transaction as the change that causes them.
 */
import { Knex } from 'knex';
import { enqueueJob as enqueueAnyJob } from '../jobs/enqueue';
import { Tables } from '../wp/db/tables';
import { alertSkipReason } from './settings';
import { WriteContext } from './write';

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

/**
 * Queues a team alert, unless the settings as the write began say it would not be sent (no URL, or
 * customer-reply alerts off): such a job would only be claimed and dropped, three statements for
 * nothing on every ticket and reply. A queued alert reads the settings again when it is sent.
 */
export async function enqueueTeamAlert(ctx: WriteContext, payload: JobPayloads['team_alert']): Promise<void> {
  if (alertSkipReason(payload.event, ctx.settings)) return;
  await enqueueJob(ctx.trx, ctx.tables, 'team_alert', payload, ctx.nowSeconds);
}
