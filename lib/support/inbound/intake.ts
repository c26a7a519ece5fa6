/**
 * From a raw message to a stored outcome: parse, decide, and write the ticket or reply together with
 * the receipt in one transaction. The caller answers 202 only after this returns, so an acknowledged
 * message is committed, and a message whose transaction did not commit can be sent again safely.
 * Mail that must not become conversation (auto-replies, bounces, bulk, our own mail coming back,
 * repeats) is acknowledged too, with a receipt that says why nothing was stored: retrying it is useless.
 */
import { createHash } from 'node:crypto';
import { Site } from '../../wp/site';
import { Mailbox } from '../mailboxes/store';
import { SavedFile, saveFiles } from '../tickets/attachments';
import { EmailContent, EmailSender, addCustomerReplyFromEmail, addNoteFromEmail, openTicketFromEmail, openUnlinkedTicketFromEmail } from '../tickets/intake';
import { WriteContext, writeSupport } from '../write';
import { invalidFields, missingFields } from './errors';
import { automatedReason, isOwnMessageId } from './loops';
import { ParsedEmail, parseEmail } from './parse';
import { trimQuoted } from './quotes';
import { Receipt, ReceiptKey, claimReceipt, completeReceipt, findReceipt, findStoredMessages } from './store';
import { openInBatch } from './opening-batch';
import { findThread, isCustomerOf, sameMessageId, threadingIds, ticketTag } from './threading';

/** What makes two deliveries the same message: the relay's delivery ID, else the message's identity. */
export type Identity = { deliveryId: string } | { bodyHash: string; trustMessageId: boolean };

export interface AcceptOptions {
  /**
   * Answer 422 for a message that cannot be read or has no sender (the inbound route). The relay has
   * no 422 in its contract: there such mail is acknowledged and recorded as ignored.
   */
  strict: boolean;
  /** A relay signed the delivery, and so vouches for its sender (docs/security.md); automation tools do not. */
  vouched: boolean;
}

export interface Accepted extends Receipt {
  /** The receipt was stored by an earlier delivery of the same message. */
  replayed: boolean;
}

type Outcome = Omit<Receipt, 'receiptId'>;

export async function acceptEmail(site: Site, mailbox: Mailbox, raw: Buffer, identity: Identity, options: AcceptOptions): Promise<Accepted> {
  const email = await parseOrNull(raw);
  if (options.strict && !email) throw invalidFields(['message'], 'The message could not be parsed.');
  if (options.strict && !email?.from) throw missingFields(['from']);
  const key: ReceiptKey = { mailbox: mailbox.key, dedupeKey: dedupeKeyOf(identity, email) };
  // Read before the write: inside it, only its own transaction may be read (see writeSupport).
  const sender = email?.from ? await senderOf(site, email.from, options.vouched) : null;
  // Mail that opens a ticket is written together with such mail arriving meanwhile (./opening-batch.ts).
  if (email && sender && (await mayOpenTicket(site, mailbox, email, sender))) {
    const opened = await openInBatch(site, { mailboxKey: mailbox.key, key, sender, content: contentOf(email, raw) });
    if (opened) return { ...opened, replayed: false };
  }
  // A reply or a new ticket is re-read by this process's lists; mail that was ignored touched no ticket.
  const receipt = await writeSupport(site, {}, async (ctx) => {
    const receiptId = await claimReceipt(ctx.trx, ctx.tables, key, ctx.nowSeconds);
    if (!receiptId) return null;
    const done: Receipt = { receiptId, ...(await storeEmail(site, ctx, mailbox, email, sender, raw)) };
    // Ignored mail keeps the message as received, so that it stays findable and a ticket can still be opened from it.
    const rawFile = done.outcome === 'ignored' ? await keepIgnoredMessage(site, ctx, raw) : null;
    await completeReceipt(ctx.trx, ctx.tables, done, { rawFrom: email?.rawFrom ?? null, subject: email?.subject ?? null, rawFile });
    return done;
  });
  if (receipt) {
    return { ...receipt, replayed: false };
  }
  const stored = await findReceipt(site.db, key);
  if (!stored) throw new Error(`Mail receipt ${key.dedupeKey} was claimed but cannot be read.`);
  return { ...stored, replayed: true };
}

async function storeEmail(site: Site, ctx: WriteContext, mailbox: Mailbox, email: ParsedEmail | null, sender: EmailSender | null, raw: Buffer): Promise<Outcome> {
  if (!email) return ignored('unreadable');
  const reason = ignoredReason(email, sender, mailbox, ctx.home);
  if (reason) return ignored(reason);
  // One read answers both: do we hold this message already, and which of ours does it answer?
  const { messageId } = email;
  const stored = await findStoredMessages(ctx.trx, site.db, [...new Set([...(messageId ? [messageId] : []), ...threadingIds(email)])]);
  const known = messageId ? stored.find((m) => sameMessageId(m.messageId, messageId)) : undefined;
  // Our own message coming back is a loop; a customer's message we already hold is a repeat.
  if (known) return ignored(known.authorKind === 'customer' ? 'duplicate' : 'loop');
  const content = contentOf(email, raw);
  // No one to credit: never threaded (a reply or note would speak for someone), a ticket of its own for agents.
  if (!sender) return hasContent(email) ? ticketCreated(await openUnlinkedTicketFromEmail(site, ctx, mailbox.key, content)) : ignored('no_sender');
  const ticket = await findThread(ctx, site.db, email, sender, stored);
  if (!ticket) return ticketCreated(await openTicketFromEmail(site, ctx, mailbox.key, sender, content));
  if (isCustomerOf(sender, ticket)) {
    return { outcome: 'reply_added', reason: null, ticketId: ticket.id, messageId: await addCustomerReplyFromEmail(site, ctx, ticket, sender, content) };
  }
  return { outcome: 'note_added', reason: null, ticketId: ticket.id, messageId: await addNoteFromEmail(site, ctx, ticket, sender, content) };
}

/** Why mail that was read is still not conversation (auto-replies, bounces, our own mail), or null. */
function ignoredReason(email: ParsedEmail, sender: EmailSender | null, mailbox: Mailbox, home: string): string | null {
  const automated = automatedReason(email);
  if (automated) return automated;
  if (sender?.address.toLowerCase() === mailbox.address.toLowerCase()) return 'own_address';
  if (isOwnMessageId(email.messageId, home)) return 'loop';
  return null;
}

/**
 * Whether storeEmail() would open a ticket for this message, unless it is a repeat: the batch finds
 * those among its messages in one read and sends them one at a time. Mail that names a message
 * (threading headers) or a ticket (a subject tag) may continue a ticket: it is decided one at a time.
 */
async function mayOpenTicket(site: Site, mailbox: Mailbox, email: ParsedEmail, sender: EmailSender): Promise<boolean> {
  if (ignoredReason(email, sender, mailbox, await site.homeUrl())) return false;
  return !threadingIds(email).length && ticketTag(email.subject) === null;
}

/** The message as conversation: trimmed text, its files, and the whole original as `original.eml`. */
export function contentOf(email: ParsedEmail, raw: Buffer): EmailContent {
  return {
    subject: email.subject || '(no subject)',
    body: trimQuoted(email.text),
    messageId: email.messageId,
    inReplyTo: email.inReplyTo,
    files: [...email.attachments, { filename: 'original.eml', mimeType: 'message/rfc822', data: raw }],
    rawFrom: email.rawFrom,
  };
}

/** Something to read: text, or a file. A message with neither and no usable sender is ignored as `no_sender`. */
function hasContent(email: ParsedEmail): boolean {
  return email.text.trim() !== '' || email.attachments.length > 0;
}

/**
 * Writes the message as received under the private uploads folder, for its receipt; removed again if
 * the transaction does not commit (saveFiles). Returns the path relative to the uploads folder.
 */
async function keepIgnoredMessage(site: Site, ctx: WriteContext, raw: Buffer): Promise<string> {
  const [saved] = await saveFiles(site, ctx, [{ filename: 'message.eml', mimeType: 'message/rfc822', data: raw }]);
  return (saved as SavedFile).file;
}

/**
 * The From address, with the WordPress user who has it (their display name stands in for a missing
 * one, and for any one when no relay vouched for the sender: anyone can write that display name).
 */
export async function senderOf(site: Site, from: NonNullable<ParsedEmail['from']>, vouched: boolean): Promise<EmailSender> {
  const user = await site.users.byEmail(from.address);
  const agent = user ? (await site.capabilities.forUser(user)).can('svc_work_tickets') : false;
  const name = (vouched ? '' : user?.display_name) || from.name || user?.display_name || (from.address.split('@')[0] ?? '');
  return { address: from.address, name, userId: user?.ID ?? 0, agent, vouched };
}

function dedupeKeyOf(identity: Identity, email: ParsedEmail | null): string {
  if ('deliveryId' in identity) return `delivery:${identity.deliveryId}`;
  if (identity.trustMessageId && email?.messageId) return `message-id:${sha256(email.messageId.toLowerCase())}`;
  return `body:${identity.bodyHash}`;
}

export async function parseOrNull(raw: Buffer): Promise<ParsedEmail | null> {
  try {
    return await parseEmail(raw);
  } catch {
    return null;
  }
}

function ticketCreated(ticket: { ticketId: number; messageId: number }): Outcome {
  return { outcome: 'ticket_created', reason: null, ...ticket };
}

function ignored(reason: string): Outcome {
  return { outcome: 'ignored', reason, ticketId: null, messageId: null };
}

export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}
