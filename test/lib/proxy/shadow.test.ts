/**
 * Shadow mode with a real upstream on loopback and a stand-in Understudy: the client always gets the
 * upstream's answer, whole, before any comparison runs; differences are counted and logged unless the
 * upstream disagrees with itself there (noise); a slow, hung or broken Understudy changes nothing for
 * the client; the queue is bounded; writes are shadowed only when allowed.
 */
import assert from 'node:assert/strict';
import { RequestListener, ServerResponse } from 'node:http';
import { buildSurface } from '../../../lib/app';
import { memoryLogger } from '../../../lib/logger';
import { SHADOW_DEFAULTS, ShadowSettings } from '../../../lib/proxy/routing';
import { Proxy, createProxy } from '../../../lib/proxy/server';
import { compileRules } from '../../../lib/replay/rules';
import { Listening, listen, rawRequest } from '../../harness/http';

const json = (res: ServerResponse, body: unknown, status = 200) =>
  res.writeHead(status, { 'Content-Type': 'application/json; charset=UTF-8' }).end(JSON.stringify(body));

/** A gate a handler waits at until the test opens it. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => { open = resolve; });
  return { open, opened };
}

describe('shadow mode', () => {
  let upstream: Listening;
  let front: Listening | undefined;
  let proxy: Proxy | undefined;
  const upstreamHits: Array<{ url: string; method: string; body: string; forwardedFor?: string }> = [];
  let understudy: RequestListener = () => undefined;
  const logger = memoryLogger();

  before(async () => {
    upstream = await listen((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => { body += c; });
      req.on('end', () => {
        upstreamHits.push({ url: req.url ?? '', method: req.method ?? '', body, forwardedFor: req.headers['x-forwarded-for'] as string });
        if (req.url?.includes('stable=1')) return json(res, { stable: true });
        json(res, { count: 3, request_id: Math.random().toString(36).slice(2), echo: body });
      });
    });
  });
  after(() => upstream.close());
  afterEach(async () => {
    await front?.close();
    await proxy?.close(0);
    front = undefined;
    upstreamHits.length = 0;
    logger.lines.length = 0;
  });

  /** A proxy that shadows every REST request, with `listener` standing in for Understudy. */
  async function start(listener: RequestListener, settings: Partial<ShadowSettings> = {}): Promise<string> {
    understudy = listener;
    proxy = createProxy({
      upstream: upstream.url, understudy: (req, res) => understudy(req, res), surface: buildSurface(), logger, rules: compileRules({}),
      routing: { shadow: { ...SHADOW_DEFAULTS, ...settings }, decide: (target) => (target.kind === 'rest' ? 'shadow' : 'pass') },
    });
    front = await listen(proxy.handler);
    return front.url;
  }

  const counters = (route: string) => proxy?.stats.snapshot(proxy.queue.pending).routes.find((r) => r.route === route);

  it('cancels differences the upstream makes with itself (a random id) and reports none', async () => {
    const url = await start((_req, res) => json(res, { count: 3, request_id: 'understudy', echo: '' }));
    const answer = await rawRequest(url, { path: '/wp-json/support/v1/tickets' });
    assert.equal(JSON.parse(answer.body.toString()).count, 3);
    await proxy?.queue.idle();
    assert.deepEqual({ ...counters('/support/v1/tickets'), route: undefined, matchRate: undefined }, {
      route: undefined, matchRate: undefined, compared: 1, matched: 0, differed: 0, noiseCancelled: 1, failed: 0, dropped: 0, skipped: 0,
    });
    assert.equal(counters('/support/v1/tickets')?.matchRate, 1);
    assert.equal(upstreamHits.length, 2, 'the client\'s request and the noise check');
    assert.equal(logger.lines.length, 0);
  });

  it('reports a real difference, without the noisy field beside it', async () => {
    const url = await start((_req, res) => json(res, { count: 4, request_id: 'understudy', echo: '' }));
    await rawRequest(url, { path: '/wp-json/support/v1/tickets', headers: ['Authorization', 'Basic YWdlbnQxOnNlY3JldC1wYXNzd29yZA=='] });
    await proxy?.queue.idle();
    assert.equal(counters('/support/v1/tickets')?.differed, 1);
    const [logged] = logger.lines;
    assert.equal(logged?.message, 'shadow: Understudy answered differently');
    assert.deepEqual(logged?.fields?.diffs, [{ where: 'body.count', expected: '3', actual: '4' }]);
    assert.ok(!JSON.stringify(logger.lines).includes('YWdlbnQxOnNlY3JldC1wYXNzd29yZA'));
  });

  it('counts a match when Understudy answers the same, without asking the upstream twice', async () => {
    const url = await start((_req, res) => json(res, { stable: true }));
    await rawRequest(url, { path: '/wp-json/support/v1/tickets?stable=1' });
    await proxy?.queue.idle();
    assert.equal(counters('/support/v1/tickets')?.matched, 1);
    assert.equal(upstreamHits.length, 1);
  });

  it('gives the client its whole answer while a slow Understudy is still working', async () => {
    const slow = gate();
    const order: string[] = [];
    const url = await start(async (_req, res) => {
      order.push('understudy started');
      await slow.opened;
      order.push('understudy answered');
      json(res, { count: 3, request_id: 'u', echo: '' });
    });
    const answer = await rawRequest(url, { path: '/wp-json/support/v1/tickets' });
    order.push('client has its answer');
    assert.equal(JSON.parse(answer.body.toString()).count, 3);
    assert.equal(proxy?.queue.pending, 1, 'the comparison is still pending');
    assert.equal(counters('/support/v1/tickets'), undefined, 'nothing compared yet');
    slow.open();
    await proxy?.queue.idle();
    assert.ok(order.indexOf('client has its answer') < order.indexOf('understudy answered'));
    assert.equal(counters('/support/v1/tickets')?.compared, 1);
  });

  it('gives up on an Understudy that never answers, counting a failure; the client never notices', async () => {
    const url = await start(() => undefined, { timeoutMs: 100 });
    const answer = await rawRequest(url, { path: '/wp-json/support/v1/tickets' });
    assert.equal(answer.status, 200);
    await proxy?.queue.idle();
    assert.equal(counters('/support/v1/tickets')?.failed, 1);
    assert.match(String(logger.lines[0]?.fields?.error), /no answer within 100 ms/);
  });

  it('survives an Understudy that throws', async () => {
    const url = await start(() => { throw new Error('boom'); });
    assert.equal((await rawRequest(url, { path: '/wp-json/support/v1/tickets' })).status, 200);
    await proxy?.queue.idle();
    assert.equal(counters('/support/v1/tickets')?.failed, 1);
  });

  it('drops and counts comparisons once the queue is full', async () => {
    const blocked = gate();
    const url = await start(async (_req, res) => {
      await blocked.opened;
      json(res, { count: 3, request_id: 'u', echo: '' });
    }, { concurrency: 1, queueLimit: 1 });
    for (let i = 0; i < 3; i++) assert.equal((await rawRequest(url, { path: '/wp-json/support/v1/tickets' })).status, 200);
    assert.equal(counters('/support/v1/tickets')?.dropped, 1);
    assert.equal(proxy?.queue.pending, 2);
    blocked.open();
    await proxy?.queue.idle();
    assert.equal(counters('/support/v1/tickets')?.compared, 2);
  });

  it('passes writes without shadowing them unless shadow writes are on', async () => {
    let understudyCalls = 0;
    const url = await start((_req, res) => { understudyCalls++; json(res, {}); });
    await rawRequest(url, { method: 'POST', path: '/wp-json/support/v1/tickets', headers: ['Content-Type', 'application/json'], body: '{"subject":"x"}' });
    await proxy?.queue.idle();
    assert.equal(understudyCalls, 0);
    assert.equal(counters('/support/v1/tickets')?.skipped, 1);
    assert.deepEqual(upstreamHits.map((h) => h.body), ['{"subject":"x"}']);
  });

  it('with shadow writes on, replays the write to Understudy (same body, client address) but never twice upstream', async () => {
    const seen: Array<{ body: string; ip?: string }> = [];
    const url = await start((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => { body += c; });
      req.on('end', () => {
        seen.push({ body, ip: req.socket.remoteAddress });
        json(res, { count: 3, request_id: 'u', echo: body });
      });
    }, { writes: true, databaseIsCopy: true });
    await rawRequest(url, { method: 'POST', path: '/wp-json/support/v1/tickets', headers: ['Content-Type', 'application/json'], body: '{"subject":"x"}' });
    await proxy?.queue.idle();
    assert.deepEqual(seen, [{ body: '{"subject":"x"}', ip: '127.0.0.1' }]);
    assert.equal(upstreamHits.length, 1);
    assert.equal(counters('/support/v1/tickets')?.differed, 1, 'request_id differs, and a write gets no noise check');
  });

  it('skips requests whose bodies are over the bound, still passing them whole', async () => {
    const url = await start((_req, res) => json(res, {}), { writes: true, databaseIsCopy: true, maxBodyBytes: 10 });
    const answer = await rawRequest(url, { method: 'PUT', path: '/wp-json/support/v1/tickets', body: 'x'.repeat(100) });
    assert.equal(JSON.parse(answer.body.toString()).echo, 'x'.repeat(100));
    await proxy?.queue.idle();
    assert.equal(counters('/support/v1/tickets')?.skipped, 1);
  });

  it('asks the upstream again with the same forwarded headers for the noise check', async () => {
    const url = await start((_req, res) => json(res, { count: 4, request_id: 'u', echo: '' }));
    await rawRequest(url, { path: '/wp-json/support/v1/tickets?page=2', headers: ['X-Forwarded-For', '198.51.100.7'] });
    await proxy?.queue.idle();
    // The client is no trusted proxy: its own X-Forwarded-For is dropped, both times.
    assert.deepEqual(upstreamHits.map((h) => [h.url, h.forwardedFor]), [
      ['/wp-json/support/v1/tickets?page=2', '127.0.0.1'],
      ['/wp-json/support/v1/tickets?page=2', '127.0.0.1'],
    ]);
  });
});
