/**
 * Captured traffic of a whole network replayed against the process serving it: `understudy proxy
 * --record` in front of the network records each exchange with its Host, its route as read within
 * its site, and its blog; `understudy replay --network` sends each with its captured Host, so its Host
 * and path pick the site again. Without --network the target sees its own host name and no site.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseCapture } from '../../lib/replay/capture';
import { EXAMPLE_NETWORK, TestNetwork, buildNetwork, requestAt } from '../harness/network';
import { StartedServe, startServe } from '../deploy/serve-harness';
import { cli } from './cli-harness';

const HOST = 'example.test';

describe('understudy replay of a network\'s traffic', function () {
  this.timeout(60_000);
  let net: TestNetwork;
  let server: StartedServe;
  let env: Record<string, string>;
  let dir: string;

  before(async () => {
    net = await buildNetwork(EXAMPLE_NETWORK);
    env = net.serveEnv();
    server = await startServe(['serve', '--port=0'], env);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-replay-network-'));
    // The proxy records what it passes: here the network's own `serve` stands in for its PHP.
    const proxy = await startServe(['proxy', `--upstream=${server.url}`, '--port=0', `--record=${dir}`], env);
    for (const [host, uri] of [[HOST, '/two/wp-json/'], [HOST, '/three/?rest_route=/'], [HOST, '/wp-json/'], ['mapped.test', '/wp-json/'], [HOST, '/two/wp-json/wp/v2/users/me']]) {
      assert.equal((await requestAt(proxy.url, host as string, { path: uri as string })).status < 500, true);
    }
    await proxy.stop();
  });

  after(async () => {
    await server?.stop();
    await net?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('records each exchange with its Host, its route within its site and its blog', () => {
    const exchanges = fs.readdirSync(dir).flatMap((name) => parseCapture(fs.readFileSync(path.join(dir, name), 'utf8')));
    assert.deepEqual(exchanges.map((e) => [e.request.url, e.route, e.blogId]), [
      [`http://${HOST}/two/wp-json/`, '/', 2],
      [`http://${HOST}/three/?rest_route=/`, '/', 3],
      [`http://${HOST}/wp-json/`, '/', 1],
      ['http://mapped.test/wp-json/', '/', 4],
      [`http://${HOST}/two/wp-json/wp/v2/users/me`, '/wp/v2/users/me', 2],
    ]);
  });

  it('replays against the network with --network: each exchange reaches its own site and matches', async () => {
    const run = await cli(['replay', dir, `--target=${server.url}`, '--network', '--format=json'], env);
    const report = JSON.parse(run.stdout) as { totals: { matched: number }; results: Array<{ blogId?: number; outcome: string }> };
    assert.equal(run.status, 0, run.stdout);
    assert.equal(report.totals.matched, 5);
    assert.deepEqual(report.results.map((r) => r.blogId), [2, 3, 1, 4, 2]);
  });

  it('without --network, says why every exchange misses its site', async () => {
    const run = await cli(['replay', dir, `--target=${server.url}`], env);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /recorded in front of a network: without --network/);
    assert.match(run.stdout, /0 matched, 5 differed/);
  });

  it('reads a browser capture of a subdirectory site\'s REST routes within the site', async () => {
    const har = path.join(dir, '..', `browser-${path.basename(dir)}.har`);
    const index = await requestAt(server.url, HOST, { path: '/three/wp-json/' });
    fs.writeFileSync(har, JSON.stringify({ log: { entries: [{
      request: { method: 'GET', url: `http://${HOST}/three/wp-json/`, headers: [] },
      response: { status: index.status, headers: Object.entries(index.headers).map(([name, value]) => ({ name, value: String(value) })), content: { text: index.text } },
    }] } }));
    try {
      const run = await cli(['replay', har, `--target=${server.url}`, '--network', '--format=json'], env);
      assert.equal(run.status, 0, run.stdout);
      assert.deepEqual((JSON.parse(run.stdout) as { routes: Array<{ route: string }> }).routes.map((r) => r.route), ['/']);
    } finally {
      fs.rmSync(har, { force: true });
    }
  });
});
