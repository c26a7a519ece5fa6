/**
 * The replay runner against a real HTTP target on loopback: every exchange sent in order, compared,
 * grouped per route; credentials swapped for the target's and never present in the results.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { Exchange } from '../../../lib/replay/capture';
import { compileRules } from '../../../lib/replay/rules';
import { runReplay } from '../../../lib/replay/runner';

const PROD_BASIC = `Basic ${Buffer.from('agent1:PROD-APP-PASSWORD').toString('base64')}`;
const STAGING_BASIC = `Basic ${Buffer.from('agent1:STAGING-APP-PASSWORD').toString('base64')}`;

function exchange(name: string, url: string, status: number, body: unknown, headers: Array<[string, string]> = []): Exchange {
  return {
    name,
    request: { method: 'GET', url: `http://php.example.test${url}`, headers: [['Host', 'php.example.test'], ...headers], body: null },
    response: { status, headers: [['Content-Type', 'application/json; charset=UTF-8']], body: JSON.stringify(body) },
  };
}

describe('runReplay', () => {
  let server: http.Server;
  let target: string;
  const seen: Array<{ url: string; authorization?: string }> = [];

  before(async () => {
    server = http.createServer((req, res) => {
      seen.push({ url: req.url ?? '', authorization: req.headers.authorization });
      const json = (status: number, body: unknown) => res.writeHead(status, { 'Content-Type': 'application/json; charset=UTF-8' }).end(JSON.stringify(body));
      if (req.url === '/wp-json/wp/v2/users/me') {
        if (req.headers.authorization !== STAGING_BASIC) return json(401, { code: 'rest_not_logged_in' });
        return json(200, { id: 2, link: `http://${req.headers.host}/author/agent1/` });
      }
      if (req.url === '/wp-json/wp/v2/users/2') return json(200, { id: 2, name: 'Someone Else' });
      if (req.url === '/hang') return req.socket.destroy();
      json(404, { code: 'rest_no_route' });
    }).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    target = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  const capture = [
    exchange('me with the production password', '/wp-json/wp/v2/users/me', 200, { id: 2, link: 'http://php.example.test/author/agent1/' }, [['Authorization', PROD_BASIC]]),
    exchange('user 2', '/wp-json/wp/v2/users/2', 200, { id: 2, name: 'Agent One' }, [['Authorization', PROD_BASIC]]),
    exchange('connection cut', '/hang', 200, {}),
    exchange('posts are WordPress core', '/wp-json/wp/v2/posts/9', 200, []),
  ];
  const rules = compileRules({
    exclude: ['/wp/v2/posts/**'],
    credentials: [{ user: 'agent1', type: 'basic', captured: 'agent1:PROD-APP-PASSWORD', replacement: 'agent1:STAGING-APP-PASSWORD' }],
  });

  it('sends every exchange in order, with the replacement credential, and classifies each answer', async () => {
    seen.length = 0;
    const ticks: string[] = [];
    const report = await runReplay(capture, { target, rules, onResult: (r, done, total) => ticks.push(`${done}/${total} ${r.outcome}`) });
    assert.deepEqual(seen.map((s) => s.url), ['/wp-json/wp/v2/users/me', '/wp-json/wp/v2/users/2', '/hang']);
    assert.equal(seen[0]?.authorization, STAGING_BASIC);
    assert.deepEqual(ticks, ['1/4 matched', '2/4 differed', '3/4 failed', '4/4 excluded']);
    assert.deepEqual(report.totals, { exchanges: 4, matched: 1, differed: 1, failed: 1, excluded: 1 });
    assert.deepEqual(report.results[1]?.diffs, [{ where: 'body.name', expected: 'Agent One', actual: 'Someone Else' }]);
    assert.match(report.results[2]?.error ?? '', /socket hang up/);
  });

  it('groups results per route, troubled routes first', async () => {
    const report = await runReplay(capture, { target, rules });
    assert.deepEqual(report.routes.map((r) => r.route), ['/wp/v2/users/{id}', 'page:/hang', '/wp/v2/posts/{id}', '/wp/v2/users/me']);
    assert.deepEqual(report.routes[3], { route: '/wp/v2/users/me', matched: 1, differed: 0, failed: 0, excluded: 0 });
  });

  it('never puts a captured or replacement credential in its results', async () => {
    const report = await runReplay([
      { ...capture[0] as Exchange, response: { ...(capture[0] as Exchange).response, status: 500 } },
      exchange('nonce in the query', '/wp-json/x?_wpnonce=5e94078032', 200, {}),
    ], { target, rules });
    const text = JSON.stringify(report);
    for (const secret of ['PROD-APP-PASSWORD', 'STAGING-APP-PASSWORD', PROD_BASIC.slice(6), STAGING_BASIC.slice(6), '5e94078032']) {
      assert.ok(!text.includes(secret), `${secret} leaked`);
    }
    assert.match(report.results[1]?.url ?? '', /_wpnonce=\[redacted\]/);
  });

  it('fails an exchange that gets no answer in time', async () => {
    const silent = http.createServer(() => undefined).listen(0, '127.0.0.1');
    await new Promise((resolve) => silent.once('listening', resolve));
    try {
      const report = await runReplay([capture[1] as Exchange], { target: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, rules, timeoutMs: 100 });
      assert.equal(report.results[0]?.outcome, 'failed');
      assert.match(report.results[0]?.error ?? '', /no answer within 100 ms/);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
