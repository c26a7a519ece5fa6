/**
 * `team_alert` jobs (`{event, ticket_id, message_id?}`): POST the alert to the configured URL.
 * Settings are read when the alert is sent, so a URL fixed after a failure is used by the retry.
 * Retries follow the contract: 1, 5 and 30 minutes after a 429, a 5xx, a timeout or a network error;
 * any other answer, and a refused URL, fails the job at once with the reason in `last_error`.
 */
import { createHash, randomUUID } from 'node:crypto';
import { JobHandler, PermanentJobError } from '../../../jobs/handler';
import { ClaimedJob } from '../../../jobs/queue';
import { Site } from '../../../wp/site';
import { alertSkipReason, readSettings } from '../../settings';
import { findTicket, loadConversation } from '../../tickets/store';
import { AlertResult, postTeamAlert } from '../../outbound/alert-sender';
import { ALERT_EVENTS, AlertEvent, TeamAlertBody, buildTestAlert, buildTicketAlert } from '../../outbound/team-alert';

export const ALERT_RETRY_DELAYS = [60, 300, 1800] as const;

interface AlertPayload {
  event: AlertEvent;
  ticket_id: number;
  message_id?: number;
}

/** The handler; `timeoutMs` is how long the receiver gets to answer (default 10 s). */
export function teamAlertHandler(options: { timeoutMs?: number } = {}): JobHandler {
  return {
    retryDelays: ALERT_RETRY_DELAYS,
    async run(site: Site, job: ClaimedJob): Promise<void> {
      const payload = payloadOf(job.payload);
      const settings = await readSettings(site.options);
      const skip = alertSkipReason(payload.event, settings);
      const body = skip ? null : await alertBody(site, payload, settings.alertsPreview);
      if (!body) {
        site.logger.info('team alert: not sent', { job: job.id, event: payload.event, reason: skip ?? `ticket ${payload.ticket_id} no longer exists` });
        return;
      }
      const result = await postTeamAlert({ url: settings.alertsUrl, secret: settings.alertsSecret }, body, await deliveryIdOf(site, job, payload), options.timeoutMs);
      if (!result.ok) throw result.retryable ? new Error(result.error) : new PermanentJobError(result.error);
    },
  };
}

/** Sends a `test` alert now, outside the queue (`understudy alerts test`); never retried. */
export async function sendTestAlert(site: Site, timeoutMs?: number): Promise<AlertResult & { url: string }> {
  const settings = await readSettings(site.options);
  if (!settings.alertsUrl) {
    return { ok: false, status: null, error: 'No team-alert URL is set (svc_settings key alerts_url).', retryable: false, url: '' };
  }
  const body = await buildTestAlert(site, settings.alertsPreview);
  const result = await postTeamAlert({ url: settings.alertsUrl, secret: settings.alertsSecret }, body, randomUUID().replace(/-/g, ''), timeoutMs);
  return { ...result, url: settings.alertsUrl };
}

async function alertBody(site: Site, payload: AlertPayload, preview: boolean): Promise<TeamAlertBody | null> {
  if (payload.event === 'test') return buildTestAlert(site, preview);
  const ticket = await findTicket(site.db, payload.ticket_id);
  if (!ticket) return null;
  const conversation = await loadConversation(site.db, ticket, false);
  // ticket_created names its first message; older jobs without one get the ticket's first message.
  const message = payload.message_id === undefined ? conversation.messages[0] : conversation.messages.find((m) => m.id === payload.message_id);
  return buildTicketAlert(site, payload.event, ticket, message?.body ?? '', preview);
}

/** Stable for every try of one alert (and unique per site, job and event), so receivers can drop repeats. */
async function deliveryIdOf(site: Site, job: ClaimedJob, payload: AlertPayload): Promise<string> {
  const source = [await site.homeUrl(), job.id, payload.event, payload.ticket_id, payload.message_id ?? ''].join('|');
  return createHash('sha256').update(source).digest('hex').slice(0, 32);
}

function payloadOf(payload: unknown): AlertPayload {
  const p = (payload ?? {}) as Partial<AlertPayload>;
  const ticketId = Number(p.ticket_id);
  if (!ALERT_EVENTS.includes(p.event as AlertEvent) || !Number.isInteger(ticketId)) {
    throw new PermanentJobError('The job is not a team alert (payload.event, payload.ticket_id).');
  }
  const messageId = Number(p.message_id);
  return { event: p.event as AlertEvent, ticket_id: ticketId, message_id: Number.isInteger(messageId) ? messageId : undefined };
}
