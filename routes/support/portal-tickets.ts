/**
 * support/v1 portal tickets (contract sections 3, 4; docs/portal.md), for a customer signed in to a
 * connected site's portal (the token in `Authorization: Bearer` or `X-Svc-Portal`):
 * - GET|POST /sites/<site-id>/portal/tickets: their tickets opened on that site; opening one.
 * - GET|PATCH /sites/<site-id>/portal/tickets/<id>: the ticket and its public conversation; resolving
 *   or reopening it as the site allows.
 * - POST /sites/<site-id>/portal/tickets/<id>/messages: a reply.
 * - GET /sites/<site-id>/portal/tickets/<id>/attachments/<file-id>: a file of the public conversation.
 * A ticket that is not theirs on this site is answered exactly as a missing one. Every route shares
 * the sign-in routes' gate (portal on), listed origins and CORS (routes/support/portal.ts).
 */
import { PortalCustomer } from '../../lib/support/portal/customer';
import { changePortalTicketStatus, listPortalTickets, openPortalTicket, replyFromPortal } from '../../lib/support/portal/tickets';
import { presentConversation, presentListedTicket, presentReply, presentTicket } from '../../lib/support/tickets/present';
import { Attachment, Conversation } from '../../lib/support/tickets/types';
import { attachmentFile, viewConversation } from '../../lib/support/tickets/view';
import { WpError } from '../../lib/wp/errors';
import { ArgsParams, routeSchema } from '../../lib/wp/rest/item-schema';
import { RestRequest, RestResponse, endpoint } from '../../lib/wp/rest/route';
import { SUPPORT_SCHEMAS } from '../../schema/support';
import { replySchema } from '../../schema/support/reply';
import { ticketSchema } from '../../schema/support/ticket';
import { attachmentDownload, attachmentUrlFor } from './attachments';
import { BROWSER_MAX_BODY_BYTES, NAMESPACE, UrlSite, supportRoute } from './kit';
import { portalArgs, portalEndpoint, portalRoute, signedInCustomer } from './portal';

/** What every route here shares: a signed-in customer of the site's portal. */
const signedIn = { ...portalEndpoint, principal: signedInCustomer } as const;
/** A message may be as long as the site's limit: a browser's 64 KiB, as on the site's ticket route. */
const withMessage = { ...signedIn, maxBodyBytes: BROWSER_MAX_BODY_BYTES } as const;
/** Counted per customer of the site, as /tickets counts per user. */
const customerKey = (req: RestRequest<PortalCustomer>) => `${req.principal.site.siteId}:${req.principal.session.email}`;

export const portalTickets = supportRoute({
  ...portalRoute,
  route: '/sites/(?P<site_id>[\\w-]+)/portal/tickets',
  schema: routeSchema(ticketSchema, SUPPORT_SCHEMAS),
  endpoints: [
    endpoint({ ...signedIn, methods: ['GET'], args: portalArgs.tickets, handler: listTickets }),
    endpoint({
      ...withMessage, methods: ['POST'], args: portalArgs.open, handler: openTicket,
      rateLimit: { name: 'portal.tickets.create', limit: 20, windowSeconds: 3600, key: customerKey },
    }),
  ],
});

export const portalTicketItem = supportRoute({
  ...portalRoute,
  route: '/sites/(?P<site_id>[\\w-]+)/portal/tickets/(?P<id>[\\d]+)',
  schema: routeSchema(ticketSchema, SUPPORT_SCHEMAS),
  endpoints: [
    endpoint({ ...signedIn, methods: ['GET'], args: portalArgs.ticket, handler: getTicket }),
    endpoint({ ...signedIn, methods: ['PATCH'], args: portalArgs.status, handler: changeStatus }),
  ],
});

export const portalTicketMessages = supportRoute({
  ...portalRoute,
  route: '/sites/(?P<site_id>[\\w-]+)/portal/tickets/(?P<id>[\\d]+)/messages',
  schema: routeSchema(replySchema, SUPPORT_SCHEMAS),
  endpoints: [
    endpoint({
      ...withMessage, methods: ['POST'], args: portalArgs.reply, handler: addReply,
      rateLimit: { name: 'portal.tickets.reply', limit: 120, windowSeconds: 3600, key: customerKey },
    }),
  ],
});

export const portalTicketAttachment = supportRoute({
  ...portalRoute,
  route: '/sites/(?P<site_id>[\\w-]+)/portal/tickets/(?P<id>[\\d]+)/attachments/(?P<file_id>[\\d]+)',
  schema: routeSchema(ticketSchema, SUPPORT_SCHEMAS),
  endpoints: [endpoint({ ...signedIn, methods: ['GET'], args: portalArgs.attachment, handler: download })],
});

type PortalRequest<O extends keyof typeof portalArgs> = RestRequest<PortalCustomer, ArgsParams<(typeof portalArgs)[O]>, UrlSite>;

async function listTickets(req: PortalRequest<'tickets'>): Promise<RestResponse> {
  const { page, per_page: perPage } = req.params;
  const result = await listPortalTickets(req.site, req.principal, page, perPage);
  // WP: a page past the last one is an error, not an empty list.
  if (page > result.totalPages && result.total > 0) {
    throw new WpError('rest_post_invalid_page_number', 'The page number requested is larger than the number of pages available.', 400);
  }
  return new RestResponse(result.tickets.map((t) => presentListedTicket(t, req.principal.actor))).paginate(result.total, result.totalPages);
}

async function openTicket(req: PortalRequest<'open'>): Promise<RestResponse> {
  const conversation = await openPortalTicket(req.site, req.principal, { subject: req.params.subject, message: req.params.message });
  const location = await req.site.restUrl(`/${NAMESPACE}/sites/${req.principal.site.siteId}/portal/tickets/${conversation.ticket.id}`);
  return new RestResponse(await portalConversation(req, conversation), 201, { Location: location });
}

async function getTicket(req: PortalRequest<'ticket'>): Promise<unknown> {
  return portalConversation(req, await viewConversation(req.site, req.principal.actor, req.params.id));
}

async function changeStatus(req: PortalRequest<'status'>): Promise<unknown> {
  const { id, status, version } = req.params;
  return presentTicket(await changePortalTicketStatus(req.site, req.principal, id, { status, version }), req.principal.actor);
}

async function download(req: PortalRequest<'attachment'>): Promise<unknown> {
  const file = await attachmentFile(req.site, req.principal.actor, req.params.id, req.params.file_id);
  return attachmentDownload(file, req.params.inline === true);
}

async function addReply(req: PortalRequest<'reply'>): Promise<RestResponse> {
  const { id, message: text, version } = req.params;
  const { message, conversation } = await replyFromPortal(req.site, req.principal, id, { message: text, version });
  return new RestResponse(presentReply(message, conversation, req.principal.actor, await portalAttachmentUrls(req, id)), 201);
}

/** The ticket and its public conversation, with attachment links under the portal's route. */
async function portalConversation(req: RestRequest<PortalCustomer>, conversation: Conversation): Promise<Record<string, unknown>> {
  return presentConversation(conversation, req.principal.actor, await portalAttachmentUrls(req, conversation.ticket.id));
}

function portalAttachmentUrls(req: RestRequest<PortalCustomer>, ticketId: number): Promise<(a: Attachment) => string> {
  return attachmentUrlFor(req, `/${NAMESPACE}/sites/${req.principal.site.siteId}/portal/tickets/${ticketId}`);
}
