/**
 * The proxy reads a form POST to WordPress's front controller to find a `rest_route` in its body; the
 * bytes it reads count against the process's body memory (lib/wp/http/body-memory.ts). A body the
 * budget has no room for is not read further: it streams to the PHP site as it is, whole, and the
 * room comes back once it is answered. The budget is set small here.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { buildSurface } from '../../../lib/app';
import { memoryLogger } from '../../../lib/logger';
import { SHADOW_DEFAULTS } from '../../../lib/proxy/routing';
import { Proxy, createProxy } from '../../../lib/proxy/server';
import { compileRules } from '../../../lib/replay/rules';
import { DEFAULT_BODY_MEMORY_BYTES, bodyMemory } from '../../../lib/wp/http/body-memory';
import { eventually } from '../../harness/eventually';
import { Listening, listen } from '../../harness/http';

const BUDGET = 256 * 1024;
const DECLARED = 1024 * 1024;
const SENT_FIRST = 512 * 1024;

interface Upload {
  /** Sends the rest of the body; the upstream's answer. */
  finish(): Promise<{ status: number; body: string }>;
  body: string;
}

/** A form POST to `/` from `from` declaring DECLARED bytes, of which SENT_FIRST are sent before it holds on. */
function upload(port: number, from: string, n: number): Promise<Upload> {
  const head = `n=${n}&a=`;
  const body = head + 'x'.repeat(DECLARED - head.length);
  return new Promise((resolve, reject) => {
    let answered: (answer: { status: number; body: string }) => void = () => {};
    const answer = new Promise<{ status: number; body: string }>((done) => { answered = done; });
    const req = http.request({
      host: '127.0.0.1', port, method: 'POST', path: '/', agent: false, localAddress: from,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': String(DECLARED), 'X-Upload': String(n) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => answered({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.write(body.slice(0, SENT_FIRST), () => resolve({ body, finish: () => { req.end(body.slice(SENT_FIRST)); return answer; } }));
  });
}

describe('proxy: form bodies read for rest_route within the body memory', () => {
  let upstream: Listening;
  let front: Listening;
  let proxy: Proxy;
  /** Bytes of each upload (X-Upload) the upstream has received so far. */
  const received = new Map<string, number>();

  before(async () => {
    bodyMemory.setLimit(BUDGET);
    upstream = await listen((req, res) => {
      const n = String(req.headers['x-upload']);
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => {
        chunks.push(c);
        received.set(n, (received.get(n) ?? 0) + c.length);
      });
      req.on('end', () => res.end(Buffer.concat(chunks)));
    });
    proxy = createProxy({
      upstream: upstream.url, understudy: (_req, res) => res.end('understudy'), surface: buildSurface(), logger: memoryLogger(),
      rules: compileRules({}), routing: { shadow: SHADOW_DEFAULTS, decide: (target) => (target.kind === 'rest' ? 'serve' : 'pass') },
    });
    front = await listen(proxy.handler);
  });
  after(async () => {
    bodyMemory.setLimit(DEFAULT_BODY_MEMORY_BYTES);
    await front.close();
    await proxy.close(0);
    await upstream.close();
  });

  it('streams concurrent large form POSTs to the PHP site whole once the budget is full, and gives the room back', async () => {
    const uploads = await Promise.all(['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6'].map((from, i) => upload(Number(new URL(front.url).port), from, i + 1)));
    // Each body's first half is already at the PHP site while its client still holds the rest.
    await eventually(async () => uploads.every((_, i) => received.get(String(i + 1)) === SENT_FIRST), 5000);
    assert.ok(bodyMemory.bytesHeld <= BUDGET, `held ${bodyMemory.bytesHeld} bytes`);
    for (const up of uploads) {
      const answer = await up.finish();
      assert.equal(answer.status, 200);
      assert.ok(answer.body === up.body, 'the PHP site got the body whole, byte for byte');
    }
    await eventually(async () => bodyMemory.bytesHeld === 0, 5000);
  });
});
