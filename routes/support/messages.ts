/** support/v1 replies: adding a message (with files) to a ticket. */
import { RestResponse, endpoint, requireSignedIn } from '../../lib/wp/rest/route';
import { presentMessage } from '../../lib/support/tickets/present';
import { addReply, isReplyRequestStored } from '../../lib/support/tickets/reply';
import { TicketRequest, actor, ticketArgs, ticketItemSchema } from './common';
import { NAMESPACE, supportRoute } from './kit';

export const ticketMessages = supportRoute({
  route: '/tickets/(?P<id>[\\d]+)/messages',
  schema: ticketItemSchema,
  endpoints: [
    endpoint({
      methods: ['POST'], permission: requireSignedIn, args: ticketArgs.reply, handler: addMessage,
      // A retry with a request_key already stored only replays its reply: it is not counted.
      rateLimit: {
        name: 'tickets.reply', limit: 120, windowSeconds: 3600,
        exempt: (req) => isReplyRequestStored(req.site, actor(req), req.params.id, req.params.request_key),
      },
    }),
  ],
});

async function addMessage(req: TicketRequest<'reply'>): Promise<RestResponse> {
  const who = actor(req);
  const { id, body, version, visibility, request_key: requestKey } = req.params;
  const { message, conversation } = await addReply(req.site, who, id, { body, version, visibility, requestKey, files: req.files });
  const base = await req.site.restUrl(`/${NAMESPACE}/tickets/${id}/attachments/`);
  const { ticket } = conversation;
  return new RestResponse({
    ...presentMessage(message, conversation, who, (a) => `${base}${a.id}`),
    ticket: { id: ticket.id, status: ticket.status, version: ticket.version, updated_at: ticket.updatedAt },
  }, 201);
}
