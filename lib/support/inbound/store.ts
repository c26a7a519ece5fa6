/**
 * The SQL of mail intake: receipts, and the stored messages a Message-ID names (threading.ts decides
 * what they mean).
 *
 * Receipts of accepted mail (`{p}svc_mail_receipts`), unique by (mailbox, dedupe key) and written in
 * the transaction that stores the message. One message at a time, the receipt is claimed first thing:
 * a concurrent duplicate waits for that transaction and then finds the key taken. A batch of new
 * tickets (./opening-batch.ts) leaves out keys already stored and inserts its receipts last; a key
 * taken meanwhile rolls the batch back. Either way a retry after a crash before the commit finds
 * nothing and stores the message anew, and the 202 is sent only after the commit, so a receipt ID the
 * sender holds always names a stored outcome.
 */
import { randomBytes } from 'node:crypto';
import { Knex } from 'knex';
import { Database } from '../../wp/db/database';
import { Tables } from '../../wp/db/tables';
import { insertEachUnlessTaken, insertUnlessTaken } from '../../wp/db/transaction';
import { inboundReceiptSchema } from '../../../schema/support/inbound-receipt';
import { MESSAGE_META, POST_TYPE } from '../tickets/rows';

/** What became of a message: a ticket, a reply, a note on a ticket, or nothing (with the reason). */
export type ReceiptOutcome = (typeof inboundReceiptSchema.properties.outcome.enum)[number];

export interface Receipt {
  receiptId: string;
  outcome: ReceiptOutcome;
  reason: string | null;
  ticketId: number | null;
  messageId: number | null;
}

/** What a receipt keeps of its message besides the outcome, so that ignored mail stays findable. */
export interface ReceiptDetails {
  /** The From header as written (parse.ts rawFrom); null for an unreadable message. */
  rawFrom: string | null;
  subject: string | null;
  /** Ignored mail: the message as received, a path under the uploads folder (private folder); else null. */
  rawFile: string | null;
}

/** A receipt as listed: its outcome, what it keeps of the message, the mailbox and when it arrived. */
export interface StoredReceipt extends Receipt, ReceiptDetails {
  mailbox: string;
  /** A signed relay delivered it (its dedupe key names the delivery): the relay vouched for the sender. */
  relayed: boolean;
  /** Unix seconds. */
  createdAt: number;
}

/** Which receipts a list shows; `since` and `until` are Unix seconds (from, inclusive; to, exclusive). */
export interface ReceiptFilter {
  outcome?: string;
  reason?: string;
  mailbox?: string;
  since?: number;
  until?: number;
}

/** varchar(255): a subject is cut to it by code points (MySQL counts characters; no half surrogate pair is stored). */
const SUBJECT_MAX = 255;

export interface ReceiptKey {
  mailbox: string;
  /** `delivery:<X-Svc-Delivery>`, `message-id:<sha256>` or `body:<sha256>` (docs/mail-intake.md). */
  dedupeKey: string;
}

/** Claims the key inside `trx`; returns the new receipt ID, or null when another request holds the key. */
export async function claimReceipt(trx: Knex.Transaction, tables: Tables, key: ReceiptKey, nowSeconds: number): Promise<string | null> {
  const receiptId = newReceiptId();
  const row = { receipt_id: receiptId, mailbox: key.mailbox, dedupe_key: key.dedupeKey, outcome: 'pending', created_at: nowSeconds };
  return (await insertUnlessTaken(trx, tables.plugin('svc', 'mail_receipts'), row, ['mailbox', 'dedupe_key'])) ? receiptId : null;
}

/** Records the outcome in the same transaction as the writes it describes. */
export async function completeReceipt(trx: Knex.Transaction, tables: Tables, receipt: Receipt, details: ReceiptDetails): Promise<void> {
  await trx(tables.plugin('svc', 'mail_receipts')).where({ receipt_id: receipt.receiptId }).update({
    outcome: receipt.outcome, reason: receipt.reason, ticket_id: receipt.ticketId, message_id: receipt.messageId, ...detailColumns(details),
  });
}

function detailColumns(details: ReceiptDetails): Record<string, string | null> {
  const subject = details.subject === null ? null : Array.from(details.subject).slice(0, SUBJECT_MAX).join('');
  return { raw_from: details.rawFrom, subject, raw_file: details.rawFile };
}

/**
 * Claims several keys and records their outcomes at once, at the end of the transaction that stored
 * them (a batch, ./opening-batch.ts); false when any key was taken, and the transaction must not commit.
 * In key order, so that two batches holding some of the same keys cannot deadlock on each other.
 */
export async function storeReceipts(trx: Knex.Transaction, tables: Tables, receipts: Array<{ key: ReceiptKey; receipt: Receipt; details: ReceiptDetails }>, nowSeconds: number): Promise<boolean> {
  // The index's own order (case aside), so that concurrent batches take their locks alike.
  const rows = [...receipts].sort((a, b) => (keyText(a.key) < keyText(b.key) ? -1 : 1)).map(({ key, receipt, details }) => ({
    receipt_id: receipt.receiptId, mailbox: key.mailbox, dedupe_key: key.dedupeKey, outcome: receipt.outcome, reason: receipt.reason,
    ticket_id: receipt.ticketId, message_id: receipt.messageId, created_at: nowSeconds, ...detailColumns(details),
  }));
  return (await insertEachUnlessTaken(trx, tables.plugin('svc', 'mail_receipts'), rows, ['mailbox', 'dedupe_key'])) === rows.length;
}

/** Which of these keys already hold a receipt (compared as MySQL's `_ci` index compares them: case aside). */
export async function storedKeys(trx: Knex.Transaction, tables: Tables, keys: ReceiptKey[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  // Both columns as lists: the unique index serves it on both engines (a batch has one mailbox, mostly).
  const rows = await trx(tables.plugin('svc', 'mail_receipts')).whereIn('mailbox', [...new Set(keys.map((k) => k.mailbox))])
    .whereIn('dedupe_key', [...new Set(keys.map((k) => k.dedupeKey))]).select('mailbox', 'dedupe_key');
  const wanted = new Set(keys.map(keyText));
  return new Set(rows.map((r: { mailbox: string; dedupe_key: string }) => keyText({ mailbox: r.mailbox, dedupeKey: r.dedupe_key })).filter((k: string) => wanted.has(k)));
}

/** A key as one string, case aside (MySQL's unique index holds `A` and `a` to be the same key). */
export function keyText(key: ReceiptKey): string {
  return `${key.mailbox}\n${key.dedupeKey}`.toLowerCase();
}

/** A new receipt's ID. */
export function newReceiptId(): string {
  return randomBytes(16).toString('hex');
}

export async function findReceipt(db: Database, key: ReceiptKey): Promise<Receipt | null> {
  const row = await db.knex(db.tables.plugin('svc', 'mail_receipts')).where({ mailbox: key.mailbox, dedupe_key: key.dedupeKey })
    .first('receipt_id', 'outcome', 'reason', 'ticket_id', 'message_id');
  if (!row) return null;
  return {
    receiptId: String(row.receipt_id),
    outcome: row.outcome as ReceiptOutcome,
    reason: row.reason ?? null,
    ticketId: row.ticket_id === null ? null : Number(row.ticket_id),
    messageId: row.message_id === null ? null : Number(row.message_id),
  };
}

const LISTED_COLUMNS = ['receipt_id', 'mailbox', 'dedupe_key', 'outcome', 'reason', 'ticket_id', 'message_id', 'raw_from', 'subject', 'raw_file', 'created_at'];

/** Receipts the filter selects, newest first. */
export async function listReceipts(db: Database, filter: ReceiptFilter, limit: number, offset = 0): Promise<StoredReceipt[]> {
  const rows = await filtered(db, filter).select(LISTED_COLUMNS).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset);
  return rows.map(toStoredReceipt);
}

export async function countReceipts(db: Database, filter: ReceiptFilter): Promise<number> {
  const [row] = await filtered(db, filter).count({ total: '*' });
  return Number((row as { total: number | string } | undefined)?.total ?? 0);
}

/** A receipt by its ID (as the sender holds it), or null. */
export async function findReceiptById(db: Database, receiptId: string): Promise<StoredReceipt | null> {
  const row = await db.knex(db.tables.plugin('svc', 'mail_receipts')).where({ receipt_id: receiptId }).first(LISTED_COLUMNS);
  return row ? toStoredReceipt(row) : null;
}

/**
 * The ticket an agent opened from this receipt's message, or null; the row stays locked until `trx`
 * ends (MySQL; SQLite runs one write at a time), so a concurrent opening waits here and then reads it.
 */
export async function lockOpenedTicket(trx: Knex.Transaction, tables: Tables, receiptId: string): Promise<number | null> {
  const row = await trx(tables.plugin('svc', 'mail_receipts')).where({ receipt_id: receiptId }).forUpdate().first('ticket_id');
  return row?.ticket_id === null || row?.ticket_id === undefined ? null : Number(row.ticket_id);
}

/** Records the ticket an agent opened from the receipt's message; the outcome stays `ignored`, as intake decided. */
export async function recordOpenedTicket(trx: Knex.Transaction, tables: Tables, receiptId: string, opened: { ticketId: number; messageId: number }): Promise<void> {
  await trx(tables.plugin('svc', 'mail_receipts')).where({ receipt_id: receiptId }).update({ ticket_id: opened.ticketId, message_id: opened.messageId });
}

function filtered(db: Database, filter: ReceiptFilter): Knex.QueryBuilder {
  const query = db.knex(db.tables.plugin('svc', 'mail_receipts'));
  if (filter.outcome !== undefined) query.where('outcome', filter.outcome);
  if (filter.reason !== undefined) query.where('reason', filter.reason);
  if (filter.mailbox !== undefined) query.where('mailbox', filter.mailbox);
  if (filter.since !== undefined) query.where('created_at', '>=', filter.since);
  if (filter.until !== undefined) query.where('created_at', '<', filter.until);
  return query;
}

function toStoredReceipt(row: Record<string, unknown>): StoredReceipt {
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
  const id = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return {
    receiptId: String(row.receipt_id), mailbox: String(row.mailbox), outcome: row.outcome as ReceiptOutcome, reason: text(row.reason),
    ticketId: id(row.ticket_id), messageId: id(row.message_id), rawFrom: text(row.raw_from), subject: text(row.subject),
    rawFile: text(row.raw_file), relayed: String(row.dedupe_key).startsWith('delivery:'), createdAt: Number(row.created_at),
  };
}

export interface StoredMessage {
  messageId: string;
  postId: number;
  ticketId: number;
  authorKind: string;
}

/** This site's messages with any of these Message-IDs (one query: callers bound the list, see threadingIds). */
export async function findStoredMessages(trx: Knex.Transaction, db: Database, ids: string[]): Promise<StoredMessage[]> {
  if (!ids.length) return [];
  const { posts, postmeta } = db.tables;
  const rows = await trx(`${postmeta} as m`)
    .join(`${posts} as p`, 'p.ID', 'm.post_id')
    .leftJoin(`${postmeta} as k`, (j) => j.on('k.post_id', '=', 'p.ID').andOnVal('k.meta_key', '=', MESSAGE_META.authorKind))
    .where('m.meta_key', MESSAGE_META.messageId).whereIn('m.meta_value', ids).andWhere('p.post_type', POST_TYPE.message)
    .orderBy('p.ID')
    .select('m.meta_value as message_id', 'p.ID as post_id', 'p.post_parent as ticket_id', 'k.meta_value as kind');
  return rows.map((r: Record<string, unknown>) => ({
    messageId: String(r.message_id), postId: Number(r.post_id), ticketId: Number(r.ticket_id), authorKind: String(r.kind ?? 'customer'),
  }));
}
