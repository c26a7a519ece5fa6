/**
 * Who may do what with a ticket. Pure checks over (actor, ticket, settings); a ticket the actor may not
 * see is answered exactly as a missing one, so its existence does not leak.
 */
import { WpError } from '../../wp/errors';
import { SupportSettings } from '../settings';
import { Actor } from './actor';
import { sameOwnerEmail } from './customer-email';
import { Ticket, TicketChanges, TicketStatus } from './types';

export function ticketNotFound(): WpError {
  return new WpError('svc_ticket_not_found', 'Ticket not found.', 404);
}

/** 409 with the ticket's current version, so the caller can reload and retry. */
export function staleVersion(current: number): WpError {
  return new WpError('svc_version_conflict', 'The ticket has changed since this version. Load it again and retry.', 409, { version: current });
}

/** Storage map: a customer owns a ticket by post_author or by the ticket's customer email (./customer-email.ts says when two are equal). */
export function ownsTicket(actor: Actor, ticket: Ticket): boolean {
  if (actor.userId > 0 && ticket.customerId === actor.userId) return true;
  return sameOwnerEmail(ticket.customerEmail, actor.email);
}

/** Agents see every ticket (also in the customer view); customers their own; portal customers their own opened on that site. */
export function canSeeTicket(actor: Actor, ticket: Ticket): boolean {
  if (actor.portal) return ticket.siteId === actor.portal.siteId && ownsTicket(actor, ticket);
  return actor.agent || ownsTicket(actor, ticket);
}

/**
 * Whether the actor may make these changes to this ticket: one they may not see is not found (before
 * anything else is said about it); a customer may change only the status, along the moves allowed.
 */
export function checkTicketUpdate(actor: Actor, ticket: Ticket, changes: TicketChanges, settings: SupportSettings): WpError | null {
  if (!canSeeTicket(actor, ticket)) return ticketNotFound();
  const fields = (['status', 'priority', 'assignee'] as const).filter((f) => changes[f] !== undefined);
  return checkEditableFields(actor, fields)
    ?? (changes.status ? checkStatusMove(actor, ticket.status, changes.status, settings) : null);
}

/**
 * The status moves a ticket allows. Agents may set any status. Customers may only resolve an open or
 * waiting ticket (when `customer_can_resolve`) and reopen a resolved one (when `customer_can_reopen`):
 * the desk's settings, or in a site's portal that site's.
 */
function checkStatusMove(actor: Actor, from: TicketStatus, to: TicketStatus, settings: SupportSettings): WpError | null {
  if (actor.agent || from === to) return null;
  const rules = actor.portal ?? settings;
  if (to === 'resolved' && rules.customerCanResolve) return null;
  if (to === 'open' && from === 'resolved' && rules.customerCanReopen) return null;
  if (to === 'waiting') return new WpError('svc_invalid_status_move', 'Only agents can set a ticket to waiting.', 403);
  return new WpError('svc_status_change_not_allowed', to === 'resolved'
    ? 'Customers cannot resolve tickets on this site.'
    : 'Customers cannot reopen tickets on this site.', 403);
}

/** Customers may change only the status of their ticket. */
function checkEditableFields(actor: Actor, fields: string[]): WpError | null {
  if (actor.agent) return null;
  const forbidden = fields.filter((f) => f !== 'status');
  return forbidden.length
    ? new WpError('svc_cannot_edit_field', `Customers can change only the status of a ticket (not ${forbidden.join(', ')}).`, 403, { fields: forbidden })
    : null;
}
