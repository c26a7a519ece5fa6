/**
 * What a portal customer does with tickets (docs/portal.md), through the same domain functions as
 * every ticket route, with the customer's actor scoped to the site: the site's settings add the
 * new-tickets switch and the message limit; reading, the version check, status rules and the
 * public-only conversation are the ticket rules themselves.
 */
import { Site } from '../../wp/site';
import { accountOwning } from '../tickets/customer-email';
import { openTicket } from '../tickets/create';
import { listTickets, TicketPage } from '../tickets/list';
import { canSeeTicket, ticketNotFound } from '../tickets/policy';
import { AddedReply, addReply } from '../tickets/reply';
import { findTicket } from '../tickets/store';
import { Conversation, Ticket, TicketStatus } from '../tickets/types';
import { updateTicket } from '../tickets/update';
import { viewConversation } from '../tickets/view';
import { checkMessageLength, checkNewTicketsOpen } from '../sites/tickets';
import { writeSupport } from '../write';
import { PortalCustomer } from './customer';

/** The customer's tickets opened on this site, newest activity first. */
export function listPortalTickets(site: Site, customer: PortalCustomer, page: number, perPage: number): Promise<TicketPage> {
  return listTickets(site, customer.actor, { page, perPage });
}

/** Opens a ticket on the site (source `portal`), as the site's settings allow. */
export async function openPortalTicket(site: Site, customer: PortalCustomer, input: { subject: string; message: string }): Promise<Conversation> {
  checkNewTicketsOpen(customer.site);
  checkMessageLength(customer.site, input.message);
  const { email } = customer.session;
  // Read before the write's transaction (which on SQLite holds the only connection).
  const account = await accountOwning(site, email);
  const name = account?.display_name || (await lastNameUsed(site, customer));
  const ticketId = await writeSupport(site, {}, async (ctx) => {
    const opened = await openTicket(site, ctx, {
      subject: input.subject, body: input.message, source: 'portal', siteId: customer.site.siteId,
      customer: { userId: account?.ID ?? 0, name, email }, authorKind: 'customer',
    });
    return opened.ticketId;
  });
  return viewConversation(site, customer.actor, ticketId);
}

/** A public reply from the customer (it reopens the ticket, as every customer reply does). */
export async function replyFromPortal(site: Site, customer: PortalCustomer, ticketId: number, input: { message: string; version: number }): Promise<AddedReply> {
  checkMessageLength(customer.site, input.message);
  const ticket = await visibleTicket(site, customer, ticketId);
  // The reply speaks as the ticket's customer, under the name the ticket already shows.
  const author = { ...customer.actor, name: ticket.customerName };
  return addReply(site, author, ticketId, { body: input.message, version: input.version, visibility: 'public' });
}

/** Resolves or reopens, as the site's settings allow; a stale version is 409 as on /tickets. */
export function changePortalTicketStatus(site: Site, customer: PortalCustomer, ticketId: number, input: { status: TicketStatus; version: number }): Promise<Ticket> {
  return updateTicket(site, customer.actor, ticketId, { status: input.status, version: input.version });
}

async function visibleTicket(site: Site, customer: PortalCustomer, ticketId: number): Promise<Ticket> {
  const ticket = await findTicket(site.db, ticketId);
  if (!ticket || !canSeeTicket(customer.actor, ticket)) throw ticketNotFound();
  return ticket;
}

/** The name on the customer's latest ticket on this site (the list's cached first page), or ''. */
async function lastNameUsed(site: Site, customer: PortalCustomer): Promise<string> {
  const { tickets } = await listTickets(site, customer.actor, { page: 1, perPage: 1 });
  return tickets[0]?.customerName ?? '';
}
