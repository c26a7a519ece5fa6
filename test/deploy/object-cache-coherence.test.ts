/**
 * Beside a production WordPress: real WordPress (Debian's package under php -S) reads the oracle
 * database through a persistent object cache in Redis, with the PHP companion installed, while
 * Understudy writes the same database through its own routes. Every change Understudy makes is what
 * PHP shows within a second; without the companion told, PHP keeps showing the cached rows.
 */
import assert from 'node:assert/strict';
import { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../lib/app';
import { openSite } from '../../lib/boot';
import { memoryLogger } from '../../lib/logger';
import { fixedClock } from '../../lib/wp/clock';
import { ObjectCacheChoice } from '../../lib/wp/object-cache/setting';
import { Site } from '../../lib/wp/site';
import { ScratchDatabase, scratchDatabase } from '../harness/db';
import { eventually } from '../harness/eventually';
import { ORACLE_SALTS, credentials, loadOracleInto, oracleConfig } from '../harness/oracle';
import { API, as } from '../harness/support';
import { RunningWordPress, startWordPressPhp, wordpressPhpSkipReason } from '../harness/wordpress-php';

const TICKET = 158;
/** What a PHP screen shows of a ticket: post status, then its meta as get_post_meta() reads them. */
const TICKET_FIELDS = (id: number) => `$p = get_post(${id}); return array($p->post_status, get_post_meta(${id}, '_svc_priority', true),
  get_post_meta(${id}, '_svc_assignee', true), get_post_meta(${id}, '_svc_version', true));`;
const OPEN_TICKETS = `return (new WP_Query(array('post_type' => 'svc_ticket', 'post_status' => 'svc-open',
  'posts_per_page' => -1, 'fields' => 'ids')))->posts;`;
const REPLIES = `return count(get_children(array('post_parent' => ${TICKET}, 'post_type' => 'svc_message', 'post_status' => 'any')));`;

/** PHP is given this long to show a change (the bound). */
const WITHIN_MS = 1_000;

describe('beside WordPress with a persistent object cache: PHP sees every change Understudy writes', function () {
  this.timeout(90_000);
  let scratch: ScratchDatabase;
  let wp: RunningWordPress;
  let site: Site;
  let app: Express;

  before(async function () {
    const skip = wordpressPhpSkipReason();
    if (skip) {
      console.log(`      skipped: ${skip}`);
      this.skip();
    }
    scratch = await scratchDatabase();
    await loadOracleInto(scratch);
    wp = await startWordPressPhp({ db: scratch.target, salts: ORACLE_SALTS });
    const objectCache: ObjectCacheChoice = { setting: { kind: 'companion', url: wp.url }, foundBy: 'the test', onUncovered: 'degrade' };
    ({ site } = await openSite({ ...oracleConfig(scratch), objectCache }, { logger: memoryLogger(), clock: fixedClock(credentials.generated_at * 1000) }));
    app = createApp(site);
  });

  after(async () => {
    await site?.close();
    await wp?.close();
    await scratch?.drop();
  });

  /** PHP's answer to `code` becomes `expected` within WITHIN_MS. */
  async function phpShows(code: string, expected: unknown): Promise<void> {
    let last: unknown;
    await eventually(async () => {
      last = await wp.phpEval(code);
      return JSON.stringify(last) === JSON.stringify(expected);
    }, WITHIN_MS).catch(() => assert.deepEqual(last, expected, `PHP did not show the change within ${WITHIN_MS} ms`));
  }

  it('a ticket\'s status, priority, assignee and version, and its leaving the open list', async () => {
    assert.deepEqual(await wp.phpEval(TICKET_FIELDS(TICKET)), ['svc-open', 'normal', '', '4']);
    assert.ok((await wp.phpEval<number[]>(OPEN_TICKETS)).includes(TICKET), 'PHP has cached the open list');
    const res = await as(app, 'agent1').patch(`${API}/tickets/${TICKET}`).send({ version: 4, status: 'resolved', priority: 'urgent', assignee: 2 });
    assert.equal(res.status, 200, res.text);
    await phpShows(TICKET_FIELDS(TICKET), ['svc-resolved', 'urgent', '2', '5']);
    assert.ok(!(await wp.phpEval<number[]>(OPEN_TICKETS)).includes(TICKET));
  });

  it('a reply among its ticket\'s messages', async () => {
    const before = await wp.phpEval<number>(REPLIES);
    const { version } = (await as(app, 'agent1').get(`${API}/tickets/${TICKET}`)).body;
    const res = await as(app, 'agent1').post(`${API}/tickets/${TICKET}/messages`).send({ version, body: 'We are on it.' });
    assert.equal(res.status, 201, res.text);
    await phpShows(REPLIES, before + 1);
  });

  it('a new ticket in the open list', async () => {
    assert.ok((await wp.phpEval<number[]>(OPEN_TICKETS)).length > 0, 'PHP has cached the open list');
    const res = await as(app, 'customer1').post(`${API}/tickets`).send({ subject: 'Seen by PHP?', body: 'A new ticket.' });
    assert.equal(res.status, 201, res.text);
    await phpShows(`${OPEN_TICKETS.replace(/^return /, '$ids = ')} return in_array(${res.body.id}, $ids);`, true);
  });

  it('a setting changed as `understudy option patch` changes it', async () => {
    const code = `return get_option('svc_settings');`;
    const before = await wp.phpEval<Record<string, unknown>>(code);
    await site.options.update('svc_settings', { ...before, alerts_url: 'https://alerts.example.test/hook' });
    await phpShows(`$s = get_option('svc_settings'); return $s['alerts_url'] ?? null;`, 'https://alerts.example.test/hook');
  });

  it('a user\'s display name changed through wp/v2/users/me', async () => {
    const userId = credentials.users.customer1.id as number;
    const code = `return get_userdata(${userId})->display_name;`;
    assert.notEqual(await wp.phpEval(code), 'Renamed By Understudy');
    const res = await request(app).post('/wp-json/wp/v2/users/me').set('Authorization', credentials.application_passwords.customer1.basic_auth_header as string)
      .send({ name: 'Renamed By Understudy' });
    assert.equal(res.status, 200, res.text);
    await phpShows(code, 'Renamed By Understudy');
  });

  it('and without the companion told, the same kind of change stays unseen (what PHP showed before)', async () => {
    const ticket = 4;
    const [status] = await wp.phpEval<string[]>(TICKET_FIELDS(ticket));
    // The same database, written by a process that knows of no object cache.
    const { site: unaware } = await openSite({ ...oracleConfig(scratch), objectCache: undefined }, { logger: memoryLogger(), clock: fixedClock(credentials.generated_at * 1000) });
    try {
      const version = Number((await as(createApp(unaware), 'agent1').get(`${API}/tickets/${ticket}`)).body.version);
      const res = await as(createApp(unaware), 'agent1').patch(`${API}/tickets/${ticket}`).send({ version, priority: 'high' });
      assert.equal(res.status, 200, res.text);
      await new Promise((resolve) => setTimeout(resolve, 2 * WITHIN_MS));
      const [stillStatus, stillPriority] = await wp.phpEval<string[]>(TICKET_FIELDS(ticket));
      assert.equal(stillStatus, status);
      assert.notEqual(stillPriority, 'high', 'PHP kept its cached meta');
    } finally {
      await unaware.close();
    }
  });
});
