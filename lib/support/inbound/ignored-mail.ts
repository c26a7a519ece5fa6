/**
 * Ignored mail for agents (docs/mail-intake.md, "Ignored mail stays findable"): the receipts of
 * messages intake acknowledged without storing them as conversation, and opening a ticket from one.
 * Opening reads the message kept with the receipt and writes the ticket intake would have opened for
 * it (its sender as the customer, or no one when From names no usable sender), never threaded into
 * another ticket and sending no mail. A receipt opens one ticket: a repeat, also a concurrent one
 * (it waits on the receipt's row), answers the ticket recorded on the receipt.
 */
import { WpError } from '../../wp/errors';
import { Site } from '../../wp/site';
import { attachmentFileExists, readAttachmentFile, uploadsDirOf } from '../tickets/attachments';
import { openTicketFromEmail, openUnlinkedTicketFromEmail } from '../tickets/intake';
import { writeSupport } from '../write';
import { contentOf, parseOrNull, senderOf } from './intake';
import { StoredReceipt, countReceipts, findReceiptById, findStoredMessages, listReceipts, lockOpenedTicket, recordOpenedTicket } from './store';
import { sameMessageId } from './threading';

export interface IgnoredMailFilter {
  reason?: string;
  mailbox?: string;
}

export interface IgnoredMailPage {
  receipts: StoredReceipt[];
  total: number;
  totalPages: number;
}

/** One page of ignored mail, newest first. */
export async function listIgnoredMail(site: Site, filter: IgnoredMailFilter, page: number, perPage: number): Promise<IgnoredMailPage> {
  const where = { ...filter, outcome: 'ignored' };
  const total = await countReceipts(site.db, where);
  const receipts = total ? await listReceipts(site.db, where, perPage, (page - 1) * perPage) : [];
  return { receipts, total, totalPages: Math.ceil(total / perPage) };
}

/** An ignored message as agents see it (schema/support/mail-receipt.ts): an allowlist, never the row. */
export async function presentIgnoredMail(site: Site, receipt: StoredReceipt): Promise<Record<string, unknown>> {
  return {
    receipt_id: receipt.receiptId,
    mailbox: receipt.mailbox,
    reason: receipt.reason,
    raw_from: receipt.rawFrom,
    subject: receipt.subject,
    received_at: new Date(receipt.createdAt * 1000).toISOString().replace('.000Z', 'Z'),
    ticket_id: receipt.ticketId,
    message_kept: await isMessageKept(site, receipt),
  };
}

/** Whether the message kept with a receipt is still there to open a ticket from (not read, only looked for). */
export async function isMessageKept(site: Site, receipt: StoredReceipt): Promise<boolean> {
  return receipt.rawFile !== null && attachmentFileExists(uploadsDirOf(site.config), receipt.rawFile);
}

export interface OpenedFromReceipt {
  ticketId: number;
  /** The receipt had opened this ticket already. */
  replayed: boolean;
}

/** Opens a ticket from an ignored message, once. */
export async function openTicketFromReceipt(site: Site, receiptId: string): Promise<OpenedFromReceipt> {
  const receipt = await findReceiptById(site.db, receiptId);
  if (!receipt || receipt.outcome !== 'ignored') throw receiptNotFound();
  if (receipt.ticketId !== null) return { ticketId: receipt.ticketId, replayed: true };
  const raw = await readKept(site, receipt);
  if (!raw) throw new WpError('svc_message_not_kept', 'The message of this receipt is no longer stored, so no ticket can be opened from it.', 410);
  const email = await parseOrNull(raw);
  if (!email) throw new WpError('svc_message_unreadable', 'The message of this receipt cannot be read, so no ticket can be opened from it.', 422);
  // Read before the write, as intake reads it (see writeSupport).
  const sender = email.from ? await senderOf(site, email.from, receipt.relayed) : null;
  const content = contentOf(email, raw);
  return writeSupport(site, {}, async (ctx): Promise<OpenedFromReceipt> => {
    // A concurrent opening of the same receipt waits here, and then answers the ticket this one opened.
    const openedMeanwhile = await lockOpenedTicket(ctx.trx, ctx.tables, receipt.receiptId);
    if (openedMeanwhile !== null) return { ticketId: openedMeanwhile, replayed: true };
    const { messageId } = content;
    const [stored] = messageId ? (await findStoredMessages(ctx.trx, site.db, [messageId])).filter((m) => sameMessageId(m.messageId, messageId)) : [];
    if (stored) throw new WpError('svc_message_already_stored', `This message is already stored in ticket ${stored.ticketId}.`, 409, { ticket_id: stored.ticketId });
    const opened = sender
      ? await openTicketFromEmail(site, ctx, receipt.mailbox, sender, content)
      : await openUnlinkedTicketFromEmail(site, ctx, receipt.mailbox, content);
    await recordOpenedTicket(ctx.trx, ctx.tables, receipt.receiptId, opened);
    return { ticketId: opened.ticketId, replayed: false };
  });
}

export function receiptNotFound(): WpError {
  return new WpError('svc_receipt_not_found', 'No ignored message has this receipt.', 404);
}

async function readKept(site: Site, receipt: StoredReceipt): Promise<Buffer | null> {
  return receipt.rawFile ? readAttachmentFile(uploadsDirOf(site.config), receipt.rawFile) : null;
}
