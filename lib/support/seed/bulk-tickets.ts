/**
 * Seeding many tickets quickly (`understudy seed --tickets 100000`), for benchmarks and load tests:
 * rows in exactly the storage map's shape, written with multi-row inserts and IDs reserved up front,
 * in batches that each commit on their own. Not for a live site: it writes plenty of data.
 */
import { randomBytes } from 'node:crypto';
import { Knex } from 'knex';
import { mysqlDateTime } from '../../wp/dates';
import { Site } from '../../wp/site';
import { MESSAGE_META, POST_TYPE, TICKET_META, postStatusOf } from '../tickets/rows';
import { TicketPriority, TicketStatus } from '../tickets/types';

export interface BulkSeedOptions {
  tickets: number;
  /** Messages per ticket (the first is the customer's). */
  messagesPerTicket: number;
  /** Tickets per committed batch. */
  batchSize?: number;
  /** Called after each batch with the number written so far. */
  progress?: (done: number) => void;
  /** Deterministic data for repeatable benchmarks. */
  seed?: number;
}

/** Open ~18% (as on the site the targets were measured on), waiting ~20%, resolved the rest. */
const STATUS_WEIGHTS: Array<[TicketStatus, number]> = [['open', 18], ['waiting', 20], ['resolved', 62]];
const PRIORITY_WEIGHTS: Array<[TicketPriority, number]> = [['normal', 70], ['high', 20], ['urgent', 10]];
const SUBJECTS = ['Cannot log in', 'Refund request', 'Invoice missing', 'Page is slow', 'Password reset link expired',
  'Feature request: dark mode', 'Export fails', 'Wrong VAT on invoice', 'App crashes on start', 'Change my plan'];
const TWO_YEARS_S = 2 * 365 * 24 * 3600;

export async function seedTickets(site: Site, options: BulkSeedOptions): Promise<{ tickets: number; messages: number }> {
  const { knex, tables } = site.db;
  const random = rng(options.seed ?? 1);
  const agents = await agentIds(site);
  const customers = await knex(tables.users).select('ID', 'user_email', 'display_name').orderBy('ID').limit(200);
  const home = await site.homeUrl();
  const batchSize = options.batchSize ?? 1000;
  let written = 0;
  let messages = 0;
  while (written < options.tickets) {
    const count = Math.min(batchSize, options.tickets - written);
    messages += await knex.transaction((trx) => writeBatch(trx, site, { count, home, agents, customers, random, perTicket: options.messagesPerTicket }));
    written += count;
    options.progress?.(written);
  }
  site.options.forgetAll();
  return { tickets: written, messages };
}

interface BatchInput {
  count: number;
  home: string;
  agents: number[];
  customers: Array<{ ID: number; user_email: string; display_name: string }>;
  random: () => number;
  perTicket: number;
}

async function writeBatch(trx: Knex.Transaction, site: Site, input: BatchInput): Promise<number> {
  const { tables } = site.db;
  const rows: Record<string, unknown>[] = [];
  const meta: Array<{ post_id: number; meta_key: string; meta_value: string }> = [];
  const now = Math.floor(site.clock.now() / 1000);
  let id = await nextPostId(trx, tables.posts);
  for (let i = 0; i < input.count; i++) {
    const ticketId = id++;
    const created = now - Math.floor(input.random() * TWO_YEARS_S);
    const customer = input.random() < 0.7 && input.customers.length ? input.customers[Math.floor(input.random() * input.customers.length)] : null;
    const email = customer ? customer.user_email : `guest${Math.floor(input.random() * 50_000)}@example.org`;
    const name = customer ? customer.display_name : `Guest ${email.slice(5, 10)}`;
    let activity = created;
    const status = pick(STATUS_WEIGHTS, input.random);
    for (let m = 0; m < input.perTicket; m++) {
      const messageId = id++;
      const fromAgent = m % 2 === 1 && input.agents.length > 0;
      // A day or less between messages, never later than now (a list would read a future date as fresh forever).
      activity = Math.min(now, activity + Math.floor(input.random() * 86_400));
      rows.push(post(messageId, POST_TYPE.message, 'publish', '', `Message ${m + 1} of ticket ${ticketId}.`, fromAgent ? (input.agents[0] as number) : (customer?.ID ?? 0), ticketId, activity, activity, input.home));
      meta.push(...metaRows(messageId, {
        [MESSAGE_META.authorName]: fromAgent ? 'Agent' : name, [MESSAGE_META.authorEmail]: fromAgent ? 'agent@example.test' : email,
        [MESSAGE_META.authorKind]: fromAgent ? 'agent' : 'customer', [MESSAGE_META.messageId]: `<svc.${ticketId}.${messageId}.${randomBytes(4).toString('hex')}@seed>`,
      }));
    }
    rows.push(post(ticketId, POST_TYPE.ticket, postStatusOf(status), SUBJECTS[ticketId % SUBJECTS.length] as string, '', customer?.ID ?? 0, 0, created, activity, input.home, `svc-ticket-${String(ticketId).padStart(6, '0')}`));
    const ticketMeta: Record<string, string> = {
      [TICKET_META.priority]: pick(PRIORITY_WEIGHTS, input.random), [TICKET_META.source]: 'web',
      [TICKET_META.customerName]: name, [TICKET_META.customerEmail]: email, [TICKET_META.version]: String(input.perTicket),
    };
    if (input.agents.length && input.random() < 0.5) ticketMeta[TICKET_META.assignee] = String(input.agents[Math.floor(input.random() * input.agents.length)]);
    meta.push(...metaRows(ticketId, ticketMeta));
  }
  // SQLite writes a multi-row insert as a compound SELECT, limited to 500 terms.
  const chunk = site.db.dialect === 'sqlite' ? 400 : 1000;
  for (let i = 0; i < rows.length; i += chunk) await trx(tables.posts).insert(rows.slice(i, i + chunk));
  for (let i = 0; i < meta.length; i += chunk) await trx(tables.postmeta).insert(meta.slice(i, i + chunk));
  return input.count * input.perTicket;
}

function post(id: number, type: string, status: string, title: string, content: string, author: number, parent: number,
  createdS: number, modifiedS: number, home: string, name = String(id)): Record<string, unknown> {
  const created = mysqlDateTime(createdS * 1000);
  const modified = mysqlDateTime(modifiedS * 1000);
  return {
    ID: id, post_author: author, post_date: created, post_date_gmt: created, post_content: content, post_title: title, post_excerpt: '',
    post_status: status, comment_status: 'closed', ping_status: 'closed', post_password: '', post_name: name, to_ping: '', pinged: '',
    post_modified: modified, post_modified_gmt: modified, post_content_filtered: '', post_parent: parent,
    guid: `${home}/?post_type=${type}&p=${id}`, menu_order: 0, post_type: type, post_mime_type: '', comment_count: 0,
  };
}

function metaRows(postId: number, values: Record<string, string>): Array<{ post_id: number; meta_key: string; meta_value: string }> {
  return Object.entries(values).map(([meta_key, meta_value]) => ({ post_id: postId, meta_key, meta_value }));
}

/** The next free post ID. IDs are taken inside the batch's transaction, which holds the insert lock. */
async function nextPostId(trx: Knex.Transaction, table: string): Promise<number> {
  const row = await trx(table).max({ id: 'ID' }).first();
  return Number(row?.id ?? 0) + 1;
}

async function agentIds(site: Site): Promise<number[]> {
  const ids: number[] = [];
  for (const user of await site.users.list()) {
    if ((await site.capabilities.forUser(user)).can('svc_work_tickets')) ids.push(user.ID);
  }
  return ids;
}

function pick<T>(weights: Array<[T, number]>, random: () => number): T {
  let roll = random() * weights.reduce((sum, [, w]) => sum + w, 0);
  for (const [value, weight] of weights) {
    roll -= weight;
    if (roll < 0) return value;
  }
  return (weights[weights.length - 1] as [T, number])[0];
}

/** A small seeded generator (mulberry32): the same seed gives the same data set. */
function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
