/**
 * Who an agent's reply is from and where the customer's answer should go: the ticket's mailbox when
 * it came in through one (mail intake files the answer back into the ticket by its threading
 * headers or the `[#id]` subject tag), else the site's admin email.
 *
 * These addresses come from settings that can be written past any check (`option update`, the
 * tables), so one that is not exactly one address is passed over, with a warning, as if it were
 * empty: the reply still reaches the customer, and nothing in a setting can add a recipient.
 */
import { isCleanAddress } from '../../mail/address';
import { Site } from '../../wp/site';
import { findMailbox } from '../mailboxes/store';
import { Ticket } from '../tickets/types';

/** `"Name" <address>`, quoting the name so commas, quotes and non-ASCII survive address parsing. */
export function formatAddress(name: string, address: string): string {
  const clean = name.replace(/[\r\n]+/g, ' ').trim();
  return clean ? `"${clean.replace(/(["\\])/g, '\\$1')}" <${address}>` : address;
}

/** The sender of replies: the site's name at its admin email (WP: get_bloginfo('name'), get_option('admin_email')). */
export async function senderFor(site: Site): Promise<string | undefined> {
  const address = await adminEmail(site);
  if (!address) return undefined;
  return formatAddress(String((await site.options.get('blogname', '')) || ''), address);
}

/** Where the customer's answer to a reply must go to land in the same ticket. */
export async function replyAddressFor(site: Site, ticket: Ticket): Promise<string | undefined> {
  const mailbox = ticket.mailbox ? await findMailbox(site.db, ticket.mailbox) : null;
  return usable(site, `the address of mailbox '${ticket.mailbox}'`, mailbox?.address ?? '') ?? (await adminEmail(site));
}

/** admin_email when it is one address, else nothing (the mailer's default sender then stands in). */
async function adminEmail(site: Site): Promise<string | undefined> {
  return usable(site, 'admin_email', String((await site.options.get('admin_email', '')) || ''));
}

function usable(site: Site, what: string, address: string): string | undefined {
  if (!address) return undefined;
  if (isCleanAddress(address)) return address;
  site.logger.warn(`${what} is not one email address; reply emails do without it`, { address });
  return undefined;
}
