/** Request logs: pino's JSON line, or the same record as one readable line for a terminal. */
import assert from 'node:assert/strict';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { memoryLogger } from '../../../lib/logger';
import { frontDoor } from '../../../lib/observability/front-door';
import { Health } from '../../../lib/observability/health';
import { RequestRecord, createRequestLogger } from '../../../lib/observability/request-log';
import { NO_TRUSTED_PROXIES } from '../../../lib/wp/http/trusted-proxies';

function sink(): Writable & { text(): string } {
  let out = '';
  const stream = new Writable({ write(chunk: Buffer, _e, done) { out += chunk.toString(); done(); } });
  return Object.assign(stream, { text: () => out });
}

const record = {
  request_id: 'r-1', method: 'GET', route: '/support/v1/tickets/{id}', path: '/wp-json/support/v1/tickets/7',
  status: 200, duration_ms: 4.2, user_id: 3, ip: '203.0.113.9',
};

describe('request log', () => {
  it('writes one JSON line per request (level 30, or 50 for a 5xx)', async () => {
    const out = sink();
    const log = createRequestLogger(out, 'json');
    log(record);
    log({ ...record, status: 503 });
    await new Promise((resolve) => setImmediate(resolve));
    const lines = out.text().trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(lines.length, 2);
    assert.deepEqual({ ...lines[0], time: undefined, pid: undefined }, { ...record, level: 30, msg: 'request', time: undefined, pid: undefined });
    assert.equal(lines[1].level, 50);
  });

  it('writes the same record as one readable line for a terminal', async () => {
    const out = sink();
    createRequestLogger(out, 'pretty')({ ...record, aborted: true });
    await new Promise((resolve) => setImmediate(resolve));
    assert.match(out.text(), /^\d\d:\d\d:\d\d\.\d{3} INFO  GET \/wp-json\/support\/v1\/tickets\/7 200 4\.2ms \/support\/v1\/tickets\/\{id\} user=3 ip=203\.0\.113\.9 id=r-1 \(aborted\)\n$/);
  });

  it('logs the 503 answered while the site opens as a warning (level 40), not an error', async () => {
    const out = sink();
    const log = createRequestLogger(out, 'json');
    const seen: RequestRecord[] = [];
    const door = frontDoor({ trustedProxies: NO_TRUSTED_PROXIES, health: new Health(memoryLogger()), log: Object.assign((r: RequestRecord) => { seen.push(r); log(r); }, { flush: log.flush }) }, () => null);
    const server = http.createServer(door).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/wp-json/`);
      assert.equal(res.status, 503);
      await res.text();
      while (!seen.length) await new Promise((resolve) => setTimeout(resolve, 5));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    await log.flush();
    const [line] = out.text().trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(line.status, 503);
    assert.equal(line.starting, true);
    assert.equal(line.level, 40);
  });

  it("logs a health check's 503 (not ready yet, by design) as a warning, and any other route's 503 as an error", async () => {
    const out = sink();
    const log = createRequestLogger(out, 'json');
    log({ ...record, route: '/-/health/ready', path: '/-/health/ready', status: 503 });
    log({ ...record, status: 503 });
    await log.flush();
    assert.deepEqual(out.text().trim().split('\n').map((l) => JSON.parse(l).level), [40, 50]);
  });
});
