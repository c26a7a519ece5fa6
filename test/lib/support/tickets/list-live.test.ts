/**
 * The ticket list from memory (lib/support/tickets/list-live.ts): it lists exactly what the SQL list
 * lists, for every filter and viewer; and it follows changes made behind its back (by PHP, by
 * another process) within the 2-second bound, deletions and MariaDB's unknown change token included.
 */
import assert from 'node:assert/strict';
import { Knex } from 'knex';
import { createApp } from '../../../../lib/app';
import { changeToken } from '../../../../lib/wp/db/change-token';
import { siteDates } from '../../../../lib/wp/dates';
import { indexStatus, removeIndexes } from '../../../../lib/support/db-indexes';
import { openSite } from '../../../../lib/boot';
import { memoryLogger } from '../../../../lib/logger';
import { Actor, actorOf } from '../../../../lib/support/tickets/actor';
import { ListQuery, listTickets } from '../../../../lib/support/tickets/list';
import { TicketFilter } from '../../../../lib/support/tickets/list-query';
import { countTickets, listTicketPage } from '../../../../lib/support/tickets/store';
import { eventually } from '../../../harness/eventually';
import { OracleSite, openOracle, oracleConfig, phpConnection } from '../../../harness/oracle';
import { API, as } from '../../../harness/support';

const BOUND_MS = 2000;

describe('the ticket list from memory', function () {
  this.timeout(30_000);
  let oracle: OracleSite;
  let php: Knex;

  before(async () => {
    oracle = await openOracle();
    php = phpConnection(oracle);
  });
  after(async () => {
    await php?.destroy();
    await oracle?.close();
  });

  const actor = async (login: string): Promise<Actor> => {
    const user = await oracle.site.users.byLogin(login);
    assert.ok(user, login);
    return actorOf(await oracle.site.auth.signedIn(user, 'application-password', ''));
  };
  const ids = (tickets: Array<{ id: number }>) => tickets.map((t) => t.id);
  const agentList = async (query = '') => (await as(oracle.app, 'agent1').get(`${API}/tickets?per_page=100${query}`)).body as Array<{ id: number; status: string }>;

  it('lists exactly what SQL lists, for every filter, page and viewer', async () => {
    const viewers = await Promise.all(['agent1', 'manager1', 'customer1', 'customer2'].map(actor));
    const queries: ListQuery[] = [];
    for (const status of [undefined, 'open', 'waiting', 'resolved'] as const) {
      for (const priority of [undefined, 'normal', 'high', 'urgent'] as const) {
        for (const assignment of [undefined, 'mine', 'unassigned'] as const) {
          for (const [page, perPage] of [[1, 20], [3, 7], [2, 100]] as const) queries.push({ status, priority, assignment, page, perPage });
        }
      }
    }
    let compared = 0;
    for (const viewer of viewers) {
      for (const query of queries) {
        const fromMemory = await listTickets(oracle.site, viewer, query);
        const filter: TicketFilter = {
          viewer: { userId: viewer.userId, email: viewer.email, agent: viewer.agent }, status: query.status, searchInternalNotes: viewer.agent,
          priority: viewer.agent ? query.priority : undefined, assignment: viewer.agent ? query.assignment : undefined,
        };
        const label = `${viewer.email} ${JSON.stringify(query)}`;
        assert.deepEqual(ids(fromMemory.tickets), ids(await listTicketPage(oracle.site.db, filter, query.page, query.perPage)), label);
        assert.equal(fromMemory.total, await countTickets(oracle.site.db, filter), label);
        compared++;
      }
    }
    assert.equal(compared, 4 * 4 * 4 * 3 * 3);
  });

  it('drops a ticket deleted outright by PHP, and one trashed, within 2 seconds', async () => {
    const [first, second] = await agentList();
    assert.ok(first && second);
    await php('wp_postmeta').where({ post_id: first.id }).del();
    await php('wp_posts').where({ ID: first.id }).del();
    await php('wp_posts').where({ ID: second.id }).update({ post_status: 'trash', post_modified: '2026-11-25 10:00:00' });
    await eventually(async () => {
      const listed = ids(await agentList());
      return !listed.includes(first.id) && !listed.includes(second.id);
    }, BOUND_MS);
  });

  it('shows a ticket PHP inserted with an old last-activity time, in its place', async () => {
    const [template] = await php('wp_posts').where({ post_type: 'svc_ticket', post_status: 'svc-open' }).orderBy('ID').limit(1);
    const { ID: _id, ...row } = template;
    const [id] = await php('wp_posts').insert({ ...row, post_title: 'Old but new to us', post_name: 'svc-old-new', post_date: '2001-01-01 00:00:00', post_modified: '2001-01-01 00:00:00' });
    const newId = Number(id ?? (await php('wp_posts').max({ id: 'ID' }))[0].id);
    await eventually(async () => {
      const all = (await as(oracle.app, 'agent1').get(`${API}/tickets?status=open&per_page=100`)).body as Array<{ id: number }>;
      const totalPages = Number((await as(oracle.app, 'agent1').get(`${API}/tickets?status=open&per_page=100`)).headers['x-wp-totalpages']);
      const last = (await as(oracle.app, 'agent1').get(`${API}/tickets?status=open&per_page=100&page=${totalPages}`)).body as Array<{ id: number }>;
      return all.length > 0 && last[last.length - 1]?.id === newId;
    }, BOUND_MS);
  });

  it('shows a change made through another process within 2 seconds', async () => {
    const other = (await openSite(oracleConfig(oracle.scratch), { logger: memoryLogger(), clock: oracle.clock })).site;
    try {
      const otherApp = createApp(other);
      const [target] = await agentList('&status=open');
      assert.ok(target);
      const current = (await as(oracle.app, 'agent1').get(`${API}/tickets/${target.id}`)).body;
      const changed = await as(otherApp, 'agent1').patch(`${API}/tickets/${target.id}`).send({ status: 'resolved', version: current.version });
      assert.equal(changed.status, 200, changed.text);
      await eventually(async () => !ids(await agentList('&status=open')).includes(target.id)
        && ids(await agentList('&status=resolved')).includes(target.id), BOUND_MS);
    } finally {
      await other.db.close();
    }
  });

  it('shows its own writes at once, without waiting for the bound', async () => {
    await agentList();
    const customer = await actor('customer1');
    const created = await as(oracle.app, 'customer1').post(`${API}/tickets`).send({ subject: 'Right now', body: 'x' });
    assert.equal(created.status, 201, created.text);
    assert.equal((await agentList())[0]?.id, created.body.id);
    assert.equal((await listTickets(oracle.site, customer, { page: 1, perPage: 5 })).tickets[0]?.id, created.body.id);
  });

  it('on WordPress\'s own indexes alone (no svc_* index), shows within 2 seconds a priority PHP changed in place, and a status', async () => {
    await removeIndexes(oracle.site.db);
    assert.ok((await indexStatus(oracle.site.db)).every((state) => !state.present), 'a stock schema');
    const listed = await agentList('&status=open');
    const [target, other] = listed;
    assert.ok(target && other);
    const agent = await actor('agent1');
    const { local, gmt } = await siteDates(oracle.site.options, oracle.site.clock.now());
    // As the plugin's PHP writes a priority: update_post_meta() in place, and the post's post_modified.
    const meta = await php('wp_postmeta').where({ post_id: target.id, meta_key: '_svc_priority' }).update({ meta_value: 'urgent' });
    if (!meta) await php('wp_postmeta').insert({ post_id: target.id, meta_key: '_svc_priority', meta_value: 'urgent' });
    await php('wp_posts').where({ ID: target.id }).update({ post_modified: local, post_modified_gmt: gmt });
    await php('wp_posts').where({ ID: other.id }).update({ post_status: 'svc-waiting', post_modified: local });
    await eventually(async () => {
      const urgent = await listTickets(oracle.site, agent, { priority: 'urgent', page: 1, perPage: 100 });
      const waiting = ids(await agentList('&status=waiting'));
      return ids(urgent.tickets).includes(target.id) && waiting.includes(other.id);
    }, BOUND_MS);
  });

  it('catches up while a table rebuild or a restart leaves the change token unknown (MariaDB), without loading everything again', async function () {
    if (oracle.site.db.dialect !== 'mysql') this.skip();
    await agentList();
    // A rebuilding ALTER TABLE, and FLUSH TABLES (what a restart does to InnoDB's memory of the tables).
    await php.raw('ALTER TABLE wp_postmeta FORCE');
    await php.raw('FLUSH TABLES wp_posts, wp_postmeta');
    const { db } = oracle.site;
    assert.equal(await changeToken(db, [db.tables.posts, db.tables.postmeta])(), null, 'InnoDB reports no change time');
    const seen: string[] = [];
    const listener = (q: { sql: string }) => seen.push(q.sql);
    oracle.site.db.knex.on('query', listener);
    try {
      const [target] = await agentList('&status=waiting');
      assert.ok(target);
      await php.raw("UPDATE wp_posts SET post_status = 'svc-resolved', post_modified = '2026-11-25 12:00:00' WHERE ID = ?", [target.id]);
      await eventually(async () => ids(await agentList('&status=resolved')).includes(target.id), BOUND_MS);
    } finally {
      oracle.site.db.knex.removeListener('query', listener);
    }
    // Only the changed rows and a count were read again: never the whole table in batches.
    assert.ok(!seen.some((sql) => /`p`\.`ID` > \? .*limit/i.test(sql)), seen.join('\n'));
  });
});

