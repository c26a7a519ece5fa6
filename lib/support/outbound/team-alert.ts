/**
 * The team-alert body, exactly the contract's shape (section 6): `event`, `title`, `url`, `ticket`
 * (id, subject, status, priority, source, customer_name, customer_email, created_at, message) and
 * `sent_at`. `ticket.message` is filled only when message preview is on. A ticket whose requester
 * nothing proved adds `ticket.requester_unverified` and says so in the title.
 */
import { mysqlDateTime, siteOffsetMinutes } from '../../wp/dates';
import { Site } from '../../wp/site';
import { Ticket } from '../tickets/types';

export type AlertEvent = 'ticket_created' | 'customer_replied' | 'test';
export const ALERT_EVENTS: readonly AlertEvent[] = ['ticket_created', 'customer_replied', 'test'];

export interface AlertTicket {
  id: number;
  subject: string;
  status: string;
  priority: string;
  source: string;
  customer_name: string;
  customer_email: string;
  created_at: string;
  message: string;
  /** Only when nothing proved the requester owns the address (docs/support-desk.md): how they were given. */
  requester_unverified?: string;
}

export interface TeamAlertBody {
  event: AlertEvent;
  title: string;
  url: string;
  ticket: AlertTicket;
  sent_at: string;
}

/** A preview is a glimpse for a chat channel, not the message: longer text is cut here. */
export const PREVIEW_CHARS = 500;

/** The alert for an event on a real ticket; `messageBody` is the message the event is about. */
export async function buildTicketAlert(site: Site, event: Exclude<AlertEvent, 'test'>, ticket: Ticket, messageBody: string, preview: boolean): Promise<TeamAlertBody> {
  const alertTicket: AlertTicket = {
    id: ticket.id, subject: ticket.subject, status: ticket.status, priority: ticket.priority, source: ticket.source,
    customer_name: ticket.customerName, customer_email: ticket.customerEmail, created_at: ticket.createdAt,
    message: preview ? previewOf(messageBody) : '',
  };
  if (ticket.requesterUnverified) alertTicket.requester_unverified = ticket.requesterUnverified;
  return { event, title: alertTitle(event, ticket), url: await adminTicketUrl(site, ticket.id), ticket: alertTicket, sent_at: await sentAt(site) };
}

/** The headline; an unverified requester is said before the subject, where no subject can hide it. */
function alertTitle(event: Exclude<AlertEvent, 'test'>, ticket: Ticket): string {
  const unverified = ticket.requesterUnverified ? ' (unverified requester)' : '';
  return event === 'ticket_created'
    ? `New ticket #${ticket.id}${unverified}: ${ticket.subject}`
    : `Customer replied on #${ticket.id}${unverified}: ${ticket.subject}`;
}

/** The `test` alert: a sample ticket (ID 0) so receivers can check their parsing and signature. */
export async function buildTestAlert(site: Site, preview: boolean): Promise<TeamAlertBody> {
  const name = String((await site.options.get('blogname', '')) || 'Understudy');
  const now = site.clock.now();
  return {
    event: 'test',
    title: `Test alert from ${name}`,
    url: await adminTicketUrl(site),
    ticket: {
      id: 0, subject: 'Test alert', status: 'open', priority: 'normal', source: 'web', customer_name: 'Test customer',
      customer_email: String((await site.options.get('admin_email', '')) || ''),
      created_at: mysqlDateTime(now, await siteOffsetMinutes(site.options, now)),
      message: preview ? `This is a test alert from ${name}. Team alerts reach this address.` : '',
    },
    sent_at: await sentAt(site),
  };
}

/** The admin screen of a ticket (or of the ticket list): `<siteurl>/wp-admin/admin.php?page=svc-tickets&ticket=<id>`. */
export async function adminTicketUrl(site: Site, ticketId?: number): Promise<string> {
  const base = `${await site.siteUrl()}/wp-admin/admin.php?page=svc-tickets`;
  return ticketId === undefined ? base : `${base}&ticket=${ticketId}`;
}

/** ISO 8601 in the site's time zone with its offset, e.g. `2026-11-22T14:33:00+01:00` (PHP's DATE_ATOM). */
export function isoWithOffset(ms: number, offsetMinutes: number): string {
  const local = mysqlDateTime(ms, offsetMinutes).replace(' ', 'T');
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

async function sentAt(site: Site): Promise<string> {
  const now = site.clock.now();
  return isoWithOffset(now, await siteOffsetMinutes(site.options, now));
}

function previewOf(body: string): string {
  const chars = Array.from(body.trim());
  return chars.length > PREVIEW_CHARS ? `${chars.slice(0, PREVIEW_CHARS - 1).join('')}…` : chars.join('');
}
