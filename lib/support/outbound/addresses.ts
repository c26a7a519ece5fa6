/**
 * Who an agent's reply is from and where the customer's answer should go: the ticket's mailbox when
 * it came in through one (mail intake files the answer back into the ticket by its threading
 * headers or the `[#id]` subject tag), else the site's admin email.
 */
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
  const address = String((await site.options.get('admin_email', '')) || '');
  if (!address) return undefined;
  return formatAddress(String((await site.options.get('blogname', '')) || ''), address);
}

/** Where the customer's answer to a reply must go to land in the same ticket. */
export async function replyAddressFor(site: Site, ticket: Ticket): Promise<string | undefined> {
  const mailbox = ticket.mailbox ? await findMailbox(site.db, ticket.mailbox) : null;
  if (mailbox?.address) return mailbox.address;
  return String((await site.options.get('admin_email', '')) || '') || undefined;
}
