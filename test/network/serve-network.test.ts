/**
 * `understudy serve` on a network (MULTISITE on, no WP_BLOG_ID): one process answers every site, each
 * request reaching the site its Host and path name, as WordPress's ms-settings.php decides; the
 * addresses that name no site and the blocked sites answer as WordPress answers them; sites are let
 * go when idle and opened again when asked for.
 */
import assert from 'node:assert/strict';
import { eventually } from '../harness/eventually';
import { EXAMPLE_NETWORK, TestNetwork, buildNetwork, requestAt } from '../harness/network';
import { StartedServe, logMessages, requestRecords, startServe } from '../deploy/serve-harness';

const HOST = 'example.test';

describe('serve: a whole network in one process', function () {
  this.timeout(60_000);
  let net: TestNetwork;
  let server: StartedServe;

  before(async () => {
    net = await buildNetwork(EXAMPLE_NETWORK);
    server = await startServe(['serve', '--port=0'], net.serveEnv({
      LOG_FORMAT: 'json', NETWORK_SITE_IDLE_SECONDS: '1', METRICS_TOKEN: 'network-metrics-token',
    }));
  });

  after(async () => {
    await server?.stop();
    await net?.close();
  });

  const get = (path: string, headers: Record<string, string> = {}, host = HOST) => requestAt(server.url, host, { path, headers });

  async function signedIn(login: string) {
    const { cookie, nonce } = await net.signIn(login);
    return { cookie, 'x-wp-nonce': nonce };
  }

  it('answers each site at its path: /two/wp-json/, /two/?rest_route= and a mapped domain reach their own site', async () => {
    const index = async (uri: string, host = HOST) => JSON.parse((await get(uri, {}, host)).text) as { home: string };
    assert.equal((await index('/wp-json/')).home, `http://${HOST}`);
    assert.equal((await index('/two/wp-json/')).home, `http://${HOST}/two`);
    assert.equal((await index('/three/?rest_route=/')).home, `http://${HOST}/three`);
    assert.equal((await index('/wp-json/', 'mapped.test')).home, 'http://mapped.test');
    assert.equal((await index('/nosuch/?rest_route=/')).home, `http://${HOST}`, 'a path naming no site is the main site');
  });

  it('signs a user in on every site with the network\'s cookie and nonce; users/me links to that site', async () => {
    const headers = await signedIn('customer2');
    for (const [path, home] of [['/two', `http://${HOST}/two`], ['/three', `http://${HOST}/three`], ['', `http://${HOST}`]] as const) {
      const me = await get(`${path}/wp-json/wp/v2/users/me`, headers);
      assert.equal(me.status, 200, `${path}: ${me.text}`);
      assert.equal((JSON.parse(me.text) as { id: number; link: string }).id, net.users.customer2);
      assert.ok((JSON.parse(me.text) as { link: string }).link.startsWith(`${home}/`), me.text);
    }
  });

  it('accepts an application password on every site: it is the user\'s, network-wide', async () => {
    for (const path of ['', '/two', '/three']) {
      const me = await get(`${path}/wp-json/wp/v2/users/me`, { authorization: net.basicAuth('agent2') });
      assert.equal(me.status, 200, `${path}: ${me.text}`);
      assert.equal((JSON.parse(me.text) as { id: number }).id, net.users.agent2);
    }
  });

  it('keeps each site\'s tickets to itself: an agent of site 2 is a customer on site 3', async () => {
    const customer = await signedIn('customer2');
    const created = await requestAt(server.url, HOST, {
      method: 'POST', path: '/two/wp-json/support/v1/tickets', headers: { 'content-type': 'application/json', ...customer }, body: JSON.stringify({ subject: 'On two', body: 'Hello' }),
    });
    assert.equal(created.status, 201, created.text);
    const ticket = JSON.parse(created.text) as { id: number };
    const agent = await signedIn('agent2');
    const onTwo = await get('/two/wp-json/support/v1/tickets', agent);
    assert.equal(onTwo.status, 200, onTwo.text);
    assert.ok((JSON.parse(onTwo.text) as Array<{ id: number }>).some((t) => t.id === ticket.id));
    const onThree = await get(`/three/wp-json/support/v1/tickets/${ticket.id}`, agent);
    assert.equal(onThree.status, 404, onThree.text);
    const listOnThree = await get('/three/wp-json/support/v1/tickets', agent);
    assert.deepEqual(JSON.parse(listOnThree.text), []);
  });

  it('answers an archived site 410 through wp_die(), as JSON when asked, and lets a super admin signed in by cookie through', async () => {
    const html = await get('/five/wp-json/support/v1/tickets');
    assert.equal(html.status, 410);
    assert.match(html.headers['content-type'] ?? '', /^text\/html/);
    assert.ok(html.text.includes('This site has been archived or suspended.'));
    const json = await get('/five/wp-json/support/v1/tickets', { accept: 'application/json' });
    assert.deepEqual([json.status, JSON.parse(json.text).code], [410, 'wp_die']);
    const ajax = await get('/five/wp-admin/admin-ajax.php?action=heartbeat');
    assert.deepEqual([ajax.status, ajax.text], [410, 'This site has been archived or suspended.']);
    assert.equal((await get('/five/wp-json/wp/v2/users/me', await signedIn('customer2'))).status, 410);
    const boss = await get('/five/wp-json/wp/v2/users/me', await signedIn('boss'));
    assert.equal(boss.status, 200, boss.text);
  });

  it('sends an address on another host to the network, as WordPress redirects it', async () => {
    const other = await get('/two/', {}, 'other.test');
    assert.equal(other.status, 302);
    assert.equal(other.headers.location, `http://${HOST}/`);
  });

  it('logs each request with its blog ID and the path as received', async () => {
    await get('/three/wp-json/');
    await eventually(async () => requestRecords(server.stderr.text()).some((r) => r.path === '/three/wp-json/'), 5_000);
    const record = requestRecords(server.stderr.text()).find((r) => r.path === '/three/wp-json/');
    assert.equal(record?.blog_id, 3);
  });

  it('counts requests per site and the sites open in its metrics', async () => {
    await get('/three/wp-json/');
    const metrics = await get('/-/metrics', { authorization: 'Bearer network-metrics-token' });
    assert.match(metrics.text, /^understudy_network_site_requests_total\{blog_id="3"\} [1-9]/m);
    assert.match(metrics.text, /^understudy_network_open_sites [1-9]/m);
  });

  it('lets an idle site go and opens it again when asked for', async () => {
    await get('/three/wp-json/');
    await eventually(async () => /an idle site is let go/.test(logMessages(server.stderr.text())), 10_000);
    const again = await get('/three/wp-json/');
    assert.equal(again.status, 200);
  });
});
