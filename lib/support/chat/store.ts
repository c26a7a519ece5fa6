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
import { addPostMeta, insertPost, postMetaFor, singleMetaValues, updatePostMeta, updatePostRow } from '../../wp/posts';
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

const THREAD_COLUMNS = ['ID', 'post_name', 'post_date_gmt'];

/** The conversation with this uuid, or null; `lock` holds its row until the transaction ends (MySQL). */
export async function findThread(db: Database, uuid: string, trx?: Knex.Transaction, lock = false): Promise<ChatThread | null> {
  const knex = trx ?? db.knex;
  let query = knex(db.tables.posts).where({ post_type: THREAD_POST_TYPE, post_name: uuid }).orderBy('ID').first(THREAD_COLUMNS);
  if (lock && db.dialect === 'mysql') query = query.forUpdate();
  const row = await query;
  // post_name compares under the column's collation on MySQL: only the exact uuid is this thread.
  if (!row || String(row.post_name) !== uuid) return null;
  const m = singleMetaValues((await postMetaFor(knex, db.tables, [Number(row.ID)], Object.values(THREAD_META))).get(Number(row.ID)));
  const ticket = Number(m.get(THREAD_META.ticket));
  return {
    postId: Number(row.ID), uuid, tokenHash: m.get(THREAD_META.tokenHash) ?? '', createdAt: String(row.post_date_gmt),
    ticketId: Number.isInteger(ticket) && ticket > 0 ? ticket : null,
    pageUrl: m.get(THREAD_META.pageUrl) ?? '', pageTitle: m.get(THREAD_META.pageTitle) ?? '',
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

export async function insertThread(ctx: WriteContext, t: NewThread): Promise<number> {
  const id = await insertPost(ctx.trx, ctx.tables, ctx.home, {
    post_type: THREAD_POST_TYPE, post_status: 'private', post_name: t.uuid, post_title: t.title, date: ctx.dates,
  });
  const meta: Record<string, string> = { [THREAD_META.tokenHash]: t.tokenHash };
  if (t.pageUrl) meta[THREAD_META.pageUrl] = t.pageUrl;
  if (t.pageTitle) meta[THREAD_META.pageTitle] = t.pageTitle;
  if (t.origin) meta[THREAD_META.origin] = t.origin;
  await addPostMeta(ctx.trx, ctx.tables, id, meta);
  return id;
}

export interface NewMessage {
  role: ChatRole;
  content: string;
  state: MessageState;
  sources?: ChatSource[];
}

/** Adds a message to the conversation and marks the conversation modified. */
export async function insertMessage(ctx: WriteContext, threadId: number, m: NewMessage): Promise<ChatMessage> {
  const uuid = randomUUID();
  const id = await insertPost(ctx.trx, ctx.tables, ctx.home, {
    post_type: MESSAGE_POST_TYPE, post_status: 'private', post_name: uuid, post_parent: threadId, post_content: m.content, date: ctx.dates,
  });
  const sources = m.sources ?? [];
  await addPostMeta(ctx.trx, ctx.tables, id, {
    [MESSAGE_META.role]: m.role, [MESSAGE_META.state]: m.state,
    ...(sources.length ? { [MESSAGE_META.sources]: serialize(sources.map((s) => ({ title: s.title, url: s.url }))) } : {}),
  });
  await updatePostRow(ctx.trx, ctx.tables, threadId, { post_modified: ctx.dates.local, post_modified_gmt: ctx.dates.gmt }, { type: THREAD_POST_TYPE, parent: 0 });
  return { postId: id, uuid, role: m.role, content: m.content, state: m.state, sources, createdAt: ctx.dates.gmt };
}

/** Records the ticket a conversation was handed to: no model answers it any more. */
export async function markHandedOff(ctx: WriteContext, threadId: number, ticketId: number): Promise<void> {
  await updatePostMeta(ctx.trx, ctx.tables, threadId, THREAD_META.ticket, ticketId);
}

/** The conversation's messages, oldest first. */
export async function threadMessages(db: Database, threadId: number, trx?: Knex.Transaction): Promise<ChatMessage[]> {
  const knex = trx ?? db.knex;
  const rows = await knex(db.tables.posts).where({ post_type: MESSAGE_POST_TYPE, post_parent: threadId })
    .orderBy('ID').select('ID', 'post_name', 'post_content', 'post_date_gmt');
  const meta = await postMetaFor(knex, db.tables, rows.map((r: { ID: number }) => Number(r.ID)), Object.values(MESSAGE_META));
  return rows.map((r: { ID: number; post_name: string; post_content: string; post_date_gmt: string }) => {
    const m = singleMetaValues(meta.get(Number(r.ID)));
    return {
      postId: Number(r.ID), uuid: String(r.post_name), content: String(r.post_content ?? ''), createdAt: String(r.post_date_gmt),
      role: m.get(MESSAGE_META.role) === 'assistant' ? 'assistant' : 'visitor',
      state: messageState(m.get(MESSAGE_META.state)),
      sources: storedSources(m.get(MESSAGE_META.sources)),
    };
  });
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
