/**
 * The ticket list as SQL: one query for the page, one for its meta, and a count. Filters are
 * EXISTS subqueries on postmeta so that a page never costs a query per row.
 */
import { Knex } from 'knex';
import { Dialect } from '../../wp/db/database';
import { Tables } from '../../wp/db/tables';
import { ownershipEmailKey } from './customer-email';
import { POST_TYPE, TICKET_META, TICKET_POST_STATUSES, postStatusOf } from './rows';
import { Assignment, TicketPriority, TicketStatus } from './types';

/** Who is listing: agents see every ticket, customers only those they own. */
export interface Viewer {
  userId: number;
  email: string;
  agent: boolean;
}

export interface TicketFilter {
  viewer: Viewer;
  status?: TicketStatus;
  priority?: TicketPriority;
  assignment?: Assignment;
  search?: string;
  /** Only tickets opened on this connected site (a portal's list). */
  siteId?: string;
  /** Whether message search reaches internal notes (agents, unless they asked for the customer view). */
  searchInternalNotes: boolean;
}

/** The WHERE clause shared by the page and the count. */
export function applyTicketFilter(qb: Knex.QueryBuilder, knex: Knex, tables: Tables, filter: TicketFilter, dialect: Dialect): Knex.QueryBuilder {
  const meta = tables.postmeta;
  const hasMeta = (key: string, value: string | number) => (sub: Knex.QueryBuilder) =>
    sub.select(knex.raw('1')).from(`${meta} as m`).whereRaw('m.post_id = p.ID').andWhere('m.meta_key', key).andWhere('m.meta_value', String(value));
  qb.where('p.post_type', POST_TYPE.ticket)
    .whereIn('p.post_status', filter.status ? [postStatusOf(filter.status)] : TICKET_POST_STATUSES);
  const { viewer } = filter;
  if (!viewer.agent) {
    // Storage map: a customer owns a ticket by post_author or by the email on the ticket (compared as ./customer-email.ts says).
    const emailKey = ownershipEmailKey(viewer.email);
    qb.where((own) => {
      // No account (a portal customer known by address only): post_author 0 is nobody's, never theirs.
      own.where('p.post_author', viewer.userId > 0 ? viewer.userId : -1);
      if (emailKey === null) return;
      own.orWhereExists((sub) => whereOwnerEmail(
        sub.select(knex.raw('1')).from(`${meta} as m`).whereRaw('m.post_id = p.ID').andWhere('m.meta_key', TICKET_META.customerEmail),
        'm.meta_value', emailKey, dialect,
      ));
    });
  }
  if (filter.siteId) qb.whereExists(hasMeta(TICKET_META.siteId, filter.siteId));
  if (filter.priority) applyPriority(qb, knex, meta, filter.priority, hasMeta);
  if (filter.assignment === 'mine') qb.whereExists(hasMeta(TICKET_META.assignee, viewer.userId));
  if (filter.assignment === 'unassigned') {
    qb.whereNotExists((sub) => sub.select(knex.raw('1')).from(`${meta} as m`).whereRaw('m.post_id = p.ID')
      .andWhere('m.meta_key', TICKET_META.assignee).whereNotIn('m.meta_value', ['', '0']));
  }
  if (filter.search) applySearch(qb, knex, tables, filter.search, filter.searchInternalNotes);
  return qb;
}

/** A ticket without a priority is `normal`, so `normal` also matches tickets that have none. */
function applyPriority(qb: Knex.QueryBuilder, knex: Knex, meta: string, priority: TicketPriority, hasMeta: (k: string, v: string) => (q: Knex.QueryBuilder) => Knex.QueryBuilder): void {
  if (priority !== 'normal') {
    qb.whereExists(hasMeta(TICKET_META.priority, priority));
    return;
  }
  qb.whereNotExists((sub) => sub.select(knex.raw('1')).from(`${meta} as m`).whereRaw('m.post_id = p.ID')
    .andWhere('m.meta_key', TICKET_META.priority).whereIn('m.meta_value', ['high', 'urgent']));
}

/**
 * Subject, customer name and email, and message text. Customers search only public messages:
 * the text of an internal note must not make a ticket findable by it.
 */
function applySearch(qb: Knex.QueryBuilder, knex: Knex, tables: Tables, search: string, internalNotes: boolean): void {
  const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  qb.where((any) => {
    any.where('p.post_title', 'like', like)
      .orWhereExists((sub) => sub.select(knex.raw('1')).from(`${tables.postmeta} as m`).whereRaw('m.post_id = p.ID')
        .whereIn('m.meta_key', [TICKET_META.customerName, TICKET_META.customerEmail]).andWhere('m.meta_value', 'like', like))
      .orWhereExists((sub) => {
        sub.select(knex.raw('1')).from(`${tables.posts} as msg`).whereRaw('msg.post_parent = p.ID')
          .andWhere('msg.post_type', POST_TYPE.message).andWhere('msg.post_content', 'like', like);
        if (!internalNotes) sub.andWhere('msg.post_status', 'publish');
      });
  });
}

/**
 * Narrows `sub` to rows whose `column` holds an address with this key (ownershipEmailKey() in
 * ./customer-email.ts): printable ASCII only, equal to the key once ASCII letters are lower-cased,
 * compared byte for byte.
 * On MySQL the plain `=` comes first so that an index on the value can serve it; under WordPress's
 * case-insensitive collations it keeps every row the exact checks after it accept.
 */
function whereOwnerEmail(sub: Knex.QueryBuilder, column: string, key: string, dialect: Dialect): Knex.QueryBuilder {
  if (dialect === 'mysql') {
    // CHAR_LENGTH = LENGTH holds only when every character is one byte: ASCII (in utf8mb4/utf8).
    return sub.andWhere(column, key)
      .andWhereRaw('CHAR_LENGTH(??) = LENGTH(??)', [column, column])
      .andWhereRaw('CAST(LOWER(??) AS BINARY) = CAST(? AS BINARY)', [column, key]);
  }
  // SQLite's LOWER() folds ASCII letters only; GLOB rules out anything but printable ASCII all the same.
  return sub.andWhereRaw('LOWER(??) = ?', [column, key]).andWhereRaw('?? NOT GLOB ?', [column, '*[^!-~]*']);
}
