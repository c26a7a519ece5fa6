/** Reading tickets and conversations in the storage map's shape, a fixed number of queries per answer. */
import { Knex } from 'knex';
import { Database } from '../../wp/db/database';
import { selectWithMaterialization } from '../../wp/db/optimizer';
import { postMetaFor, singleMetaValues } from '../../wp/posts';
import { ListFields } from './list-index';
import { TicketFilter, applyTicketFilter } from './list-query';
import { MESSAGE_META, POST_TYPE, PostRow, RAW_FROM_META, TICKET_META, assigneeOf, priorityOf, toAttachment, toDelivery, toMessage, toSiteDetails, toTicket } from './rows';
import { Conversation, Delivery, Ticket } from './types';

const TICKET_COLUMNS = ['p.ID', 'p.post_title', 'p.post_status', 'p.post_date', 'p.post_modified', 'p.post_author'];
const TICKET_META_KEYS = Object.values(TICKET_META);

/** One page of tickets, newest activity first: one query for the rows, one for their meta. */
export async function listTicketPage(db: Database, filter: TicketFilter, page: number, perPage: number): Promise<Ticket[]> {
  const { knex, tables } = db;
  const query = knex(`${tables.posts} as p`).select(TICKET_COLUMNS);
  applyTicketFilter(query, knex, tables, filter, db.dialect)
    .orderBy('p.post_modified', 'desc').orderBy('p.ID', 'desc')
    .limit(perPage).offset((page - 1) * perPage);
  const rows: PostRow[] = await query;
  return withTicketMeta(knex, db, rows);
}

/** How many tickets the filter matches (callers cache it: it is the expensive part of a list). */
export async function countTickets(db: Database, filter: TicketFilter): Promise<number> {
  const { knex, tables } = db;
  const query = knex(`${tables.posts} as p`).count({ total: '*' });
  applyTicketFilter(query, knex, tables, filter, db.dialect);
  const [row] = await selectWithMaterialization<{ total: number | string }>(db, query);
  return Number(row?.total ?? 0);
}

/** A ticket as a list index keeps it: the ticket, and its post status as stored (trashed and drafts included). */
export interface StoredTicket {
  ticket: Ticket;
  postStatus: string;
}

/** Which stored tickets to read again: by ID, or modified at or after a site-local time. */
export type StoredTicketSelection = { ids: readonly number[] } | { modifiedSince: string };

function selectStored(qb: Knex.QueryBuilder, which: StoredTicketSelection): Knex.QueryBuilder {
  if ('ids' in which) return qb.whereIn('p.ID', which.ids);
  return qb.where('p.post_modified', '>=', which.modifiedSince);
}

/** The tickets of every post status `which` selects, by ID: one query for the rows, one for their meta. */
export async function readStoredTickets(db: Database, which: StoredTicketSelection): Promise<StoredTicket[]> {
  const rows: PostRow[] = await selectStored(db.knex(`${db.tables.posts} as p`).select(TICKET_COLUMNS).where('p.post_type', POST_TYPE.ticket), which).orderBy('p.ID');
  const tickets = await withTicketMeta(db.knex, db, rows);
  return tickets.map((ticket, i) => ({ ticket, postStatus: String(rows[i]?.post_status) }));
}

/** What a list filters and sorts on (./list-index.ts): a lean read of many tickets. */
const LIST_META_KEYS = [TICKET_META.priority, TICKET_META.assignee, TICKET_META.customerEmail, TICKET_META.siteId];

/**
 * The list fields of tickets with IDs in (after, upTo]: a primary-key range, and the four meta keys
 * of those tickets joined from it (so the database walks the range, not every row of a meta key).
 */
export async function readListFields(db: Database, after: number, upTo: number): Promise<ListFields[]> {
  const { knex, tables } = db;
  const inRange = (qb: Knex.QueryBuilder) => qb.where('p.post_type', POST_TYPE.ticket).andWhere('p.ID', '>', after).andWhere('p.ID', '<=', upTo);
  const rows: PostRow[] = await inRange(knex(`${tables.posts} as p`).select('p.ID', 'p.post_status', 'p.post_modified', 'p.post_author'));
  const metaRows: Array<{ post_id: number | string; meta_key: string; meta_value: string | null }> = await inRange(
    knex(`${tables.posts} as p`).join(`${tables.postmeta} as m`, 'm.post_id', 'p.ID').select('m.post_id', 'm.meta_key', 'm.meta_value'),
  ).whereIn('m.meta_key', LIST_META_KEYS).orderBy('m.meta_id');
  const meta = new Map<number, Map<string, string>>();
  for (const m of metaRows) {
    const values = meta.get(Number(m.post_id)) ?? new Map<string, string>();
    // WordPress's get_post_meta($id, $key, true): the first row of a key wins.
    if (!values.has(m.meta_key)) values.set(m.meta_key, m.meta_value ?? '');
    meta.set(Number(m.post_id), values);
  }
  return rows.map((r) => {
    const values = meta.get(Number(r.ID)) ?? new Map<string, string>();
    return {
      id: Number(r.ID), postStatus: String(r.post_status), modified: String(r.post_modified), author: Number(r.post_author) || 0,
      priority: priorityOf(values), assignee: assigneeOf(values), email: values.get(TICKET_META.customerEmail) ?? '', siteId: values.get(TICKET_META.siteId) || null,
    };
  });
}

/** The highest post ID of the site (any post type): where a range read of tickets ends. */
export async function highestPostId(db: Database): Promise<number> {
  const row = await db.knex(db.tables.posts).max({ top: 'ID' }).first();
  return Number(row?.top ?? 0);
}

/** A post newer than those seen: its type, and the post it hangs off (a message's ticket). */
export interface NewPost {
  id: number;
  type: string;
  parent: number;
}

/** Every post with an ID above `after`, of any type (a range of the primary key). */
export async function postsAfter(db: Database, after: number): Promise<NewPost[]> {
  const rows: Array<{ ID: number | string; post_type: string; post_parent: number | string }> = await db.knex(db.tables.posts)
    .where('ID', '>', after).select('ID', 'post_type', 'post_parent');
  return rows.map((r) => ({ id: Number(r.ID), type: String(r.post_type), parent: Number(r.post_parent) || 0 }));
}

/** Per post status of tickets: how many, and the sum of their IDs (WordPress's type_status_date index alone answers it). */
export async function ticketStatusCensus(db: Database): Promise<Map<string, { count: number; idSum: number }>> {
  const rows: Array<{ post_status: string; n: number | string; ids: number | string }> = await db.knex(db.tables.posts)
    .where({ post_type: POST_TYPE.ticket }).groupBy('post_status').select('post_status').count({ n: '*' }).sum({ ids: 'ID' });
  return new Map(rows.map((r) => [String(r.post_status), { count: Number(r.n), idSum: Number(r.ids) }]));
}

/** Every ticket's post status, by ID (from the type_status_date index, no row read). */
export async function ticketStatuses(db: Database): Promise<Map<number, string>> {
  const rows: Array<{ ID: number | string; post_status: string }> = await db.knex(db.tables.posts).where({ post_type: POST_TYPE.ticket }).select('ID', 'post_status');
  return new Map(rows.map((r) => [Number(r.ID), String(r.post_status)]));
}

/** A ticket by ID, or null when there is no such ticket. */
export async function findTicket(db: Database, id: number, trx?: Knex.Transaction): Promise<Ticket | null> {
  const knex = trx ?? db.knex;
  const row = await knex(`${db.tables.posts} as p`).select(TICKET_COLUMNS)
    .where({ 'p.ID': id, 'p.post_type': POST_TYPE.ticket }).first();
  if (!row) return null;
  const [ticket] = await withTicketMeta(knex, db, [row]);
  return ticket ?? null;
}

/** The Message-ID of the ticket's latest message (which a new reply answers), or null; in `trx` when given. */
export async function latestMessageId(db: Database, ticketId: number, trx?: Knex.Transaction): Promise<string | null> {
  const { posts, postmeta } = db.tables;
  const last = await (trx ?? db.knex)(postmeta).join(posts, 'ID', 'post_id')
    .where({ post_parent: ticketId, post_type: POST_TYPE.message, meta_key: MESSAGE_META.messageId })
    .orderBy('post_date', 'desc').orderBy('ID', 'desc').first('meta_value');
  return last?.meta_value ?? null;
}

/**
 * A ticket with its conversation, oldest first, and the attachments and deliveries of its messages.
 * `includeInternal` false leaves internal notes (and what hangs off them) out entirely.
 */
export async function loadConversation(db: Database, ticket: Ticket, includeInternal: boolean): Promise<Conversation> {
  const { knex, tables } = db;
  const messages = () => knex(tables.posts)
    .where({ post_parent: ticket.id, post_type: POST_TYPE.message })
    .whereIn('post_status', includeInternal ? ['publish', 'private'] : ['publish']);
  const messageRows: PostRow[] = await messages()
    .select('ID', 'post_content', 'post_status', 'post_date', 'post_author', 'post_parent')
    .orderBy('post_date', 'asc').orderBy('ID', 'asc');
  const messageIds = messageRows.map((r) => Number(r.ID));
  // The messages as a subquery, not a list of their IDs: an emailed conversation can hold more
  // messages than SQLite takes variables in one statement.
  const children: PostRow[] = messageIds.length
    ? await knex(tables.posts).select('ID', 'post_title', 'post_status', 'post_date', 'post_modified', 'post_author', 'post_parent', 'post_type', 'post_mime_type')
      .whereIn('post_parent', messages().select('ID')).whereIn('post_type', [POST_TYPE.attachment, POST_TYPE.delivery]).orderBy('ID')
    : [];
  // Agents' views also show what a connected site sent with the ticket: its meta comes in the same read.
  const ticketMeta = includeInternal ? [ticket.id] : [];
  const meta = await postMetaFor(knex, tables, [...messageIds, ...children.map((c) => Number(c.ID)), ...ticketMeta]);
  const metaOf = (row: PostRow) => singleMetaValues(meta.get(Number(row.ID)));
  const conversation: Conversation = {
    ticket,
    messages: messageRows.map((r) => toMessage(r, metaOf(r))),
    attachments: children.filter((c) => c.post_type === POST_TYPE.attachment).map((c) => toAttachment(c, metaOf(c))),
    deliveries: children.filter((c) => c.post_type === POST_TYPE.delivery).map((c) => toDelivery(c, metaOf(c))),
  };
  if (includeInternal) {
    const ticketValues = singleMetaValues(meta.get(ticket.id));
    conversation.siteDetails = toSiteDetails(ticketValues);
    conversation.rawFrom = ticketValues.get(RAW_FROM_META) ?? null;
  }
  return conversation;
}

const DELIVERY_COLUMNS = ['d.ID', 'd.post_parent', 'd.post_status', 'd.post_date', 'd.post_modified', 'd.post_author'];

/** A delivery by ID (with `ticketId`: only when it belongs to a message of that ticket), or null; in `trx` when given. */
export async function findDelivery(db: Database, deliveryId: number, ticketId?: number, trx?: Knex.Transaction): Promise<Delivery | null> {
  const knex = trx ?? db.knex;
  const query = knex(`${db.tables.posts} as d`).where({ 'd.ID': deliveryId, 'd.post_type': POST_TYPE.delivery });
  if (ticketId !== undefined) {
    query.join(`${db.tables.posts} as m`, 'm.ID', 'd.post_parent').where({ 'm.post_type': POST_TYPE.message, 'm.post_parent': ticketId });
  }
  const row = await query.first(DELIVERY_COLUMNS);
  if (!row) return null;
  const meta = await postMetaFor(knex, db.tables, [deliveryId]);
  return toDelivery(row, singleMetaValues(meta.get(deliveryId)));
}

/** The ticket whose message the delivery sends, or null when the delivery or its message is gone. */
export async function ticketIdOfDelivery(db: Database, deliveryId: number): Promise<number | null> {
  const { posts } = db.tables;
  const message = await db.knex(`${posts} as d`).join(`${posts} as m`, 'm.ID', 'd.post_parent')
    .where({ 'd.ID': deliveryId, 'm.post_type': POST_TYPE.message }).first('m.post_parent');
  return message ? Number(message.post_parent) : null;
}

async function withTicketMeta(knex: Knex | Knex.Transaction, db: Database, rows: PostRow[]): Promise<Ticket[]> {
  const meta = await postMetaFor(knex, db.tables, rows.map((r) => Number(r.ID)), TICKET_META_KEYS);
  return rows.map((r) => toTicket(r, singleMetaValues(meta.get(Number(r.ID)))));
}
