/**
 * Which ticket an email belongs to. First by its threading headers: In-Reply-To, then References from
 * the newest back (the latest 20 and the first), against the Message-IDs of this site's messages (`_svc_message_id`: the ones we
 * sent and the ones we stored). Then by a ticket tag in the subject (`[#123]`, as our replies carry
 * it; also `[Ticket #123]`), but only when the sender is that ticket's customer: a subject is easy to
 * guess. Otherwise the email opens a new ticket.
 */
import { Database } from '../../wp/db/database';
import { findTicket } from '../tickets/store';
import { EmailSender } from '../tickets/intake';
import { Ticket } from '../tickets/types';
import { WriteContext } from '../write';
import { ParsedEmail } from './parse';
import { StoredMessage } from './store';

/**
 * How many of the latest References IDs threading looks at, besides the first. RFC 5322 3.6.4 has each
 * reply's References grow by one ID, and mail clients trim long lists to the first ID (the thread's
 * root) and the latest ones. Our replies carry at most 20 (outbound/threading.ts), so a reply to one
 * carries at most 21: the first and the latest 20 hold every ID such a reply can name. Looking at no
 * more also bounds the query: a header listing 50,000 IDs must not become 50,000 SQL variables.
 */
const LATEST_REFERENCES = 20;

/**
 * The Message-IDs a message is threaded by, in the order they are tried: In-Reply-To (its first ID;
 * see parse.ts), the latest References from the newest back, then the first (the thread's root).
 */
export function threadingIds(email: Pick<ParsedEmail, 'inReplyTo' | 'references'>): string[] {
  const { references } = email;
  const latest = references.slice(-LATEST_REFERENCES).reverse();
  const root = references.length > LATEST_REFERENCES ? references.slice(0, 1) : [];
  return [...new Set([...(email.inReplyTo ? [email.inReplyTo] : []), ...latest, ...root])];
}

/**
 * The ticket the email continues, or null for a new conversation. `stored`: what findStoredMessages()
 * found for (at least) threadingIds(email), read by the caller together with its own lookups.
 */
export async function findThread(ctx: WriteContext, db: Database, email: ParsedEmail, sender: EmailSender, stored: StoredMessage[]): Promise<Ticket | null> {
  for (const id of threadingIds(email)) {
    const hit = stored.find((m) => sameMessageId(m.messageId, id));
    const ticket = hit ? await findTicket(db, hit.ticketId, ctx.trx) : null;
    if (ticket) return ticket;
  }
  const tagged = ticketTag(email.subject);
  if (tagged === null) return null;
  const ticket = await findTicket(db, tagged, ctx.trx);
  return ticket && isCustomerOf(sender, ticket) ? ticket : null;
}

/** MySQL's _ci collations match IDs whatever their case; compare the same way here. */
export function sameMessageId(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** The ticket number of a `[#123]` / `[Ticket #123]` tag in a subject, or null. */
export function ticketTag(subject: string): number | null {
  const match = /\[(?:[^\]\[#]*\s)?#(\d{1,18})\]/.exec(subject);
  const id = match ? Number(match[1]) : NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** Storage map: the customer of a ticket is its post_author or its customer email (compared case-insensitively). */
export function isCustomerOf(sender: EmailSender, ticket: Ticket): boolean {
  if (sender.userId > 0 && ticket.customerId === sender.userId) return true;
  return ticket.customerEmail !== '' && ticket.customerEmail.toLowerCase() === sender.address.toLowerCase();
}
