/**
 * Chat conversations in the storage map's shape: an `svc_chat` post per conversation and an
 * `svc_chat_msg` post per message (`post_parent` = the conversation), each named by its uuid
 * (`post_name`), both `private` (never shown by WordPress's front end). The conversation's token is
 * kept only as its SHA-256; what else it and its messages carry is `_svc_chat_*` postmeta
 * (docs/chat.md, "Storage"). Messages are in `ID` order.
 */
import { randomUUID } from 'node:crypto';
import { Knex } from 'knex';
import { Database } from '../../wp/db/database';
import { maybeUnserialize, phpEntries, serialize } from '../../wp/php';
import { PostWrites, updatePostMeta, updatePostRow } from '../../wp/posts';
import { WriteContext } from '../write';
import { chatMessageSchema } from '../../../schema/support/chat-message';

export const THREAD_POST_TYPE = 'svc_chat';
export const MESSAGE_POST_TYPE = 'svc_chat_msg';

export const THREAD_META = {
  tokenHash: '_svc_chat_token_hash',
  ticket: '_svc_chat_ticket',
  pageUrl: '_svc_chat_page_url',
  pageTitle: '_svc_chat_page_title',
  origin: '_svc_chat_origin',
} as const;

export const MESSAGE_META = {
  role: '_svc_chat_role',
  state: '_svc_chat_state',
  sources: '_svc_chat_sources',
} as const;

/** A doc passage an answer cites. */
export interface ChatSource {
  title: string;
  url: string;
}

export type ChatRole = (typeof chatMessageSchema.properties.role.enum)[number];
/**
 * `complete`; `interrupted`: the visitor left or the provider stopped mid-answer (what came is kept);
 * `failed`: the provider gave nothing usable; `no_answer`: nothing relevant in the docs, no model asked.
 */
export type MessageState = (typeof chatMessageSchema.properties.state.enum)[number];

export interface ChatThread {
  postId: number;
  uuid: string;
  tokenHash: string;
  /** UTC `YYYY-MM-DD HH:MM:SS`. */
  createdAt: string;
  /** The ticket the conversation was handed off to, or null. */
  ticketId: number | null;
  pageUrl: string;
  pageTitle: string;
}

export interface ChatMessage {
  postId: number;
  uuid: string;
  role: ChatRole;
  content: string;
  state: MessageState;
  sources: ChatSource[];
  createdAt: string;
}

/** The conversation with this uuid, or null: its row and meta in one statement. */
export async function findThread(db: Database, uuid: string): Promise<ChatThread | null> {
  const thread = (await readConversation(db.knex, db, { 'p.post_name': uuid }, false)).thread;
  // post_name compares under the column's collation on MySQL: only the exact uuid is this thread.
  return thread?.uuid === uuid ? thread : null;
}

/**
 * The conversation with this uuid and its messages, its row held until the transaction ends (MySQL:
 * two first messages of one new thread make it once, two handoffs open one ticket); null when there
 * is none. Two statements: the held row, then the thread and its messages with their meta at once.
 */
export async function holdConversation(trx: Knex.Transaction, db: Database, uuid: string): Promise<{ thread: ChatThread; messages: ChatMessage[] } | null> {
  const id = await threadIdByUuid(trx, db, uuid);
  return id === null ? null : readConversation(trx, db, { 'p.ID': id }, true) as Promise<{ thread: ChatThread; messages: ChatMessage[] }>;
}

async function threadIdByUuid(trx: Knex.Transaction, db: Database, uuid: string): Promise<number | null> {
  let query = trx(db.tables.posts).where({ post_type: THREAD_POST_TYPE, post_name: uuid }).orderBy('ID').first('ID', 'post_name');
  if (db.dialect === 'mysql') query = query.forUpdate();
  const row = await query;
  // post_name compares under the column's collation on MySQL: only the exact uuid is this thread.
  return row && String(row.post_name) === uuid ? Number(row.ID) : null;
}

interface ConversationRow {
  ID: number | string;
  post_type: string;
  post_name: string;
  post_content: string | null;
  post_date_gmt: string;
  meta_key: string | null;
  meta_value: string | null;
}

/**
 * The thread `which` names (the lowest ID if several) and, with `messages`, its messages in ID order:
 * every row with its meta joined (a post once per meta row), one statement instead of a read of the
 * rows and one of the meta.
 */
async function readConversation(
  knex: Knex | Knex.Transaction, db: Database, which: { 'p.ID': number } | { 'p.post_name': string }, messages: boolean,
): Promise<{ thread: ChatThread | null; messages: ChatMessage[] }> {
  const { posts, postmeta } = db.tables;
  const keys = [...Object.values(THREAD_META), ...Object.values(MESSAGE_META)];
  const rows: ConversationRow[] = await knex(`${posts} as p`)
    .leftJoin(`${postmeta} as m`, (on) => { on.on('m.post_id', '=', 'p.ID').onIn('m.meta_key', keys); })
    .where((w) => {
      w.where({ ...which, 'p.post_type': THREAD_POST_TYPE });
      if (messages && 'p.ID' in which) w.orWhere({ 'p.post_parent': which['p.ID'], 'p.post_type': MESSAGE_POST_TYPE });
    })
    .orderBy([{ column: 'p.ID' }, { column: 'm.meta_id' }])
    .select('p.ID', 'p.post_type', 'p.post_name', 'p.post_content', 'p.post_date_gmt', 'm.meta_key', 'm.meta_value');
  let thread: ChatThread | null = null;
  const found: ChatMessage[] = [];
  for (const [row, meta] of groupByPost(rows)) {
    if (row.post_type === THREAD_POST_TYPE) thread ??= threadOf(row, meta);
    else found.push(messageOf(row, meta));
  }
  return { thread, messages: found };
}

/** The joined rows a post at a time, each with its meta's first values (get_post_meta(…, true)). */
function groupByPost(rows: readonly ConversationRow[]): Array<[ConversationRow, Map<string, string>]> {
  const grouped: Array<[ConversationRow, Map<string, string>]> = [];
  let last: [ConversationRow, Map<string, string>] | undefined;
  for (const row of rows) {
    if (!last || Number(last[0].ID) !== Number(row.ID)) grouped.push((last = [row, new Map()]));
    if (row.meta_key !== null && !last[1].has(row.meta_key)) last[1].set(row.meta_key, row.meta_value ?? '');
  }
  return grouped;
}

function threadOf(row: ConversationRow, m: Map<string, string>): ChatThread {
  const ticket = Number(m.get(THREAD_META.ticket));
  return {
    postId: Number(row.ID), uuid: String(row.post_name), tokenHash: m.get(THREAD_META.tokenHash) ?? '', createdAt: String(row.post_date_gmt),
    ticketId: Number.isInteger(ticket) && ticket > 0 ? ticket : null,
    pageUrl: m.get(THREAD_META.pageUrl) ?? '', pageTitle: m.get(THREAD_META.pageTitle) ?? '',
  };
}

function messageOf(row: ConversationRow, m: Map<string, string>): ChatMessage {
  return {
    postId: Number(row.ID), uuid: String(row.post_name), content: String(row.post_content ?? ''), createdAt: String(row.post_date_gmt),
    role: m.get(MESSAGE_META.role) === 'assistant' ? 'assistant' : 'visitor',
    state: messageState(m.get(MESSAGE_META.state)),
    sources: storedSources(m.get(MESSAGE_META.sources)),
  };
}

export interface NewThread {
  uuid: string;
  tokenHash: string;
  /** The first message, shortened: the conversation's title in the admin. */
  title: string;
  pageUrl?: string;
  pageTitle?: string;
  origin?: string;
}

/**
 * A new conversation and its first message: both rows, then their guids in one UPDATE and their meta
 * in one INSERT (../../wp/posts.ts, PostWrites); the thread is made with the message's time, so it
 * needs no "modified" update of its own.
 */
export async function insertThreadWithMessage(ctx: WriteContext, t: NewThread, m: NewMessage): Promise<{ threadId: number; message: ChatMessage }> {
  const writes = new PostWrites(ctx.trx, ctx.tables, ctx.home);
  const threadId = await writes.insert({ post_type: THREAD_POST_TYPE, post_status: 'private', post_name: t.uuid, post_title: t.title, date: ctx.dates });
  const meta: Record<string, string> = { [THREAD_META.tokenHash]: t.tokenHash };
  if (t.pageUrl) meta[THREAD_META.pageUrl] = t.pageUrl;
  if (t.pageTitle) meta[THREAD_META.pageTitle] = t.pageTitle;
  if (t.origin) meta[THREAD_META.origin] = t.origin;
  writes.addMeta(threadId, meta);
  const message = await addMessage(writes, ctx, threadId, m);
  await writes.flush();
  return { threadId, message };
}

export interface NewMessage {
  role: ChatRole;
  content: string;
  state: MessageState;
  sources?: ChatSource[];
}

/** Adds a message to the conversation and marks the conversation modified. */
export async function insertMessage(ctx: WriteContext, threadId: number, m: NewMessage): Promise<ChatMessage> {
  const writes = new PostWrites(ctx.trx, ctx.tables, ctx.home);
  const message = await addMessage(writes, ctx, threadId, m);
  await writes.flush();
  await updatePostRow(ctx.trx, ctx.tables, threadId, { post_modified: ctx.dates.local, post_modified_gmt: ctx.dates.gmt }, { type: THREAD_POST_TYPE, parent: 0 });
  return message;
}

/** The message's row, its guid and meta queued in `writes`. */
async function addMessage(writes: PostWrites, ctx: WriteContext, threadId: number, m: NewMessage): Promise<ChatMessage> {
  const uuid = randomUUID();
  const id = await writes.insert({
    post_type: MESSAGE_POST_TYPE, post_status: 'private', post_name: uuid, post_parent: threadId, post_content: m.content, date: ctx.dates,
  });
  const sources = m.sources ?? [];
  writes.addMeta(id, {
    [MESSAGE_META.role]: m.role, [MESSAGE_META.state]: m.state,
    ...(sources.length ? { [MESSAGE_META.sources]: serialize(sources.map((s) => ({ title: s.title, url: s.url }))) } : {}),
  });
  return { postId: id, uuid, role: m.role, content: m.content, state: m.state, sources, createdAt: ctx.dates.gmt };
}

/** Records the ticket a conversation was handed to: no model answers it any more. */
export async function markHandedOff(ctx: WriteContext, threadId: number, ticketId: number): Promise<void> {
  await updatePostMeta(ctx.trx, ctx.tables, threadId, THREAD_META.ticket, ticketId);
}

/** The conversation's messages, oldest first. */
export async function threadMessages(db: Database, threadId: number): Promise<ChatMessage[]> {
  return (await readConversation(db.knex, db, { 'p.ID': threadId }, true)).messages;
}

function messageState(raw: string | undefined): MessageState {
  return raw === 'interrupted' || raw === 'failed' || raw === 'no_answer' ? raw : 'complete';
}

/** Sources as stored (a PHP-serialized list of `{title, url}` arrays); anything else is none. */
function storedSources(raw: string | undefined): ChatSource[] {
  if (raw === undefined) return [];
  return phpEntries(maybeUnserialize(raw)).flatMap(([, value]) => {
    const entry = Object.fromEntries(phpEntries(value)) as Record<string, unknown>;
    return typeof entry.title === 'string' && typeof entry.url === 'string' ? [{ title: entry.title, url: entry.url }] : [];
  });
}
