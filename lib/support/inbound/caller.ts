/**
 * Who is calling a mail webhook (the REST server's principal stage; docs/mail-intake.md): a relay
 * that signs each delivery with the mailbox's relay secret, or an automation tool holding the
 * mailbox's token. `found` is the mailbox the webhook's route key names (the route's subject). The
 * route hands over what the request carries; nothing here reads HTTP.
 */
import { unixSeconds } from '../../wp/clock';
import { WpError } from '../../wp/errors';
import { Site } from '../../wp/site';
import { bearerSecretMatches } from '../bearer-secrets';
import { mailboxKeyOf } from '../mailboxes/route-key';
import { Mailbox, findMailbox } from '../mailboxes/store';
import { invalidToken, mailboxNotFound } from './errors';
import { RelayHeaders, checkRelayHeaders, verifyRelaySignature } from './signature';

/** A relay's delivery: the mailbox its signature names, and the relay's delivery ID. */
export interface RelayDelivery {
  mailbox: Mailbox;
  deliveryId: string;
}

/** The mailbox a webhook's route key names on this site, or null. */
export async function mailboxOfRouteKey(site: Site, routeKey: string): Promise<Mailbox | null> {
  const key = mailboxKeyOf(routeKey, site.db.tables.blogId);
  return key ? findMailbox(site.db, key) : null;
}

/** The relay's delivery when its signature (section 5) over the body holds under the mailbox's relay secret: 404 unknown mailbox, 401 bad signature. */
export function relayDelivery(site: Site, found: Mailbox | null, routeKey: string, headers: RelayHeaders, body: Buffer): RelayDelivery | WpError {
  if (!found) return mailboxNotFound();
  const checked = verifyRelaySignature(found.relaySecret, routeKey, headers, body, unixSeconds(site.clock));
  return checked instanceof WpError ? checked : { mailbox: found, deliveryId: checked.deliveryId };
}

/**
 * Before the body is read, what of a relay's signature needs no body: the mailbox (404), and headers
 * that are present, well formed and fresh (401); null to go on.
 */
export function relayHeadersRefusal(site: Site, found: Mailbox | null, headers: RelayHeaders): WpError | null {
  if (!found) return mailboxNotFound();
  return checkRelayHeaders(found.relaySecret, headers, unixSeconds(site.clock));
}

/** The token an automation tool sends: `Authorization: Bearer <token>`, else `X-Svc-Token` (where a proxy strips Authorization). */
export function mailboxTokenOf(authorization: string | undefined, tokenHeader: string | undefined): string {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  return bearer ?? tokenHeader?.trim() ?? '';
}

/** The mailbox when `token` is its token: 404 unknown mailbox, 401 a missing or wrong token. */
export function tokenMailbox(found: Mailbox | null, token: string): Mailbox | WpError {
  if (!found) return mailboxNotFound();
  return bearerSecretMatches(token, found.tokenHash) ? found : invalidToken();
}
