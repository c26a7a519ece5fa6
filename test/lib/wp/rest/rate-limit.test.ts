/**
 * Rate-limited routes: `limit` requests per fixed window, then 429 with a WordPress-shaped error and
 * Retry-After; counters live in the database, so separate app instances over it share them.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { Express } from 'express';
import { unixSeconds } from '../../../../lib/wp/clock';
import { LIMIT, SampleOracle, basicAuth, openSampleOracle } from '../../../harness/sample-routes';
import { assertRestError, statusMessage } from '../../../harness/wp-http';

describe('REST rate limits', function () {
  let oracle: SampleOracle;
  let window = 0;
  before(async () => { oracle = await openSampleOracle(); });
  after(async () => { await oracle.close(); });

  /** Puts the clock `offset` seconds into a window no earlier test has used. */
  function freshWindow(offset: number): number {
    window += 1;
    const now = unixSeconds(oracle.clock);
    const start = now - (now % LIMIT.windowSeconds) + window * LIMIT.windowSeconds;
    oracle.clock.set((start + offset) * 1000);
    return start;
  }

  const hit = (app: Express = oracle.app) => request(app).get('/wp-json/test/v1/limited');

  it(`allows ${LIMIT.limit} requests, then answers 429 rest_too_many_requests with Retry-After`, async () => {
    freshWindow(10);
    for (let i = 0; i < LIMIT.limit; i++) {
      const res = await hit();
      assert.equal(res.status, 200, `request ${i + 1}`);
      assert.equal(res.headers['retry-after'], undefined);
    }
    const refused = await hit();
    const body = assertRestError(refused, 429, 'rest_too_many_requests', 'Too many requests. Try again in 50 seconds.');
    assert.deepEqual(body, { code: 'rest_too_many_requests', message: 'Too many requests. Try again in 50 seconds.', data: { status: 429, retry_after: 50 } });
    assert.equal(refused.headers['retry-after'], '50');
    assert.equal(statusMessage(refused), 'Too Many Requests');
    assert.equal(refused.headers.allow, 'GET');
    oracle.clock.advance(30 * 1000);
    const later = await hit();
    assert.equal(later.status, 429);
    assert.equal(later.headers['retry-after'], '20', 'the time left in the window');
  });

  it('counts each caller separately: the address of anonymous callers, the user of signed-in ones', async () => {
    freshWindow(0);
    for (let i = 0; i < LIMIT.limit; i++) assert.equal((await hit()).status, 200);
    assert.equal((await hit()).status, 429);
    const agent = () => hit().set('Authorization', basicAuth('agent1'));
    for (let i = 0; i < LIMIT.limit; i++) assert.equal((await agent()).status, 200);
    assertRestError(await agent(), 429, 'rest_too_many_requests');
    assert.equal((await hit().set('Authorization', basicAuth('manager1'))).status, 200);
  });

  it('counts a request in every bucket a route declares; the first full one refuses it', async () => {
    freshWindow(0);
    const send = (thread: string) => request(oracle.app).get(`/wp-json/test/v1/bucketed?thread=${thread}`);
    const statuses = [];
    for (const thread of ['a', 'a', 'a', 'b', 'b']) statuses.push((await send(thread)).status);
    // Thread a is full after two; the site-wide bucket (3) fills on b's first and refuses b's second.
    assert.deepEqual(statuses, [200, 200, 429, 200, 429]);
  });

  it('keeps the counters in the database, shared by two app instances over it', async () => {
    const start = freshWindow(5);
    const twin = await oracle.openTwin();
    assert.notEqual(twin.site.db, oracle.site.db, 'a second connection');
    assert.equal((await hit(oracle.app)).status, 200);
    assert.equal((await hit(twin.app)).status, 200);
    assert.equal((await hit(oracle.app)).status, 200);
    assertRestError(await hit(twin.app), 429, 'rest_too_many_requests');
    assertRestError(await hit(oracle.app), 429, 'rest_too_many_requests');
    const { knex, tables } = twin.site.db;
    const row = await knex(tables.plugin('svc', 'rate_limits')).where({ bucket: 'test.limited:ip:127.0.0.1', window_start: start }).first();
    assert.ok(row, 'the counter row');
    assert.equal(Number(row.hits), 5, 'refused requests are counted too');
    assert.equal(Number(row.expires_at), start + LIMIT.windowSeconds);
  });

  it('counts a concurrent burst on both instances exactly once each', async () => {
    freshWindow(0);
    const twin = await oracle.openTwin();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => hit(i % 2 ? twin.app : oracle.app)));
    const statuses = answers.map((r) => r.status).sort();
    assert.deepEqual(statuses, [...Array(LIMIT.limit).fill(200), ...Array(10 - LIMIT.limit).fill(429)], answers.map((r) => r.text).join('\n'));
  });

  it('starts again when the clock moves past the window', async () => {
    const start = freshWindow(LIMIT.windowSeconds - 1);
    for (let i = 0; i < LIMIT.limit; i++) assert.equal((await hit()).status, 200);
    const refused = await hit();
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['retry-after'], '1');
    oracle.clock.set((start + LIMIT.windowSeconds) * 1000);
    assert.equal((await hit()).status, 200, 'a new window');
  });

  it('counts only requests that reach the handler stage (not refused ones earlier)', async () => {
    freshWindow(0);
    for (let i = 0; i < LIMIT.limit + 2; i++) {
      assert.equal((await request(oracle.app).get('/wp-json/test/v1/limited').set('X-WP-Nonce', 'deadbeef00')).status, 403);
    }
    assert.equal((await hit()).status, 200);
  });

  it('batched counting decides at once, shares counts on flush, and writes what is pending when the site closes', async () => {
    const start = freshWindow(0);
    const twin = await oracle.openTwin();
    const bucket = 'test.batched:ip:127.0.0.1';
    const decide = (site = oracle.site) => site.rateLimiter.hitBatched(bucket, LIMIT.limit, LIMIT.windowSeconds).allowed;
    const flushBoth = async () => {
      for (const site of [oracle.site, twin.site, oracle.site]) await site.rateLimiter.flush();
    };
    assert.deepEqual([decide(), decide(twin.site)], [true, true]);
    await flushBoth();
    assert.equal(decide(), true, 'the third');
    await flushBoth();
    assert.deepEqual([decide(twin.site), decide()], [false, false], 'each process knows the other\'s hits after a flush');
    await twin.site.close();
    await oracle.site.rateLimiter.flush();
    const { knex, tables } = oracle.site.db;
    const row = await knex(tables.plugin('svc', 'rate_limits')).where({ bucket, window_start: start }).first();
    assert.equal(Number(row?.hits), 5, 'refused hits are counted too, and the closed site\'s are written');
  });
});
