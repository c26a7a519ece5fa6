/**
 * The demo site that the embedded default database gets on its first start: users with fixed public
 * passwords and application passwords, and a handful of tickets with conversations. Rows are written
 * as WordPress (users, usermeta, options) and the support-desk plugin (tickets and messages, see the
 * storage map) would write them, so the demo exercises the same code paths as a real site.
 *
 * Everything goes in one transaction, so a start that is interrupted leaves no half-seeded site. The
 * option `understudy_demo_seeded` (the seed time, Unix seconds) records that the demo is there; a
 * second call finds it and does nothing.
 */
import { Knex } from 'knex';
import { Database } from '../wp/db/database';
import { siteDates } from '../wp/dates';
import { OptionStore } from '../wp/options';
import { hashPasswordForSite } from '../wp/password-format';
import { addPostMeta, insertPost } from '../wp/posts';
import { Site } from '../wp/site';
import { roleLevels } from '../wp/user-insert';
import { insertDemoChangelog } from './changelog';
import { insertDemoDocs } from './docs';
import { insertDemoForm } from './form';
import { seedDemoSettings } from './settings';
import { DemoCustomer, DemoFixture, DemoTicket, demoFixture } from './fixture';
import { insertDemoUser } from './users';

export { demoFixture } from './fixture';
export type { DemoFixture } from './fixture';

/** Option that marks a site as seeded with the demo (Understudy's own; WordPress never reads it). */
export const DEMO_MARKER_OPTION = 'understudy_demo_seeded';

export interface SeededDemo {
  /** User IDs by login. */
  users: Record<string, number>;
  /** Ticket IDs in the order they were created (oldest first). */
  tickets: number[];
}

const HOUR_MS = 3_600_000;
const TICKET_STATUSES: Record<string, string> = { open: 'svc-open', waiting: 'svc-waiting', resolved: 'svc-resolved' };

/** What the seeding steps share: the transaction, the site's tables and clock, and a few site options. */
interface SeedContext {
  trx: Knex.Transaction;
  db: Database;
  options: OptionStore;
  home: string;
  now: number;
}

/** True when the demo has been seeded into this site. */
export async function isDemoSeeded(site: Site): Promise<boolean> {
  return (await site.options.getRaw(DEMO_MARKER_OPTION)) !== undefined;
}

/**
 * Seeds the demo site; returns what it created, or null when the site already has the demo (or a user
 * with one of the demo logins). Meant for a site that openSite has just created: the site's caches are
 * not consulted before, nor refreshed after, the writes.
 */
export async function seedDemoSite(site: Site, fixture: DemoFixture = demoFixture): Promise<SeededDemo | null> {
  if (await hasDemo(site.db.knex, site.db, fixture)) return null;
  // Hashing is slow on purpose: do it before the transaction takes the connection.
  const hashes = await Promise.all(fixture.users.map((u) => hashPasswordForSite(site.options, u.password)));
  const seeded = await site.db.knex.transaction(async (trx) => {
    // Reads and writes go through the transaction: on SQLite it holds the only connection.
    const db: Database = { ...site.db, knex: trx };
    const options = new OptionStore(db);
    if (await hasDemo(trx, db, fixture)) return null;
    const ctx: SeedContext = { trx, db, options, home: String(await options.get('home', '')).replace(/\/+$/, ''), now: site.clock.now() };
    const users: Record<string, number> = {};
    const levels = await roleLevels(options, db);
    for (const [i, user] of fixture.users.entries()) users[user.login] = await insertDemoUser(trx, db, ctx.now, user, hashes[i] as string, levels[user.role] ?? 0);
    const tickets: number[] = [];
    const byAge = [...fixture.tickets].sort((a, b) => firstMessageHoursAgo(b) - firstMessageHoursAgo(a));
    for (const [i, ticket] of byAge.entries()) tickets.push(await insertTicket(ctx, ticket, i + 1, users, fixture));
    await insertDemoChangelog(ctx);
    await insertDemoDocs(ctx);
    await insertDemoForm(ctx, users[fixture.users.find((u) => u.role === 'administrator')?.login ?? ''] ?? 0);
    await options.update('blogname', fixture.title);
    await seedDemoSettings(options);
    // WP: set when the first application password is created; without it they are not checked at all.
    await options.addSiteOption('using_application_passwords', '1');
    await options.add(DEMO_MARKER_OPTION, String(Math.floor(ctx.now / 1000)), 'no');
    return { users, tickets };
  });
  // The seed wrote options through the transaction: what the site cached before is stale now.
  site.options.forgetAll();
  return seeded;
}

/** The demo marker, or a user with one of the demo logins, is already there. Reads the rows, not the caches. */
async function hasDemo(knex: Knex, db: Database, fixture: DemoFixture): Promise<boolean> {
  if (await knex(db.tables.options).where({ option_name: DEMO_MARKER_OPTION }).first('option_id')) return true;
  return Boolean(await knex(db.tables.users).whereIn('user_login', fixture.users.map((u) => u.login)).first('ID'));
}

interface Party {
  userId: number;
  name: string;
  email: string;
}

/** Inserts a ticket (post `svc_ticket`) and its conversation (posts `svc_message`), as the storage map fixes them. */
async function insertTicket(ctx: SeedContext, ticket: DemoTicket, sequence: number, users: Record<string, number>, fixture: DemoFixture): Promise<number> {
  const { trx, db, options, home, now } = ctx;
  const status = TICKET_STATUSES[ticket.status];
  if (!status) throw new Error(`demo ticket "${ticket.subject}": unknown status "${ticket.status}"`);
  const customer = customerOf(ticket.customer, users, fixture);
  const times = ticket.messages.map((m) => now - m.hours_ago * HOUR_MS);
  const lastActivity = Math.max(...times, ticket.resolved_hours_ago === undefined ? -Infinity : now - ticket.resolved_hours_ago * HOUR_MS);
  const ticketId = await insertPost(trx, db.tables, home, {
    post_type: 'svc_ticket',
    post_status: status,
    post_title: ticket.subject,
    post_author: customer.userId,
    post_name: `svc-ticket-${String(sequence).padStart(6, '0')}`,
    date: await siteDates(options, Math.min(...times)),
    modified: await siteDates(options, lastActivity),
  });
  const meta: Record<string, string | number> = {
    _svc_priority: ticket.priority,
    _svc_source: ticket.source,
    _svc_customer_name: customer.name,
    _svc_customer_email: customer.email,
  };
  if (ticket.assignee) meta._svc_assignee = userIdOf(ticket.assignee, users);
  meta._svc_version = versionOf(ticket);
  await addPostMeta(trx, db.tables, ticketId, meta);

  let lastPublicId: string | undefined;
  for (const [i, message] of ticket.messages.entries()) {
    const author = message.author === 'customer' ? customer : partyOf(message.author, users, fixture);
    const messageId = `<ticket-${ticketId}-${i + 1}@demo.example.test>`;
    const postId = await insertPost(trx, db.tables, home, {
      post_type: 'svc_message',
      post_status: message.internal ? 'private' : 'publish',
      post_content: message.body,
      post_author: author.userId,
      post_parent: ticketId,
      date: await siteDates(options, times[i] as number),
    });
    const isCustomer = message.author === 'customer' || (customer.userId > 0 && author.userId === customer.userId);
    const messageMeta: Record<string, string> = {
      _svc_author_name: author.name,
      _svc_author_email: author.email,
      _svc_author_kind: isCustomer ? 'customer' : 'agent',
      _svc_message_id: messageId,
    };
    if (!message.internal && lastPublicId) messageMeta._svc_in_reply_to = lastPublicId;
    await addPostMeta(trx, db.tables, postId, messageMeta);
    if (!message.internal) lastPublicId = messageId;
  }
  return ticketId;
}

/**
 * `_svc_version` as the plugin would have counted it: 1 for the ticket created with its first message,
 * then one per later message, one for the assignment and one for leaving the open status.
 */
function versionOf(ticket: DemoTicket): number {
  return ticket.messages.length + (ticket.assignee ? 1 : 0) + (ticket.status === 'open' ? 0 : 1);
}

function firstMessageHoursAgo(ticket: DemoTicket): number {
  return Math.max(...ticket.messages.map((m) => m.hours_ago));
}

function customerOf(customer: DemoCustomer, users: Record<string, number>, fixture: DemoFixture): Party {
  if ('user' in customer) return partyOf(customer.user, users, fixture);
  // CASE: no account on the ticket (post_author 0); it is still owned by whoever has this email.
  return { userId: 0, name: customer.name, email: customer.email };
}

function partyOf(login: string, users: Record<string, number>, fixture: DemoFixture): Party {
  const user = fixture.users.find((u) => u.login === login);
  if (!user) throw new Error(`demo fixture: no user "${login}"`);
  return { userId: userIdOf(login, users), name: `${user.first_name} ${user.last_name}`.trim(), email: user.email };
}

function userIdOf(login: string, users: Record<string, number>): number {
  const id = users[login];
  if (id === undefined) throw new Error(`demo fixture: no user "${login}"`);
  return id;
}
