/**
 * support/v1 mail webhooks (contract sections 4, 5, 7, 8; docs/mail-intake.md):
 * - POST /webhooks/relay/<route-key>: a raw message from a relay, signed with the mailbox's relay secret;
 * - POST /webhooks/inbound/<route-key>: a raw message or posted fields from an automation tool, with
 *   the mailbox token; GET on it is the tool's connection test and stores nothing.
 * The credential identifies the mailbox at the principal stage (404 unknown mailbox, 401 bad
 * credential); the permission check then asks whether its tools are on (403). Both answer 202 only
 * after the message and its receipt are committed.
 */
import { DEFAULT_MAX_BYTES, Mailbox, RELAY_MAX_BYTES, findMailbox } from '../../lib/support/mailboxes/store';
import { mailboxKeyOf } from '../../lib/support/mailboxes/route-key';
import { bearerSecretMatches } from '../../lib/support/bearer-secrets';
import { automationOff, invalidToken, mailboxNotFound } from '../../lib/support/inbound/errors';
import { readInboundBody } from '../../lib/support/inbound/inbound-body';
import { composeMessage } from '../../lib/support/inbound/compose';
import { Accepted, acceptEmail, sha256 } from '../../lib/support/inbound/intake';
import { RelayHeaders, checkRelayHeaders, verifyRelaySignature } from '../../lib/support/inbound/signature';
import { storageAvailability } from '../../lib/support/storage-check';
import { unixSeconds } from '../../lib/wp/clock';
import { WpError } from '../../lib/wp/errors';
import { Site } from '../../lib/wp/site';
import { Endpoint, RequestHead, RestRequest, RestResponse, RouteDeclaration, allowAnyone } from '../../lib/wp/rest/route';
import { NAMESPACE } from './common';

const webhookBase = {
  namespace: NAMESPACE,
  headers: { 'Cache-Control': 'no-store' },
  availability: storageAvailability,
};

/** A relay's delivery: the mailbox its signature names, and the relay's delivery ID. */
interface RelayDelivery {
  mailbox: Mailbox;
  deliveryId: string;
}

const relayEndpoint: Endpoint<RelayDelivery> = {
  methods: ['POST'], headCredential: relayHeaders, principal: signedRelay, permission: allowAnyone, handler: receiveRelay, rawBody: true, maxBodyBytes: RELAY_MAX_BYTES,
};

export const relayWebhook: RouteDeclaration = {
  ...webhookBase,
  route: '/webhooks/relay/(?P<route_key>[\\w-]+)',
  endpoints: [relayEndpoint],
};

const connectionTestEndpoint: Endpoint<Mailbox> = { methods: ['GET'], principal: tokenMailbox, permission: automationOn, handler: connectionTest };
const inboundEndpoint: Endpoint<Mailbox> = {
  methods: ['POST'], headCredential: tokenInHead, principal: tokenMailbox, permission: automationOn, handler: receiveInbound, rawBody: true, maxBodyBytes: inboundLimit,
};

export const inboundWebhook: RouteDeclaration = {
  ...webhookBase,
  route: '/webhooks/inbound/(?P<route_key>[\\w-]+)',
  endpoints: [connectionTestEndpoint, inboundEndpoint],
};

/** The signature (section 5) over the body with the mailbox's relay secret. */
async function signedRelay(req: RestRequest): Promise<RelayDelivery | WpError> {
  const mailbox = await mailboxOf(req);
  if (!mailbox) return mailboxNotFound();
  const checked = verifyRelaySignature(
    mailbox.relaySecret, req.urlParams.route_key as string, relayHeadersOf(req), req.rawBody ?? Buffer.alloc(0), unixSeconds(req.site.clock),
  );
  return checked instanceof WpError ? checked : { mailbox, deliveryId: checked.deliveryId };
}

/**
 * Before the body is read, what of the signature needs no body: the mailbox (404), and headers that
 * are present, well formed and fresh (401); the signature over the body is checked at the principal stage.
 */
async function relayHeaders(head: RequestHead): Promise<WpError | null> {
  const mailbox = await mailboxOf(head);
  if (!mailbox) return mailboxNotFound();
  return checkRelayHeaders(mailbox.relaySecret, relayHeadersOf(head), unixSeconds(head.site.clock));
}

/** Before the body is read: the mailbox (404) and its token (401), so a wrong token costs no body. */
async function tokenInHead(head: RequestHead): Promise<WpError | null> {
  const mailbox = await tokenMailbox(head);
  return mailbox instanceof WpError ? mailbox : null;
}

/** `Authorization: Bearer <token>`, or `X-Svc-Token` where a proxy strips Authorization. */
async function tokenMailbox(req: RequestHead): Promise<Mailbox | WpError> {
  const mailbox = await mailboxOf(req);
  if (!mailbox) return mailboxNotFound();
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.header('authorization') ?? '')?.[1];
  const token = bearer ?? req.header('x-svc-token')?.trim() ?? '';
  return bearerSecretMatches(token, mailbox.tokenHash) ? mailbox : invalidToken();
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
async function inboundLimit(_site: Site, _urlParams: Record<string, string>, head: RequestHead): Promise<number> {
  return (await mailboxOf(head))?.maxBytes ?? DEFAULT_MAX_BYTES;
}

/** The route key's mailbox, read once per request: its body limit, credential and handler all need it. */
function mailboxOf(head: RequestHead): Promise<Mailbox | null> {
  return head.once('mailbox', async () => {
    const key = mailboxKeyOf(head.urlParams.route_key ?? '', head.site.db.tables.blogId);
    return key ? findMailbox(head.site.db, key) : null;
  });
}

function accepted(receipt: Accepted): RestResponse {
  const body: Record<string, unknown> = { receipt_id: receipt.receiptId, outcome: receipt.outcome, ticket_id: receipt.ticketId };
  if (receipt.reason) body.reason = receipt.reason;
  return new RestResponse(body, 202);
}
