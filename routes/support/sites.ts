/**
 * support/v1 connected sites (contract sections 2, 4, 5, 8; docs/sites.md):
 * - POST /sites/<site-id>/tickets: a ticket from the site's server (with the site key: up to 8 MiB,
 *   metadata and base64 files) or from a browser on one of its listed addresses (no key: 64 KiB,
 *   10 per hour per visitor address, whatever the request's Origin claims).
 * The site's listed addresses gate browsers at the origin stage (CORS names exactly the request's
 * origin, never with credentials, and every answer varies on Origin); the key or its absence
 * identifies the caller at the principal stage (404 unknown site, 401 bad key).
 */
import { bearerSecretOf } from '../../lib/support/bearer-secrets';
import { SiteCaller, siteCallerOf } from '../../lib/support/sites/caller';
import { openSiteTicket } from '../../lib/support/sites/tickets';
import { Actor } from '../../lib/support/tickets/actor';
import { WpError } from '../../lib/wp/errors';
import { visitorBucket } from '../../lib/wp/http/address-key';
import { DEFAULT_MAX_BODY_BYTES } from '../../lib/wp/http/body';
import { ArgsParams, operations } from '../../lib/wp/rest/item-schema';
import { Params, RequestHead, RestRequest, RestResponse, endpoint } from '../../lib/wp/rest/route';
import { SUPPORT_SCHEMAS } from '../../schema/support';
import { siteOperations } from '../../schema/support/site-args';
import { ticketItemSchema } from './common';
import { BROWSER_MAX_BODY_BYTES, NAMESPACE, UrlSite, siteOfUrl, supportRoute } from './kit';
import { conversationBody } from './tickets';

/** A request with a site key: PHP's default post_max_size, as every other route. */
export const SERVER_MAX_BODY_BYTES = DEFAULT_MAX_BODY_BYTES;
/** Keyless requests per visitor address and hour, on every site (contract section 8). */
export const BROWSER_TICKETS_PER_HOUR = 10;

const siteArgs = operations(siteOperations, SUPPORT_SCHEMAS, ['site_id']);

export const siteTickets = supportRoute({
  route: '/sites/(?P<site_id>[\\w-]+)/tickets',
  schema: ticketItemSchema,
  subject: siteOfUrl,
  endpoints: [
    endpoint({
      methods: ['POST'],
      args: siteArgs.ticket,
      origins: siteOrigins,
      // Browsers never send cookies here, and are never invited to.
      corsCredentials: false,
      // Decided from the headers before the body is read: a key to a known site buys the server's
      // limit, and a wrong one is refused (401) before its body is read.
      maxBodyBytes: async (_site, _url, head) => (keyOf(head) !== undefined && head.subject ? SERVER_MAX_BODY_BYTES : BROWSER_MAX_BODY_BYTES),
      headCredential: keyInHead,
      principal: siteCaller,
      rateLimit: {
        name: 'sites.tickets.keyless',
        limit: BROWSER_TICKETS_PER_HOUR,
        windowSeconds: 3600,
        key: (req) => visitorBucket(req.ip),
        // The site's own server is not a visitor: its requests are not counted.
        exempt: (req) => req.principal.kind === 'server',
      },
      handler: createSiteTicket,
    }),
  ],
});

function keyOf(head: RequestHead): string | undefined {
  return bearerSecretOf(head.header('authorization'), head.header('x-svc-key'));
}

/**
 * A request with a key to a known site: the site's server, or refused. Keyless requests and unknown
 * sites (whose small limit the body was held to) are left to the later stages, as before.
 */
async function keyInHead(head: RequestHead<UrlSite>): Promise<WpError | null> {
  const key = keyOf(head);
  if (key === undefined || !head.subject) return null;
  const caller = siteCallerOf(head.subject, key, head.header('origin'));
  return caller instanceof WpError ? caller : null;
}

/** The site's listed addresses (none for an unknown site). */
async function siteOrigins(head: RequestHead<UrlSite>): Promise<string[]> {
  return head.subject?.origins ?? [];
}

async function siteCaller(req: RestRequest<unknown, Params, UrlSite>): Promise<SiteCaller | WpError> {
  return siteCallerOf(req.subject, keyOf(req), req.header('origin'));
}

async function createSiteTicket(req: RestRequest<SiteCaller, ArgsParams<typeof siteArgs.ticket>, UrlSite>): Promise<RestResponse> {
  const { email, name, subject, message, page_url: pageUrl, metadata, attachments } = req.params;
  // Files come base64 in the JSON body (contract section 4); uploads in a multipart body are not read.
  if (req.files.length) throw new WpError('svc_attachments_base64_only', 'Send attachments base64 in the JSON body (attachments), not as uploaded files.', 400);
  const conversation = await openSiteTicket(req.site, req.principal, {
    email: email.trim(), name: name.trim(), subject, message, pageUrl, metadata, attachments,
  });
  // The answer is the customer's view of the ticket, whoever asked: never an internal note, an
  // agent's address, or what the site's server sent for agents (metadata, page).
  const ticket = conversation.ticket;
  const customer: Actor = { userId: ticket.customerId, name: ticket.customerName, email: ticket.customerEmail, agent: false, manager: false, customerView: false };
  const location = await req.site.restUrl(`/${NAMESPACE}/tickets/${ticket.id}`);
  return new RestResponse(await conversationBody(req, conversation, customer), 201, { Location: location });
}
