/**
 * support/v1 mail webhooks (contract sections 4, 5, 7, 8; docs/mail-intake.md):
 * - POST /webhooks/relay/<route-key>: a raw message from a relay, signed with the mailbox's relay secret;
 * - POST /webhooks/inbound/<route-key>: a raw message or posted fields from an automation tool, with
 *   the mailbox token; GET on it is the tool's connection test and stores nothing.
 * The credential identifies the mailbox at the principal stage (404 unknown mailbox, 401 bad
 * credential); the permission check then asks whether its tools are on (403). Both answer 202 only
 * after the message and its receipt are committed.
 */
import { DEFAULT_MAX_BYTES, Mailbox, RELAY_MAX_BYTES } from '../../lib/support/mailboxes/store';
import { blogOfRouteKey } from '../../lib/support/mailboxes/route-key';
import { RelayDelivery, mailboxOfRouteKey, mailboxTokenOf, relayDelivery, relayHeadersRefusal, tokenMailbox } from '../../lib/support/inbound/caller';
import { automationOff } from '../../lib/support/inbound/errors';
import { readInboundBody } from '../../lib/support/inbound/inbound-body';
import { presentReceipt } from '../../lib/support/inbound/present';
import { composeMessage } from '../../lib/support/inbound/compose';
import { Accepted, acceptEmail, sha256 } from '../../lib/support/inbound/intake';
import { RelayHeaders } from '../../lib/support/inbound/signature';
import { WpError } from '../../lib/wp/errors';
import { Site } from '../../lib/wp/site';
import { routeSchema } from '../../lib/wp/rest/item-schema';
import { Endpoint, Params, RequestHead, RestRequest, RestResponse } from '../../lib/wp/rest/route';
import { SUPPORT_SCHEMAS } from '../../schema/support';
import { inboundReceiptSchema } from '../../schema/support/inbound-receipt';
import { supportRoute } from './kit';

/** What the URL names: the mailbox of its route key (null: none, answered 404 by the credential checks). */
type UrlMailbox = Mailbox | null;

/**
 * What both webhooks share: servers call them (no browser cache involved), their subject, and on a
 * network the blog their route key names, which serves them whatever site's address they reached.
 */
const webhook = {
  cache: 'no-store',
  subject: (head: RequestHead) => mailboxOfRouteKey(head.site, head.urlParams.route_key ?? ''),
  blogOfUrl: (urlParams: Record<string, string>) => blogOfRouteKey(urlParams.route_key ?? ''),
  schema: routeSchema(inboundReceiptSchema, SUPPORT_SCHEMAS),
} as const;

const relayEndpoint: Endpoint<RelayDelivery, Params, UrlMailbox> = {
  methods: ['POST'], headCredential: relayInHead, principal: signedRelay, handler: receiveRelay, rawBody: true, maxBodyBytes: RELAY_MAX_BYTES,
};

export const relayWebhook = supportRoute({ ...webhook, route: '/webhooks/relay/(?P<route_key>[\\w-]+)', endpoints: [relayEndpoint] });

const connectionTestEndpoint: Endpoint<Mailbox, Params, UrlMailbox> = { methods: ['GET'], principal: mailboxOfToken, permission: automationOn, handler: connectionTest };
const inboundEndpoint: Endpoint<Mailbox, Params, UrlMailbox> = {
  methods: ['POST'], headCredential: tokenInHead, principal: mailboxOfToken, permission: automationOn, handler: receiveInbound, rawBody: true, maxBodyBytes: inboundLimit,
};

export const inboundWebhook = supportRoute({ ...webhook, route: '/webhooks/inbound/(?P<route_key>[\\w-]+)', endpoints: [connectionTestEndpoint, inboundEndpoint] });

async function signedRelay(req: RestRequest<unknown, Params, UrlMailbox>): Promise<RelayDelivery | WpError> {
  return relayDelivery(req.site, req.subject, req.urlParams.route_key ?? '', relayHeadersOf(req), req.rawBody ?? Buffer.alloc(0));
}

/** Before the body is read: the mailbox and the signature's headers; the signature over the body is checked at the principal stage. */
async function relayInHead(head: RequestHead<UrlMailbox>): Promise<WpError | null> {
  return relayHeadersRefusal(head.site, head.subject, relayHeadersOf(head));
}

async function mailboxOfToken(req: RequestHead<UrlMailbox>): Promise<Mailbox | WpError> {
  return tokenMailbox(req.subject, mailboxTokenOf(req.header('authorization'), req.header('x-svc-token')));
}

/** Before the body is read: the mailbox (404) and its token (401), so a wrong token costs no body. */
async function tokenInHead(head: RequestHead<UrlMailbox>): Promise<WpError | null> {
  const mailbox = await mailboxOfToken(head);
  return mailbox instanceof WpError ? mailbox : null;
}

function relayHeadersOf(head: RequestHead): RelayHeaders {
  return { timestamp: head.header('x-svc-timestamp'), deliveryId: head.header('x-svc-delivery'), signature: head.header('x-svc-signature') };
}

function automationOn(req: RestRequest<Mailbox>): true | WpError {
  return req.principal.automation ? true : automationOff();
}

async function receiveRelay(req: RestRequest<RelayDelivery>): Promise<RestResponse> {
  const { mailbox, deliveryId } = req.principal;
  const receipt = await acceptEmail(req.site, mailbox, req.rawBody ?? Buffer.alloc(0), { deliveryId }, { strict: false, vouched: true });
  return accepted(receipt);
}

async function receiveInbound(req: RestRequest<Mailbox>): Promise<RestResponse> {
  const mailbox = req.principal;
  const body = req.rawBody ?? Buffer.alloc(0);
  const payload = readInboundBody(body, req.header('content-type'));
  const raw = payload.kind === 'raw' ? payload.raw : await composeMessage(payload.fields);
  // Without a delivery ID, a repeat is recognised by the message's own Message-ID, else by the exact body.
  const identity = { bodyHash: sha256(body), trustMessageId: payload.kind === 'raw' || Boolean(payload.fields.messageId) };
  return accepted(await acceptEmail(req.site, mailbox, raw, identity, { strict: true, vouched: false }));
}

/** The automation tool's connection test: what the mailbox accepts. Nothing is stored. */
function connectionTest(req: RestRequest<Mailbox>): Record<string, unknown> {
  const mailbox = req.principal;
  return { ok: true, address: mailbox.address, max_bytes: mailbox.maxBytes };
}

/** The inbound route's body limit is the mailbox's own (an unknown mailbox was answered 404 already). */
async function inboundLimit(_site: Site, _urlParams: Record<string, string>, head: RequestHead<UrlMailbox>): Promise<number> {
  return head.subject?.maxBytes ?? DEFAULT_MAX_BYTES;
}

function accepted(receipt: Accepted): RestResponse {
  return new RestResponse(presentReceipt(receipt), 202);
}
