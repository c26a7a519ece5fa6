/**
 * Writing tickets and their conversation in the storage map's shape, inside a caller's transaction.
 * The version meta is the ticket's concurrency check: it is moved forward only from the value the
 * caller read (compare-and-set), so of concurrent changes made from one version exactly one wins.
 */
import { randomBytes } from 'node:crypto';
import { BatchPost, NewPost, PostWrites, addPostMeta, updatePostRow } from '../../wp/posts';
import { WriteContext } from '../write';
import { DELIVERY_META, MESSAGE_META, POST_TYPE, RAW_FROM_META, TICKET_META, postStatusOf, ATTACHED_FILE_META, CONTENT_ID_META } from './rows';
import { Message, Ticket, TicketPriority, TicketStatus, UnverifiedRequester } from './types';
import { staleVersion } from './policy';

/**
 * A write that adds tickets, messages, files or deliveries: their guids, slugs and meta are batched
 * and written together when the work is done (PostWrites), a few statements instead of two a post.
 */
export interface NewPostsContext extends WriteContext {
  posts: PostWrites;
}

/** Runs `work` with a batch for its new posts, and writes the batch when the work is done. */
export async function withNewPosts<T>(ctx: WriteContext, work: (ctx: NewPostsContext) => Promise<T>): Promise<T> {
  const posts = new PostWrites(ctx.trx, ctx.tables, ctx.home);
  const result = await work({ ...ctx, posts });
  await posts.flush();
  return result;
}

export interface NewTicketRows {
  subject: string;
  customerId: number;
  customerName: string;
  customerEmail: string;
  source: string;
  priority: TicketPriority;
  siteId?: string;
  mailbox?: string;
  /** The raw From of an email that names no usable sender (then the customer is nobody). */
  rawFrom?: string;
  requesterUnverified?: UnverifiedRequester;
}

export async function insertTicket(ctx: NewPostsContext, t: NewTicketRows): Promise<number> {
  const id = await ctx.posts.insert(ticketPost(ctx, t));
  addTicketMeta(ctx, id, t);
  return id;
}

function ticketPost(ctx: WriteContext, t: NewTicketRows): NewPost {
  return {
    post_type: POST_TYPE.ticket, post_status: postStatusOf('open'), post_title: t.subject, post_author: t.customerId, date: ctx.dates,
    post_name: (ticketId) => `svc-ticket-${String(ticketId).padStart(6, '0')}`,
  };
}

function addTicketMeta(ctx: NewPostsContext, id: number, t: NewTicketRows): void {
  const meta: Record<string, string | number> = {
    [TICKET_META.priority]: t.priority,
    [TICKET_META.source]: t.source,
    [TICKET_META.customerName]: t.customerName,
    [TICKET_META.customerEmail]: t.customerEmail,
    [TICKET_META.version]: 1,
  };
  if (t.siteId) meta[TICKET_META.siteId] = t.siteId;
  if (t.mailbox) meta[TICKET_META.mailbox] = t.mailbox;
  if (t.rawFrom !== undefined) meta[RAW_FROM_META] = t.rawFrom;
  if (t.requesterUnverified) meta[TICKET_META.requesterUnverified] = t.requesterUnverified;
  ctx.posts.addMeta(id, meta);
  ctx.changedTickets.add(id);
}

export interface NewMessageRows extends Pick<Message, 'ticketId' | 'body' | 'visibility' | 'authorId' | 'authorName' | 'authorEmail' | 'authorKind'> {
  /** RFC 5322 Message-ID; one is made when absent. */
  messageId?: string;
  inReplyTo?: string | null;
}

export async function insertMessage(ctx: NewPostsContext, m: NewMessageRows): Promise<{ id: number; messageId: string }> {
  const id = await ctx.posts.insert(messagePost(ctx, m));
  return { id, messageId: addMessageMeta(ctx, id, m) };
}

function messagePost(ctx: WriteContext, m: NewMessageRows): NewPost {
  return {
    post_type: POST_TYPE.message, post_status: m.visibility === 'internal' ? 'private' : 'publish', post_content: m.body,
    post_author: m.authorId, post_parent: m.ticketId, date: ctx.dates,
  };
}

/** Queues the message's meta; returns its Message-ID. */
function addMessageMeta(ctx: NewPostsContext, id: number, m: NewMessageRows): string {
  const messageId = m.messageId ?? makeMessageId(ctx.home, m.ticketId, id);
  const meta: Record<string, string> = {
    [MESSAGE_META.authorName]: m.authorName,
    [MESSAGE_META.authorEmail]: m.authorEmail,
    [MESSAGE_META.authorKind]: m.authorKind,
    [MESSAGE_META.messageId]: messageId,
  };
  if (m.inReplyTo) meta[MESSAGE_META.inReplyTo] = m.inReplyTo;
  ctx.posts.addMeta(id, meta);
  return messageId;
}

/** A Message-ID unique to this site and message: `<svc.<ticket>.<message>.<random>@<host>>`. */
export function makeMessageId(home: string, ticketId: number, messageId: number): string {
  const host = safeHost(home);
  return `<svc.${ticketId}.${messageId}.${randomBytes(6).toString('hex')}@${host}>`;
}

/** An attachment row: the file is already saved (attachments.ts). */
export interface NewAttachmentRows {
  messageId: number;
  authorId: number;
  filename: string;
  mimeType: string;
  /** The path under the uploads folder (`_wp_attached_file`). */
  file: string;
  contentId?: string;
}

export async function insertAttachment(ctx: NewPostsContext, a: NewAttachmentRows): Promise<number> {
  const id = await ctx.posts.insert(attachmentPost(ctx, a));
  addAttachmentMeta(ctx, id, a);
  return id;
}

function attachmentPost(ctx: WriteContext, a: NewAttachmentRows): NewPost {
  return {
    post_type: POST_TYPE.attachment, post_status: 'inherit', post_title: a.filename, post_name: `svc-file-${randomBytes(6).toString('hex')}`,
    post_author: a.authorId, post_parent: a.messageId, post_mime_type: a.mimeType, date: ctx.dates,
  };
}

function addAttachmentMeta(ctx: NewPostsContext, id: number, a: NewAttachmentRows): void {
  const meta: Record<string, string> = { [ATTACHED_FILE_META]: a.file };
  if (a.contentId) meta[CONTENT_ID_META] = a.contentId;
  ctx.posts.addMeta(id, meta);
}

/** A new ticket with its first message and files: insertOpenings() gives the message and files their parents' IDs. */
export interface NewOpeningRows {
  ticket: NewTicketRows;
  message: Omit<NewMessageRows, 'ticketId'>;
  files: Array<Omit<NewAttachmentRows, 'messageId'>>;
}

/**
 * Several new tickets, each with its first message and files, in one multi-row INSERT (emails that
 * arrive together): a message's parent (its ticket) and a file's (its message) are set with the guids,
 * once the IDs are read back. The rows are those insertTicket(), insertMessage() and insertAttachment()
 * write. Returns each ticket's ID and its message's.
 */
export async function insertOpenings(ctx: NewPostsContext, openings: NewOpeningRows[]): Promise<Array<{ ticketId: number; messageId: number }>> {
  const count = openings.length;
  const ids = await ctx.posts.insertMany([
    ...openings.map((o) => ticketPost(ctx, o.ticket)),
    ...openings.map((o, i): BatchPost => ({ ...messagePost(ctx, { ...o.message, ticketId: 0 }), post_parent: { sibling: i } })),
    ...openings.flatMap((o, i) => o.files.map((f): BatchPost => ({ ...attachmentPost(ctx, { ...f, messageId: 0 }), post_parent: { sibling: count + i } }))),
  ]);
  let file = 2 * count;
  return openings.map((o, i) => {
    const ticketId = ids[i] as number;
    const messageId = ids[count + i] as number;
    addTicketMeta(ctx, ticketId, o.ticket);
    addMessageMeta(ctx, messageId, { ...o.message, ticketId });
    for (const f of o.files) addAttachmentMeta(ctx, ids[file++] as number, { ...f, messageId });
    return { ticketId, messageId };
  });
}

export async function insertDelivery(ctx: NewPostsContext, d: { messageId: number; recipient: string }): Promise<number> {
  const id = await ctx.posts.insert({
    post_type: POST_TYPE.delivery, post_status: 'publish', post_parent: d.messageId, date: ctx.dates,
  });
  ctx.posts.addMeta(id, {
    [DELIVERY_META.status]: 'queued', [DELIVERY_META.attempts]: 0, [DELIVERY_META.recipient]: d.recipient, [DELIVERY_META.lastError]: '',
  });
  return id;
}

/**
 * Moves the delivery's status to `to` when it is one of `from` (compare-and-set on what the caller
 * read); false when another writer moved it first.
 */
export async function moveDeliveryStatus(ctx: WriteContext, deliveryId: number, from: readonly string[], to: string): Promise<boolean> {
  const moved = await ctx.trx(ctx.tables.postmeta).where({ post_id: deliveryId, meta_key: DELIVERY_META.status }).whereIn('meta_value', from)
    .update({ meta_value: to });
  if (moved) ctx.changes.postMetaKey(deliveryId, DELIVERY_META.status);
  return moved > 0;
}

/** Counts one more attempt when the count is still `seen`; false when another writer changed it first. */
export async function countDeliveryAttempt(ctx: WriteContext, deliveryId: number, seen: number): Promise<boolean> {
  const counted = await ctx.trx(ctx.tables.postmeta).where({ post_id: deliveryId, meta_key: DELIVERY_META.attempts, meta_value: String(seen) })
    .update({ meta_value: String(seen + 1) });
  if (counted) ctx.changes.postMetaKey(deliveryId, DELIVERY_META.attempts);
  return counted > 0;
}

/**
 * Moves the version from `expected` to `expected + 1`, or refuses with 409 and the current version.
 * The UPDATE's WHERE clause is the check, so two transactions cannot both pass it.
 */
export async function advanceVersion(ctx: WriteContext, ticketId: number, expected: number): Promise<number> {
  const next = expected + 1;
  const changed = await ctx.trx(ctx.tables.postmeta)
    .where({ post_id: ticketId, meta_key: TICKET_META.version, meta_value: String(expected) })
    .update({ meta_value: String(next) });
  if (changed > 0) {
    ctx.changes.postMetaKey(ticketId, TICKET_META.version);
    return next;
  }
  const row = await ctx.trx(ctx.tables.postmeta).where({ post_id: ticketId, meta_key: TICKET_META.version }).first('meta_value');
  if (!row && expected === 0) {
    // A ticket written without a version (older data) starts counting here.
    await addPostMeta(ctx.trx, ctx.tables, ticketId, { [TICKET_META.version]: next });
    return next;
  }
  throw staleVersion(Number(row?.meta_value ?? 0) || 0);
}

/**
 * Moves the version forward by one from whatever it is now, for writes that carry no version (an
 * incoming email). The database does the arithmetic, so concurrent bumps never lose one.
 */
export async function bumpVersion(ctx: WriteContext, ticketId: number): Promise<void> {
  const changed = await ctx.trx(ctx.tables.postmeta).where({ post_id: ticketId, meta_key: TICKET_META.version })
    .update({ meta_value: ctx.trx.raw('meta_value + 1') });
  if (changed) ctx.changes.postMetaKey(ticketId, TICKET_META.version);
  // A ticket written without a version (older data) starts counting here.
  else await addPostMeta(ctx.trx, ctx.tables, ticketId, { [TICKET_META.version]: 1 });
}

/** Records last activity (list order) and, optionally, a new status. */
export async function touchTicket(ctx: WriteContext, ticketId: number, status?: TicketStatus): Promise<void> {
  const update: Record<string, string> = { post_modified: ctx.dates.local, post_modified_gmt: ctx.dates.gmt };
  if (status) update.post_status = postStatusOf(status);
  await updatePostRow(ctx.trx, ctx.tables, ticketId, update, { type: POST_TYPE.ticket, parent: 0 });
  ctx.changedTickets.add(ticketId);
}

/**
 * The ticket's customer acted where their address is proven (signed in, the portal, mail a relay
 * vouched for): the requester is no longer unverified (docs/support-desk.md, "Unverified requesters").
 */
export async function confirmRequester(ctx: WriteContext, ticket: Ticket): Promise<void> {
  if (!ticket.requesterUnverified) return;
  const removed = await ctx.trx(ctx.tables.postmeta).where({ post_id: ticket.id, meta_key: TICKET_META.requesterUnverified }).del();
  if (removed) ctx.changes.postMetaKey(ticket.id, TICKET_META.requesterUnverified);
  ctx.changedTickets.add(ticket.id);
}

function safeHost(home: string): string {
  try {
    return new URL(home).hostname || 'localhost';
  } catch {
    return 'localhost';
  }
}
