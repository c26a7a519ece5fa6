/**
 * The whole proxy over the oracle site: Understudy (over the database real WordPress made) serves the
 * plugins' routes in-process, a recorded WordPress stands upstream for everything else, and users/me
 * is shadowed: clients get WordPress's recorded answers while Understudy's are compared with them.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { buildSurface, createApp } from '../../../lib/app';
import { memoryLogger } from '../../../lib/logger';
import { createRouting } from '../../../lib/proxy/routing';
import { Proxy, STATUS_PATH, createProxy } from '../../../lib/proxy/server';
import { parseCapture } from '../../../lib/replay/capture';
import { loadRules } from '../../../lib/replay/rules';
import { Listening, headerValues, listen, rawRequest } from '../../harness/http';
import { ORACLE_DIR, OracleSite, credentials, openOracle } from '../../harness/oracle';
import { SeenRequest, recordedSite } from '../../harness/recorded-site';

const exchanges = parseCapture(fs.readFileSync(path.join(ORACLE_DIR, 'wp-core-traffic.json'), 'utf8'));
const AGENT1 = credentials.application_passwords.agent1.basic_auth_header as string;

describe('understudy proxy over the oracle site', () => {
  let oracle: OracleSite;
  let upstream: Listening;
  let front: Listening;
  let proxy: Proxy;
  const seen: SeenRequest[] = [];
  const logger = memoryLogger();

  before(async () => {
    oracle = await openOracle();
    upstream = await listen(recordedSite(exchanges, seen));
    const surface = buildSurface();
    proxy = createProxy({
      upstream: upstream.url, understudy: createApp(oracle.site, surface), surface, logger, rules: loadRules(),
      routing: createRouting({ routes: { '/wp/v2/users/me': 'shadow' } }, surface),
    });
    front = await listen(proxy.handler);
  });
  after(async () => {
    await front.close();
    await proxy.close();
    await upstream.close();
    await oracle.close();
  });
  beforeEach(() => {
    seen.length = 0;
  });

  it('answers the plugins\' REST routes itself, without troubling the upstream', async () => {
    const tickets = await rawRequest(front.url, { path: '/wp-json/support/v1/tickets?per_page=2', headers: ['Authorization', AGENT1] });
    assert.equal(tickets.status, 200);
    assert.equal(JSON.parse(tickets.body.toString()).length, 2);
    const refused = await rawRequest(front.url, { path: '/?rest_route=/support/v1/tickets' });
    assert.equal(JSON.parse(refused.body.toString()).code, 'rest_forbidden');
    assert.equal(seen.length, 0, 'the upstream was not asked');
  });

  it('passes WordPress core routes, the index and pages to the upstream', async () => {
    const posts = exchanges.find((e) => e.name.startsWith('posts?per_page=1 '));
    const answer = await rawRequest(front.url, { path: '/wp-json/wp/v2/posts?per_page=1' });
    assert.equal(answer.body.toString(), posts?.response.body, 'WordPress\'s recorded answer');
    for (const url of ['/wp-json/', '/about/?x=1']) assert.equal(JSON.parse((await rawRequest(front.url, { path: url })).body.toString()).from, 'upstream', url);
    assert.deepEqual(seen.map((s) => s.url), ['/wp-json/wp/v2/posts?per_page=1', '/wp-json/', '/about/?x=1']);
  });

  it('passes the dashboard to the upstream even with a rest_route naming a plugin route, as WordPress ignores it there', async () => {
    const dashboard = await rawRequest(front.url, { path: '/wp-admin/?rest_route=/support/v1/tickets' });
    assert.equal(JSON.parse(dashboard.body.toString()).from, 'upstream');
    assert.deepEqual(seen.map((s) => s.url), ['/wp-admin/?rest_route=/support/v1/tickets']);
  });

  it('reads admin-ajax bodies to find the action: the plugins\' actions are served, others get the body whole', async () => {
    const form = ['Content-Type', 'application/x-www-form-urlencoded'];
    const served = await rawRequest(front.url, { method: 'POST', path: '/wp-admin/admin-ajax.php', headers: form, body: 'action=frm_form_submit&form_id=999' });
    assert.equal(served.status, 404);
    assert.deepEqual(JSON.parse(served.body.toString()), { message: { type: 'error', text: 'This form is not available.' } });
    assert.equal(seen.length, 0, 'the upstream was not asked');
    const body = `action=heartbeat&data=${'x'.repeat(50_000)}`;
    const passed = await rawRequest(front.url, { method: 'POST', path: '/wp-admin/admin-ajax.php?action=frm_form_submit', headers: form, body });
    assert.equal(JSON.parse(passed.body.toString()).from, 'upstream');
    assert.equal(seen[0]?.body, body);
  });

  it('shadows users/me: clients get WordPress\'s recorded answers, and Understudy\'s match them', async () => {
    const usersMe = exchanges.filter((e) => new URL(e.request.url).pathname === '/wp-json/wp/v2/users/me' && e.request.method === 'GET');
    assert.ok(usersMe.length >= 15);
    for (const exchange of usersMe) {
      const url = new URL(exchange.request.url);
      const headers = exchange.request.headers.filter(([n]) => !['host', 'connection'].includes(n.toLowerCase())).flat();
      const answer = await rawRequest(front.url, { path: url.pathname + url.search, headers });
      assert.equal(answer.status, exchange.response.status, exchange.name);
      assert.equal(answer.body.toString(), exchange.response.body, exchange.name);
      assert.deepEqual(headerValues(answer.rawHeaders, 'allow'), exchange.response.headers.filter(([n]) => n === 'Allow').map(([, v]) => v));
    }
    await proxy.queue.idle();
    const counters = proxy.stats.snapshot(0).routes.find((r) => r.route === '/wp/v2/users/me');
    assert.deepEqual(logger.lines.map((l) => l.fields), []);
    assert.equal(counters?.compared, usersMe.length);
    assert.equal(counters?.matched, usersMe.length);
  });

  it('answers the shadow counters at its status path to clients on its own machine', async () => {
    const answer = await rawRequest(front.url, { path: STATUS_PATH });
    assert.match(headerValues(answer.rawHeaders, 'content-type')[0] ?? '', /^application\/json/);
    const status = JSON.parse(answer.body.toString());
    assert.equal(status.pending, 0);
    assert.ok(status.routes.some((r: { route: string; matchRate: number }) => r.route === '/wp/v2/users/me' && r.matchRate === 1));
  });
});
