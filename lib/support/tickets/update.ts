/**
 * Changing a ticket's status, priority or assignee from the version the caller read. A stale version
 * is refused with 409 and the current version, and changes nothing.
 */
import { WpError } from '../../wp/errors';
import { Site } from '../../wp/site';
import { readSettings } from '../settings';
import { Actor } from './actor';
import { checkTicketUpdate, staleVersion, ticketNotFound } from './policy';
import { TICKET_META } from './rows';
import { findTicket } from './store';
import { Ticket, TicketChanges } from './types';
import { writeSupport } from '../write';
import { advanceVersion, touchTicket } from './writes';
import { updatePostMeta } from '../../wp/posts';

export async function updateTicket(site: Site, actor: Actor, ticketId: number, changes: TicketChanges): Promise<Ticket> {
  const settings = await readSettings(site.options);
  if (changes.assignee) await checkAssignee(site, changes.assignee);
  await writeSupport(site, {}, async (ctx) => {
    const ticket = await findTicket(site.db, ticketId, ctx.trx);
    if (!ticket) throw ticketNotFound();
    const refusal = checkTicketUpdate(actor, ticket, changes, settings);
    if (refusal) throw refusal;
    if (!differs(ticket, changes)) {
      if (ticket.version !== changes.version) throw staleVersion(ticket.version);
      return;
    }
    await advanceVersion(ctx, ticketId, changes.version);
    if (changes.priority) await updatePostMeta(ctx.trx, ctx.tables, ticketId, TICKET_META.priority, changes.priority);
    if (changes.assignee !== undefined) await updatePostMeta(ctx.trx, ctx.tables, ticketId, TICKET_META.assignee, changes.assignee || null);
    await touchTicket(ctx, ticketId, changes.status);
  });
  const updated = await findTicket(site.db, ticketId);
  if (!updated) throw ticketNotFound();
  return updated;
}

function differs(ticket: Ticket, changes: TicketChanges): boolean {
  return (changes.status !== undefined && changes.status !== ticket.status)
    || (changes.priority !== undefined && changes.priority !== ticket.priority)
    || (changes.assignee !== undefined && (changes.assignee || null) !== ticket.assigneeId);
}

/** Tickets are assigned to agents only. */
async function checkAssignee(site: Site, userId: number): Promise<void> {
  const user = await site.users.byId(userId);
  const caps = user ? await site.capabilities.forUser(user) : null;
  if (!caps?.can('svc_work_tickets')) {
    throw new WpError('svc_invalid_assignee', 'Tickets can be assigned only to agents.', 400, { params: { assignee: 'not an agent' } });
  }
}
