/**
 * support/v1 mail webhooks (contract sections 4, 5, 7, 8; docs/mail-intake.md):
 * - POST /webhooks/relay/<route-key>: a raw message from a relay, signed with the mailbox's relay secret;
 * - POST /webhooks/inbound/<route-key>: a raw message or posted fields from an automation tool, with
 *   the mailbox token; GET on it is the tool's connection test and stores nothing.
 * The credential check is the permission stage (404 unknown mailbox, 401 bad credential, 403 tools
 * off); it remembers the mailbox it checked for the handler. Both answer 202 only after the message
 * and its receipt are committed.
 */
import { DEFAULT_MAX_BYTES, Mailbox, RELAY_MAX_BYTES, findMailbox } from '../../lib/support/mailboxes/store';
import { mailboxKeyOf } from '../../lib/support/mailboxes/route-key';
import { tokenMatches } from '../../lib/support/mailboxes/secrets';
import { automationOff, invalidToken, mailboxNotFound } from '../../lib/support/mail/errors';
import { readInboundBody } from '../../lib/support/mail/inbound-body';
import { composeMessage } from '../../lib/support/mail/compose';
import { Accepted, acceptEmail, sha256 } from '../../lib/support/mail/intake';
import { verifyRelaySignature } from '../../lib/support/mail/signature';
import { storageAvailability } from '../../lib/support/storage-check';
import { unixSeconds } from '../../lib/wp/clock';
import { WpError } from '../../lib/wp/errors';
import { Site } from '../../lib/wp/site';
import { RestRequest, RestResponse, RouteDeclaration } from '../../lib/wp/rest/route';
import { NAMESPACE } from './common';

const webhookBase = {
  namespace: NAMESPACE,
  headers: { 'Cache-Control': 'no-store' },
  availability: storageAvailability,
};

export const relayWebhook: RouteDeclaration = {
  ...webhookBase,
  route: '/webhooks/relay/(?P<route_key>[\\w-]+)',
  endpoints: [{ methods: ['POST'], permission: checkRelaySignature, handler: receiveRelay, rawBody: true, maxBodyBytes: RELAY_MAX_BYTES }],
};

export const inboundWebhook: RouteDeclaration = {
  ...webhookBase,
  route: '/webhooks/inbound/(?P<route_key>[\\w-]+)',
  endpoints: [
    { methods: ['GET'], permission: checkMailboxToken, handler: connectionTest },
    { methods: ['POST'], permission: checkMailboxToken, handler: receiveInbound, rawBody: true, maxBodyBytes: inboundLimit },
  ],
};

/** The mailbox each request's permission check verified, for its handler. */
const verified = new WeakMap<RestRequest, { mailbox: Mailbox; deliveryId?: string }>();

async function checkRelaySignature(req: RestRequest): Promise<true | WpError> {
  const mailbox = await mailboxOf(req.site, req.urlParams.route_key as string);
  if (!mailbox) return mailboxNotFound();
  const checked = verifyRelaySignature(mailbox.relaySecret, req.urlParams.route_key as string, {
    timestamp: req.header('x-svc-timestamp'), deliveryId: req.header('x-svc-delivery'), signature: req.header('x-svc-signature'),
  }, req.rawBody ?? Buffer.alloc(0), unixSeconds(req.site.clock));
  if (checked instanceof WpError) return checked;
  verified.set(req, { mailbox, deliveryId: checked.deliveryId });
  return true;
}

/** `Authorization: Bearer <token>`, or `X-Svc-Token` where a proxy strips Authorization. */
async function checkMailboxToken(req: RestRequest): Promise<true | WpError> {
  const mailbox = await mailboxOf(req.site, req.urlParams.route_key as string);
  if (!mailbox) return mailboxNotFound();
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.header('authorization') ?? '')?.[1];
  const token = bearer ?? req.header('x-svc-token')?.trim() ?? '';
  if (!tokenMatches(token, mailbox.tokenHash)) return invalidToken();
  if (!mailbox.automation) return automationOff();
  verified.set(req, { mailbox });
  return true;
}

async function receiveRelay(req: RestRequest): Promise<RestResponse> {
  const { mailbox, deliveryId } = checkedMailbox(req);
  const receipt = await acceptEmail(req.site, mailbox, req.rawBody ?? Buffer.alloc(0), { deliveryId: deliveryId as string }, { strict: false });
  return accepted(receipt);
}

async function receiveInbound(req: RestRequest): Promise<RestResponse> {
  const { mailbox } = checkedMailbox(req);
  const body = req.rawBody ?? Buffer.alloc(0);
  const payload = readInboundBody(body, req.header('content-type'));
  const raw = payload.kind === 'raw' ? payload.raw : await composeMessage(payload.fields);
  // Without a delivery ID, a repeat is recognised by the message's own Message-ID, else by the exact body.
  const identity = { bodyHash: sha256(body), trustMessageId: payload.kind === 'raw' || Boolean(payload.fields.messageId) };
  return accepted(await acceptEmail(req.site, mailbox, raw, identity, { strict: true }));
}

/** The automation tool's connection test: what the mailbox accepts. Nothing is stored. */
function connectionTest(req: RestRequest): Record<string, unknown> {
  const { mailbox } = checkedMailbox(req);
  return { ok: true, address: mailbox.address, max_bytes: mailbox.maxBytes };
}

/** The inbound route's body limit is the mailbox's own (an unknown mailbox is answered 404 after the read). */
async function inboundLimit(site: Site, urlParams: Record<string, string>): Promise<number> {
  return (await mailboxOf(site, urlParams.route_key ?? ''))?.maxBytes ?? DEFAULT_MAX_BYTES;
}

async function mailboxOf(site: Site, routeKey: string): Promise<Mailbox | null> {
  const key = mailboxKeyOf(routeKey, site.db.tables.blogId);
  return key ? findMailbox(site.db, key) : null;
}

function checkedMailbox(req: RestRequest): { mailbox: Mailbox; deliveryId?: string } {
  const found = verified.get(req);
  if (!found) throw new Error('The mailbox credential was not checked before the handler.');
  return found;
}

function accepted(receipt: Accepted): RestResponse {
  const body: Record<string, unknown> = { receipt_id: receipt.receiptId, outcome: receipt.outcome, ticket_id: receipt.ticketId };
  if (receipt.reason) body.reason = receipt.reason;
  return new RestResponse(body, 202);
}
