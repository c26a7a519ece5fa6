/**
 * `understudy proxy` in front of a real WordPress 6.1 network (php -S, MariaDB), Understudy reading
 * the network's own wp-config.php: the plugins' routes of each site are Understudy's, everything else
 * is PHP's answer (its redirect for an address naming no site, its 410 for an archived site's page),
 * and an archived site's served routes get the same wp_die() PHP gives for that address. What the
 * proxy records replays against PHP itself with `replay --network`, each exchange reaching its site.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseCapture } from '../../lib/replay/capture';
import { ScratchDatabase, scratchDatabase } from '../harness/db';
import { eventually } from '../harness/eventually';
import { requestAt } from '../harness/network';
import { ORACLE_SALTS } from '../harness/oracle';
import { RunningNetwork, cookieHeader, startWordPressNetwork, wordpressNetworkSkipReason } from '../harness/wordpress-network';
import { StartedServe, startServe } from '../deploy/serve-harness';
import { cli } from './cli-harness';

const BOSS = { login: 'boss', password: 'boss-pass-1234', roles: {}, superAdmin: true };
const CUSTOMER = { login: 'customer', password: 'customer-pass-1234', roles: { 2: 'subscriber' } };

describe('understudy proxy in front of a real WordPress network', function () {
  this.timeout(240_000);
  let scratch: ScratchDatabase;
  let php: RunningNetwork;
  let proxy: StartedServe;
  let dataDir: string;
  let env: Record<string, string>;
  let recording: string;

  before(async function () {
    const skip = wordpressNetworkSkipReason();
    if (skip) {
      console.log(`      skipped: ${skip}`);
      this.skip();
    }
    scratch = await scratchDatabase();
    if (scratch.target.client !== 'mysql') throw new Error('unreachable: the skip reason covers SQLite');
    php = await startWordPressNetwork({
      db: scratch.target, salts: ORACLE_SALTS, domain: 'network.test', users: [BOSS, CUSTOMER],
      sites: [{ path: '/two/' }, { path: '/three/', archived: true }],
    });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-proxy-php-'));
    env = { WP_CONFIG_PATH: php.configFile, UNDERSTUDY_DATA_DIR: dataDir };
    recording = path.join(dataDir, 'recording');
    proxy = await startServe(['proxy', `--upstream=${php.address}`, '--port=0', `--record=${recording}`, '--record-routes=/,page:/three/'], env);
  });

  after(async () => {
    await proxy?.stop();
    await php?.close();
    await scratch?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const viaProxy = (uri: string, headers: Record<string, string> = {}, host = 'network.test') => requestAt(proxy.url, host, { path: uri, headers });

  async function signedIn(login: string, password: string, sitePath = '/') {
    const { cookies } = await php.signIn(login, password, sitePath);
    return { cookie: cookieHeader(cookies), 'x-wp-nonce': await php.restNonce(cookies, sitePath) };
  }

  it('answers site 2\'s plugin routes itself for a customer signed in through PHP, and passes WordPress\'s own to PHP', async () => {
    const customer = await signedIn(CUSTOMER.login, CUSTOMER.password, '/two/');
    const tickets = await viaProxy('/two/wp-json/support/v1/tickets', customer);
    assert.deepEqual([tickets.status, tickets.text], [200, '[]']);
    assert.equal((await php.request('/two/wp-json/support/v1/tickets', { headers: customer })).status, 404, 'PHP has no such route');
    const me = await viaProxy('/two/wp-json/wp/v2/users/me', customer);
    assert.equal(me.status, 200, me.text);
    assert.equal(JSON.parse(me.text).id, php.userIds.customer);
    assert.equal(String(me.headers['x-powered-by']).startsWith('PHP'), true, 'PHP answered users/me');
  });

  it('passes an address naming no site to PHP, which redirects it to the network', async () => {
    const other = await viaProxy('/two/', {}, 'other.test');
    assert.deepEqual([other.status, other.headers.location], [302, 'http://network.test/']);
  });

  it('answers an archived site\'s plugin routes as PHP answers that site, and passes its pages to PHP\'s own 410', async () => {
    for (const accept of ['application/json', 'text/html']) {
      const ours = await viaProxy('/three/wp-json/support/v1/tickets', { accept });
      const theirs = await php.request('/three/wp-json/support/v1/tickets', { headers: { accept } });
      assert.equal(ours.status, theirs.status, accept);
      assert.equal(ours.headers['content-type'], theirs.headers['content-type'], accept);
      if (accept === 'application/json') assert.deepEqual(JSON.parse(ours.text), JSON.parse(theirs.body));
      // The page around the message is Understudy's own (WordPress's styles are not copied).
      else assert.ok(ours.text.includes('<div class="wp-die-message">This site has been archived or suspended.</div>') && theirs.body.includes('<div class="wp-die-message">This site has been archived or suspended.</div>'));
    }
    const page = await viaProxy('/three/');
    assert.equal(page.status, 410);
    assert.equal(String(page.headers['x-powered-by']).startsWith('PHP'), true);
    const boss = await viaProxy('/three/wp-json/support/v1/tickets', await signedIn(BOSS.login, BOSS.password));
    assert.equal(boss.status, 200, `a super admin signed in by cookie passes, as in PHP: ${boss.text}`);
  });

  it('records the network\'s traffic with each exchange\'s Host, and replays it against PHP with --network, each site answering', async () => {
    for (const uri of ['/two/wp-json/', '/wp-json/', '/three/']) await viaProxy(uri);
    const recorded = () => (fs.existsSync(recording) ? fs.readdirSync(recording) : []).flatMap((name) => parseCapture(fs.readFileSync(path.join(recording, name), 'utf8')));
    await eventually(async () => ['/two/wp-json/', '/wp-json/'].every((uri) => recorded().some((e) => e.request.url === `http://network.test${uri}`)), 10_000);
    assert.deepEqual(recorded().filter((e) => e.route === '/').map((e) => e.blogId), [2, 1]);
    const run = await cli(['replay', recording, `--target=${php.address}`, '--network', '--format=json'], env);
    const report = JSON.parse(run.stdout) as { totals: { exchanges: number; matched: number } };
    assert.equal(run.status, 0, run.stdout);
    assert.equal(report.totals.matched, report.totals.exchanges);
    const without = await cli(['replay', recording, `--target=${php.address}`, '--format=json'], env);
    assert.equal(without.status, 1, 'PHP finds no site for its own address');
  });
});
