/**
 * Incoming email as ticket writes, inside the caller's transaction: opening a ticket, a customer's
 * reply, and a note for mail that threads into a ticket but is not from its customer. These are the
 * same writes the REST routes make (openTicket, storeReply), so an emailed ticket or reply sets off
 * exactly what a typed one does. An email carries no ticket version: the version simply moves on.
 */
import { Site } from '../../wp/site';
import { TicketOpening, openTicket } from './create';
import { ReplyAuthor, storeReply } from './reply';
import { IncomingFile, Ticket } from './types';
import { WriteContext } from '../write';
import { bumpVersion, confirmRequester } from './writes';

/** The From address of an email, matched to a WordPress user where one has that address. */
export interface EmailSender {
  address: string;
  name: string;
  /** The WordPress user with this email, or 0. */
  userId: number;
  /** That user holds `svc_work_tickets`. */
  agent: boolean;
  /** A signed relay vouched for the sender; otherwise a ticket the mail opens is marked unverified. */
  vouched: boolean;
}

export interface EmailContent {
  subject: string;
  /** The text to keep as the message body (quoted history and signature already trimmed). */
  body: string;
  messageId: string | null;
  inReplyTo: string | null;
  files: IncomingFile[];
  /** The From header as written: a receipt records it, and agents see it when it names no usable sender. */
  rawFrom: string;
}

/** A new ticket from an email: source `email`, the mailbox's key, the sender as the customer. */
export function openTicketFromEmail(site: Site, ctx: WriteContext, mailboxKey: string, sender: EmailSender, email: EmailContent): Promise<{ ticketId: number; messageId: number }> {
  return openTicket(site, ctx, emailOpening(mailboxKey, sender, email));
}

/**
 * A new ticket from an email whose From names no usable sender (docs/mail-intake.md): no customer
 * user, name or email, so no account can ever own it, and the raw From kept for agents.
 */
export function openUnlinkedTicketFromEmail(site: Site, ctx: WriteContext, mailboxKey: string, email: EmailContent): Promise<{ ticketId: number; messageId: number }> {
  return openTicket(site, ctx, { ...emailOpening(mailboxKey, NOBODY, email), rawFrom: email.rawFrom });
}

const NOBODY: EmailSender = { address: '', name: '', userId: 0, agent: false, vouched: false };

/** The ticket an email opens, for openTicket() or, with others, openTickets(). */
export function emailOpening(mailboxKey: string, sender: EmailSender, email: EmailContent): TicketOpening {
  return {
    subject: email.subject, body: email.body, source: 'email', mailbox: mailboxKey, files: email.files,
    customer: { userId: sender.userId, name: sender.name, email: sender.address }, authorKind: sender.agent ? 'agent' : 'customer',
    messageId: email.messageId, inReplyTo: email.inReplyTo,
    // A ticket linked to nobody names no requester whom a mark could warn about.
    requesterUnverified: sender.vouched || !sender.address ? undefined : 'inbound_webhook',
  };
}

/**
 * The ticket's customer answered by email: a public reply that reopens the ticket and fires
 * `customer_replied`; mail a relay vouched for confirms an unverified requester.
 */
export async function addCustomerReplyFromEmail(site: Site, ctx: WriteContext, ticket: Ticket, sender: EmailSender, email: EmailContent): Promise<number> {
  await bumpVersion(ctx, ticket.id);
  if (sender.vouched) await confirmRequester(ctx, ticket);
  const author: ReplyAuthor = { userId: sender.userId, name: sender.name, email: sender.address, kind: 'customer' };
  return storeReply(site, ctx, author, ticket, { body: email.body, visibility: 'public', files: email.files, messageId: email.messageId, inReplyTo: email.inReplyTo });
}

/**
 * Mail in a ticket's thread from someone other than its customer (a colleague on CC, an agent writing
 * from their mail client, a forward): an internal note. A From address proves nothing, so such mail
 * neither reaches the customer nor changes the status until an agent acts on it.
 */
export async function addNoteFromEmail(site: Site, ctx: WriteContext, ticket: Ticket, sender: EmailSender, email: EmailContent): Promise<number> {
  await bumpVersion(ctx, ticket.id);
  const author: ReplyAuthor = { userId: sender.userId, name: sender.name, email: sender.address, kind: sender.agent ? 'agent' : 'customer' };
  return storeReply(site, ctx, author, ticket, { body: email.body, visibility: 'internal', files: email.files, messageId: email.messageId, inReplyTo: email.inReplyTo });
}
