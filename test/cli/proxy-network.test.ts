/**
 * `understudy proxy` in front of a whole network (MULTISITE on, no WP_BLOG_ID): one process finds
 * each request's site as WordPress does, answers the plugins' routes with that site, passes the rest
 * (and addresses naming no site) to PHP unchanged, answers a blocked site's served routes with
 * WordPress's wp_die(), and shadows per site: counts and differences carry the blog and land in that
 * site's own tables. A plain HTTP server stands in for PHP and echoes what it was sent.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readEvidence } from '../../lib/proxy/shadow-store';
import { eventually } from '../harness/eventually';
import { Listening, listen } from '../harness/http';
import { EXAMPLE_NETWORK, TestNetwork, buildNetwork, requestAt } from '../harness/network';
import { SeenRequest, recordedSite } from '../harness/recorded-site';
import { StartedServe, requestRecords, startServe } from '../deploy/serve-harness';
import { cli } from './cli-harness';

const HOST = 'example.test';

describe('understudy proxy in front of a whole network', function () {
  this.timeout(60_000);
  let net: TestNetwork;
  let php: Listening;
  let proxy: StartedServe;
  let env: Record<string, string>;
  let dir: string;
  const seen: SeenRequest[] = [];

  before(async () => {
    net = await buildNetwork(EXAMPLE_NETWORK);
    php = await listen(recordedSite([], seen));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-proxy-network-'));
    const routes = path.join(dir, 'routes.json');
    fs.writeFileSync(routes, JSON.stringify({ routes: { '/wp/v2/users/me': 'shadow' } }));
    env = net.serveEnv({ LOG_FORMAT: 'json' });
    proxy = await startServe(['proxy', `--upstream=${php.url}`, '--port=0', `--routes=${routes}`], env);
  });

  after(async () => {
    await proxy?.stop();
    await php?.close();
    await net?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const get = (uri: string, headers: Record<string, string> = {}, host = HOST) => requestAt(proxy.url, host, { path: uri, headers });
  const fromPhp = (text: string) => (JSON.parse(text) as { from?: string }).from === 'upstream';
  const phpSaw = (url: string) => seen.find((s) => s.url === url);
  const hostOf = (request: SeenRequest | undefined) => request?.rawHeaders[request.rawHeaders.findIndex((h) => h.toLowerCase() === 'host') + 1];

  async function signedIn(login: string) {
    const { cookie, nonce } = await net.signIn(login);
    return { cookie, 'x-wp-nonce': nonce };
  }

  it('answers each site\'s plugin routes with that site: a ticket made on /two/ is site 2\'s alone', async () => {
    const created = await requestAt(proxy.url, HOST, {
      method: 'POST', path: '/two/wp-json/support/v1/tickets', body: JSON.stringify({ subject: 'On two', body: 'Hello' }),
      headers: { 'content-type': 'application/json', ...(await signedIn('customer2')) },
    });
    assert.equal(created.status, 201, created.text);
    const { id } = JSON.parse(created.text) as { id: number };
    const agent = await signedIn('agent2');
    const onTwo = await get('/two/wp-json/support/v1/tickets', agent);
    assert.ok((JSON.parse(onTwo.text) as Array<{ id: number }>).some((t) => t.id === id), onTwo.text);
    assert.equal((await get(`/three/wp-json/support/v1/tickets/${id}`, agent)).status, 404);
    assert.equal((await get('/three/?rest_route=/support/v1/tickets', agent)).text, '[]');
    const mapped = await get('/wp-json/support/v1/tickets', {}, 'mapped.test');
    assert.equal(JSON.parse(mapped.text).code, 'rest_forbidden', 'a mapped domain\'s site answers too');
    assert.equal(seen.filter((s) => s.url.includes('support/v1')).length, 0, 'PHP was never asked');
  });

  it('passes pages, WordPress\'s own routes and core admin-ajax of every site to PHP, URL and Host unchanged', async () => {
    for (const uri of ['/two/hello-world/', '/two/wp-json/wp/v2/posts', '/three/wp-admin/admin-ajax.php?action=heartbeat', '/']) {
      const answer = await get(uri);
      assert.ok(fromPhp(answer.text), `${uri}: ${answer.text}`);
      assert.equal(hostOf(phpSaw(uri)), HOST, uri);
    }
  });

  it('passes an address that names no site to PHP, which answers its own redirect', async () => {
    const answer = await get('/two/wp-json/support/v1/tickets', {}, 'other.test');
    assert.ok(fromPhp(answer.text), answer.text);
    assert.equal(hostOf(phpSaw('/two/wp-json/support/v1/tickets')), 'other.test');
  });

  it('answers a blocked site\'s served routes with WordPress\'s wp_die() 410, and passes its pages to PHP', async () => {
    const html = await get('/five/wp-json/support/v1/tickets');
    assert.equal(html.status, 410);
    assert.ok(html.text.includes('This site has been archived or suspended.'), html.text);
    const json = await get('/five/wp-json/support/v1/tickets', { accept: 'application/json' });
    assert.deepEqual([json.status, JSON.parse(json.text).code], [410, 'wp_die']);
    const boss = await get('/five/wp-json/support/v1/tickets', await signedIn('boss'));
    assert.equal(boss.status, 200, `a super admin signed in by cookie passes: ${boss.text}`);
    assert.ok(fromPhp((await get('/five/')).text));
  });

  it('shadows per site: counts by blog, differences in that site\'s own tables', async () => {
    const customer = await signedIn('customer2');
    for (const uri of ['/two/wp-json/wp/v2/users/me', '/three/wp-json/wp/v2/users/me', '/three/wp-json/wp/v2/users/me']) {
      assert.ok(fromPhp((await get(uri, customer)).text), 'the client gets PHP\'s answer');
    }
    let status = '';
    await eventually(async () => {
      status = (await cli(['shadow', 'status', `--proxy=${proxy.url}`, '--format=json'], env)).stdout;
      return (JSON.parse(status) as { totals: { compared: number } }).totals.compared === 3;
    }, 10_000);
    const routes = (JSON.parse(status) as { routes: Array<{ blogId?: number; route: string; differed: number }> }).routes;
    assert.deepEqual(routes.map((r) => [r.blogId, r.route, r.differed]), [[2, '/wp/v2/users/me', 1], [3, '/wp/v2/users/me', 2]]);
    const table = (await cli(['shadow', 'status', `--proxy=${proxy.url}`], env)).stdout;
    assert.match(table, /\| blog \| route\s+\|/);
    assert.match(table, /\| 3\s+\| \/wp\/v2\/users\/me\s+\| 2 /);
    // Counts are written before differences: wait for both.
    const evidenceOf = async (blogId: number) => (await readEvidence((await net.site(blogId)).db, 0)).map((e) => [e.route, e.counters.differed, e.differences.length]);
    await eventually(async () => (await evidenceOf(3))[0]?.[2] === 2, 15_000);
    assert.deepEqual(await evidenceOf(3), [['/wp/v2/users/me', 2, 2]]);
    await eventually(async () => (await evidenceOf(2))[0]?.[2] === 1, 15_000);
    assert.deepEqual(await evidenceOf(2), [['/wp/v2/users/me', 1, 1]]);
    assert.deepEqual(await readEvidence((await net.site(1)).db, 0), [], 'the main site holds none of it');
    const logged = proxy.stderr.text().split('\n').filter((l) => l.includes('shadow: Understudy answered differently')).map((l) => JSON.parse(l).blog_id);
    assert.deepEqual(logged.sort(), [2, 3, 3]);
  });

  it('logs every request with the blog it was for, served or passed', async () => {
    await get('/three/wp-json/support/v1/tickets');
    await get('/two/a-page/');
    await eventually(async () => requestRecords(proxy.stderr.text()).some((r) => r.path === '/two/a-page/'), 5_000);
    const records = requestRecords(proxy.stderr.text());
    assert.equal(records.find((r) => r.path === '/three/wp-json/support/v1/tickets')?.blog_id, 3);
    assert.equal(records.find((r) => r.path === '/two/a-page/')?.blog_id, 2);
  });
});
