/** support/v1 replies: adding a message (with files) to a ticket. */
import { RestResponse, endpoint, requireSignedIn } from '../../lib/wp/rest/route';
import { presentReply } from '../../lib/support/tickets/present';
import { addReply, isReplyRequestStored } from '../../lib/support/tickets/reply';
import { routeSchema } from '../../lib/wp/rest/item-schema';
import { SUPPORT_SCHEMAS } from '../../schema/support';
import { replySchema } from '../../schema/support/reply';
import { attachmentUrlFor } from './attachments';
import { TicketRequest, actor, ticketArgs } from './common';
import { NAMESPACE, supportRoute } from './kit';

export const ticketMessages = supportRoute({
  route: '/tickets/(?P<id>[\\d]+)/messages',
  schema: routeSchema(replySchema, SUPPORT_SCHEMAS),
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
  return new RestResponse(presentReply(message, conversation, who, await attachmentUrlFor(req, `/${NAMESPACE}/tickets/${id}`)), 201);
}
