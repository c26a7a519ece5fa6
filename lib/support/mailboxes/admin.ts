/**
 * Managing mailboxes (what `understudy mailbox` does): adding one with fresh credentials, rotating
 * either credential, and changing its settings. Fresh secrets are returned to the caller exactly once;
 * afterwards only the relay secret can be read back (the token is stored as a hash).
 */
import { isEmail } from '../../wp/formatting';
import { Site } from '../../wp/site';
import { isMailboxKey, routeKeyOf } from './route-key';
import { hashBearerSecret, newBearerSecret } from '../bearer-secrets';
import { newRelaySecret } from './secrets';
import { DEFAULT_MAX_BYTES, MAX_MAX_BYTES, MIN_MAX_BYTES, Mailbox, findMailbox, insertMailbox, updateMailbox } from './store';

/** A refused change, with a message for the person who asked for it. */
export class MailboxError extends Error {
  override name = 'MailboxError';
}

export interface MailboxSettings {
  address?: string;
  maxBytes?: number;
  automation?: boolean;
}

/** A mailbox with the secrets just issued (`token` is null when it was not rotated: only its hash exists). */
export interface IssuedCredentials {
  mailbox: Mailbox;
  routeKey: string;
  token: string | null;
  relaySecret: string;
}

export async function addMailbox(site: Site, key: string, settings: MailboxSettings & { address: string }): Promise<IssuedCredentials> {
  if (!isMailboxKey(key)) throw new MailboxError(`Invalid mailbox key '${key}': use 1 to 63 lowercase letters, digits and hyphens.`);
  checkSettings(settings);
  if (await findMailbox(site.db, key)) throw new MailboxError(`A mailbox with the key '${key}' already exists.`);
  const token = newBearerSecret();
  const relaySecret = newRelaySecret();
  await insertMailbox(site, {
    key, address: settings.address, tokenHash: hashBearerSecret(token), relaySecret,
    maxBytes: settings.maxBytes ?? DEFAULT_MAX_BYTES, automation: settings.automation ?? false,
  });
  return issued(site, await mustFind(site, key), token, relaySecret);
}

/** A new mailbox token; the old one stops working at once. */
export async function rotateToken(site: Site, key: string): Promise<IssuedCredentials> {
  const mailbox = await mustFind(site, key);
  const token = newBearerSecret();
  await updateMailbox(site, mailbox.id, { tokenHash: hashBearerSecret(token) });
  return issued(site, await mustFind(site, key), token, mailbox.relaySecret);
}

/** A new relay secret; requests signed with the old one are refused from now on. */
export async function rotateRelaySecret(site: Site, key: string): Promise<IssuedCredentials> {
  const mailbox = await mustFind(site, key);
  const relaySecret = newRelaySecret();
  await updateMailbox(site, mailbox.id, { relaySecret });
  return issued(site, await mustFind(site, key), null, relaySecret);
}

export async function changeMailbox(site: Site, key: string, settings: MailboxSettings): Promise<Mailbox> {
  const mailbox = await mustFind(site, key);
  checkSettings(settings);
  await updateMailbox(site, mailbox.id, settings);
  return mustFind(site, key);
}

export function routeKeyFor(site: Site, mailbox: Mailbox): string {
  return routeKeyOf(site.db.tables.blogId, mailbox.key);
}

function checkSettings(settings: MailboxSettings): void {
  if (settings.address !== undefined && !isEmailAddress(settings.address)) {
    throw new MailboxError(`Invalid address '${settings.address}': give an email address such as support@example.com.`);
  }
  const max = settings.maxBytes;
  if (max !== undefined && (!Number.isInteger(max) || max < MIN_MAX_BYTES || max > MAX_MAX_BYTES)) {
    throw new MailboxError(`Invalid max bytes '${max}': give a whole number from ${MIN_MAX_BYTES} to ${MAX_MAX_BYTES}.`);
  }
}

/** WP: is_email(), and at most 254 characters (the longest address SMTP carries, RFC 5321). */
function isEmailAddress(value: string): boolean {
  return isEmail(value) && value.length <= 254;
}

async function mustFind(site: Site, key: string): Promise<Mailbox> {
  const mailbox = await findMailbox(site.db, key);
  if (!mailbox) throw new MailboxError(`No mailbox has the key '${key}'.`);
  return mailbox;
}

function issued(site: Site, mailbox: Mailbox, token: string | null, relaySecret: string): IssuedCredentials {
  return { mailbox, routeKey: routeKeyFor(site, mailbox), token, relaySecret };
}
