/**
 * The upstream timeout: a PHP site that stays silent past it gives the client a WordPress-shaped 504
 * (and a shadowed exchange counts as failed); an answer that keeps streaming is never cut; a site that
 * falls silent after its headers has the client's connection cut, as a broken upstream does.
 */
import assert from 'node:assert/strict';
import { ServerResponse } from 'node:http';
import { buildSurface } from '../../../lib/app';
import { memoryLogger } from '../../../lib/logger';
import { SHADOW_DEFAULTS } from '../../../lib/proxy/routing';
import { Proxy, createProxy } from '../../../lib/proxy/server';
import { compileRules } from '../../../lib/replay/rules';
import { Listening, listen, rawRequest } from '../../harness/http';

describe('proxy upstream timeout', () => {
  let upstream: Listening;
  let front: Listening;
  let proxy: Proxy;
  const held: ServerResponse[] = [];

  before(async () => {
    upstream = await listen((req, res) => {
      if (req.url?.startsWith('/silent')) return void held.push(res);
      if (req.url?.startsWith('/wp-json/support/v1/silent')) return void held.push(res);
      if (req.url?.startsWith('/half')) {
        res.writeHead(200, { 'Content-Type': 'text/plain' }).write('first part');
        return void held.push(res);
      }
      // Streams for three times the timeout, a piece every third of it: never silent long enough.
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      let sent = 0;
      const timer = setInterval(() => {
        res.write(`piece ${sent}\n`);
        if (++sent === 9) {
          clearInterval(timer);
          res.end();
        }
      }, 100);
    });
    proxy = createProxy({
      upstream: upstream.url, understudy: (_req, res) => res.end('{}'), surface: buildSurface(), logger: memoryLogger(),
      rules: compileRules({}), upstreamTimeoutMs: 300,
      routing: { shadow: SHADOW_DEFAULTS, decide: (target) => (target.kind === 'rest' ? 'shadow' : 'pass') },
    });
    front = await listen(proxy.handler);
  });
  after(async () => {
    for (const res of held) res.destroy();
    await front.close();
    await proxy.close(0);
    await upstream.close();
  });

  it('answers 504 with a WordPress error when the upstream says nothing in time', async () => {
    const answer = await rawRequest(front.url, { path: '/silent/page' });
    assert.equal(answer.status, 504);
    assert.deepEqual(JSON.parse(answer.body.toString()), { code: 'upstream_timeout', message: 'The site did not answer in time.', data: { status: 504 } });
  });

  it('counts a timed-out shadowed exchange as failed', async () => {
    const answer = await rawRequest(front.url, { path: '/wp-json/support/v1/silent' });
    assert.equal(answer.status, 504);
    const route = proxy.stats.snapshot(0).routes.find((r) => r.route === '/support/v1/silent');
    assert.equal(route?.failed, 1);
    assert.equal(route?.compared, 0);
  });

  it('lets a long answer through while it keeps streaming', async () => {
    const answer = await rawRequest(front.url, { path: '/slow-stream' });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.toString().split('\n').filter(Boolean).length, 9);
  });

  it('cuts the client\'s connection when the upstream falls silent mid-answer', async () => {
    await assert.rejects(rawRequest(front.url, { path: '/half' }));
  });
});
