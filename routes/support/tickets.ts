/** support/v1 tickets: the list, opening a ticket, one ticket with its conversation, and changing it. */
import { WpError } from '../../lib/wp/errors';
import { RestRequest, RestResponse, endpoint, requireSignedIn } from '../../lib/wp/rest/route';
import { Actor } from '../../lib/support/tickets/actor';
import { createTicket, isTicketRequestStored } from '../../lib/support/tickets/create';
import { listTickets } from '../../lib/support/tickets/list';
import { presentConversation, presentListedTicket, presentTicket } from '../../lib/support/tickets/present';
import { Conversation } from '../../lib/support/tickets/types';
import { updateTicket } from '../../lib/support/tickets/update';
import { viewConversation } from '../../lib/support/tickets/view';
import { attachmentUrlFor } from './attachments';
import { TicketRequest, actor, restSource, ticketArgs, ticketItemSchema } from './common';
import { NAMESPACE, supportRoute } from './kit';

export const ticketsCollection = supportRoute({
  route: '/tickets',
  schema: ticketItemSchema,
  endpoints: [
    endpoint({ methods: ['GET'], permission: requireSignedIn, args: ticketArgs.list, handler: getTickets }),
    endpoint({
      methods: ['POST'], permission: requireSignedIn, args: ticketArgs.create, handler: createTicketItem,
      // A retry with a request_key already stored only replays its ticket: it is not counted.
      rateLimit: { name: 'tickets.create', limit: 20, windowSeconds: 3600, exempt: (req) => isTicketRequestStored(req.site, actor(req), req.params.request_key) },
    }),
  ],
});

export const ticketItem = supportRoute({
  route: '/tickets/(?P<id>[\\d]+)',
  schema: ticketItemSchema,
  endpoints: [
    endpoint({ methods: ['GET'], permission: requireSignedIn, args: ticketArgs.item, handler: getTicket }),
    endpoint({ methods: ['PATCH'], permission: requireSignedIn, args: ticketArgs.update, handler: updateTicketItem }),
  ],
});

async function getTickets(req: TicketRequest<'list'>): Promise<RestResponse> {
  const who = actor(req);
  const { status, priority, assignment, search, page, per_page: perPage } = req.params;
  const result = await listTickets(req.site, who, { status, priority, assignment, search, page, perPage });
  // WP: a page past the last one is an error, not an empty list.
  if (page > result.totalPages && result.total > 0) {
    throw new WpError('rest_post_invalid_page_number', 'The page number requested is larger than the number of pages available.', 400);
  }
  return new RestResponse(result.tickets.map((t) => presentListedTicket(t, who))).paginate(result.total, result.totalPages);
}

async function createTicketItem(req: TicketRequest<'create'>): Promise<RestResponse> {
  const who = actor(req);
  const { subject, body, request_key: requestKey } = req.params;
  const { conversation } = await createTicket(req.site, who, { subject, body, requestKey, files: req.files, source: restSource(req) });
  const location = await req.site.restUrl(`/${NAMESPACE}/tickets/${conversation.ticket.id}`);
  return new RestResponse(await conversationBody(req, conversation, who), 201, { Location: location });
}

async function getTicket(req: TicketRequest<'item'>): Promise<unknown> {
  const who = actor(req);
  return conversationBody(req, await viewConversation(req.site, who, req.params.id), who);
}

async function updateTicketItem(req: TicketRequest<'update'>): Promise<unknown> {
  const who = actor(req);
  const { id, version, status, priority, assignee } = req.params;
  const ticket = await updateTicket(req.site, who, id, { version, status, priority, assignee });
  return presentTicket(ticket, who);
}

/** The ticket and its conversation, with attachment links on this site. */
export async function conversationBody(req: RestRequest, conversation: Conversation, who: Actor): Promise<Record<string, unknown>> {
  return presentConversation(conversation, who, await attachmentUrlFor(req, `/${NAMESPACE}/tickets/${conversation.ticket.id}`));
}
