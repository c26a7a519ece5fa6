/**
 * The process's budget for request bodies held in memory (lib/wp/http/body-memory.ts): past it a
 * request is refused with a WordPress-shaped 503 and Retry-After before its body is read, whatever
 * its own route allows; the room comes back when the requests holding it are answered. Bytes count as
 * they arrive, and each address may hold a quarter of the budget. Multipart files go to disk and take
 * no room. The budget is set small here; bodies are held open by clients (each loopback address
 * another visitor) that send part of what they declared.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { DEFAULT_BODY_MEMORY_BYTES, bodyMemory } from '../../../../lib/wp/http/body-memory';
import { eventually } from '../../../harness/eventually';
import { servedSampleOracle } from '../../../harness/sample-routes';
import { postUntilAnswered } from '../../../harness/unread-body';
import { rawRequest } from '../../../harness/wp-http';

const BUDGET = 1024 * 1024;
/** What one address may hold: a quarter of the budget. */
const SHARE = BUDGET / 4;
const ECHO = '/wp-json/test/v1/echo/x';
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

interface HeldBody {
  /** Sends the rest of the body; the answer's status. */
  finish(): Promise<number>;
  destroy(): void;
}

/** A POST from `from` declaring `declared` bytes that sends `sent` of them (0: only its head) and holds on. */
function heldBody(port: number, path: string, declared: number, sent: number, from = '127.0.0.1'): Promise<HeldBody> {
  return new Promise((resolve, reject) => {
    let answered: (status: number) => void = () => {};
    const status = new Promise<number>((done) => { answered = done; });
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path, agent: false, localAddress: from, headers: { ...FORM, 'Content-Length': String(declared) } }, (res) => {
      res.resume();
      res.on('end', () => answered(res.statusCode ?? 0));
    });
    req.on('error', reject);
    const held: HeldBody = {
      finish: () => {
        req.end('b'.repeat(declared - sent));
        return status;
      },
      destroy: () => req.destroy(),
    };
    // With nothing to send, the empty write sends the head alone.
    req.write(sent === 0 ? '' : `a=${'b'.repeat(sent - 2)}`, () => resolve(held));
  });
}

/** A whole 16-byte POST from `from`: its status. */
async function smallPost(port: number, from: string): Promise<number> {
  const res = await postUntilAnswered(port, ECHO, { declared: 16, chunk: 16, maxWrite: 16, localAddress: from });
  return res.status;
}

/** Four addresses holding 250 KiB each: 1000 KiB of the 1 MiB budget, no address past its share. */
async function fillBudget(port: number): Promise<HeldBody[]> {
  const held = await Promise.all(['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'].map((from) => heldBody(port, ECHO, SHARE, 250 * 1024, from)));
  await eventually(async () => bodyMemory.bytesHeld === 1000 * 1024, 5000);
  return held;
}

async function finishAll(held: HeldBody[]): Promise<void> {
  for (const body of held) assert.equal(await body.finish(), 200);
  await eventually(async () => bodyMemory.bytesHeld === 0, 5000);
}

describe('the body memory budget', function () {
  const served = servedSampleOracle();
  before(() => bodyMemory.setLimit(BUDGET));
  after(() => bodyMemory.setLimit(DEFAULT_BODY_MEMORY_BYTES));

  it('refuses a body the budget has no room for with 503 and Retry-After, before reading it, then takes it once room is back', async () => {
    const held = await fillBudget(served.port);
    const refused = await postUntilAnswered(served.port, ECHO, { declared: 100 * 1024, chunk: 10, maxWrite: 10 });
    assert.equal(refused.status, 503);
    assert.equal(refused.written, 10, 'answered before the body was sent');
    assert.equal(refused.headers['retry-after'], '5');
    assert.equal(refused.headers.connection, 'close');
    assert.deepEqual(JSON.parse(refused.body), {
      code: 'rest_server_busy', message: 'The server is busy. Try again in 5 seconds.', data: { status: 503, retry_after: 5 },
    });
    // A small body still fits beside the held ones.
    assert.equal((await rawRequest(served.port, 'POST', ECHO, FORM, 'n=1')).status, 200);
    await finishAll(held);
    const later = await rawRequest(served.port, 'POST', ECHO, FORM, `a=${'b'.repeat(200 * 1024)}`);
    assert.equal(later.status, 200, 'the room came back when the first answers went');
  });

  it('cuts off a chunked body when it grows past the room left', async () => {
    const held = await fillBudget(served.port);
    const res = await postUntilAnswered(served.port, ECHO, { chunk: 16 * 1024, maxWrite: 4 * 1024 * 1024 });
    assert.equal(res.status, 503);
    assert.equal(JSON.parse(res.body).code, 'rest_server_busy');
    assert.ok(res.written < 2 * 1024 * 1024, `answered long before the 4 MiB were sent (wrote ${res.written})`);
    await finishAll(held);
  });

  it('answers admin-ajax with 503 and Retry-After too', async () => {
    const held = await fillBudget(served.port);
    const res = await postUntilAnswered(served.port, '/wp-admin/admin-ajax.php?action=test_echo', { declared: 100 * 1024, chunk: 10, maxWrite: 10 });
    assert.equal(res.status, 503);
    assert.equal(res.headers['retry-after'], '5');
    assert.equal(res.body, 'The server is busy. Try again in 5 seconds.');
    await finishAll(held);
  });

  it('holds nothing for a declared body until its bytes arrive: idle connections declaring large bodies leave room for everyone', async () => {
    // One address opens eight connections, each declaring its whole share, and sends no body.
    const idle = await Promise.all(Array.from({ length: 8 }, () => heldBody(served.port, ECHO, SHARE, 0, '127.0.0.2')));
    assert.equal(await smallPost(served.port, '127.0.0.3'), 200, 'another visitor\'s small POST is answered');
    assert.equal(bodyMemory.bytesHeld, 0);
    for (const body of idle) body.destroy();
  });

  it('holds each address to a quarter of the budget: past its share only that address is refused', async () => {
    const holding = await heldBody(served.port, ECHO, SHARE, SHARE - 10 * 1024, '127.0.0.2');
    await eventually(async () => bodyMemory.bytesHeld === SHARE - 10 * 1024, 5000);
    const refused = await postUntilAnswered(served.port, ECHO, { declared: 100 * 1024, chunk: 10, maxWrite: 10, localAddress: '127.0.0.2' });
    assert.equal(refused.status, 503);
    assert.equal(JSON.parse(refused.body).code, 'rest_server_busy');
    // A chunked body growing past the share is cut off on the way.
    const growing = await postUntilAnswered(served.port, ECHO, { chunk: 4 * 1024, maxWrite: 200 * 1024, localAddress: '127.0.0.2' });
    assert.equal(growing.status, 503);
    assert.ok(growing.written < 100 * 1024, `answered before 100 KiB were sent (wrote ${growing.written})`);
    // Another address sends the same 100 KiB whole, and so does the first once its body is answered.
    const other = await heldBody(served.port, ECHO, 100 * 1024, 50 * 1024, '127.0.0.3');
    assert.equal(await other.finish(), 200);
    assert.equal(await holding.finish(), 200);
    assert.equal(await smallPost(served.port, '127.0.0.2'), 200);
    await eventually(async () => bodyMemory.bytesHeld === 0, 5000);
  });

  it('counts no multipart file, which goes to disk: a 2 MiB upload passes a 1 MiB budget', async () => {
    const boundary = 'XX';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="big.bin"\r\n\r\n`),
      Buffer.alloc(2 * 1024 * 1024, 1),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await rawRequest(served.port, 'POST', ECHO, { 'Content-Type': `multipart/form-data; boundary=${boundary}` }, body);
    assert.equal(res.status, 200, res.body);
    await eventually(async () => bodyMemory.bytesHeld === 0, 5000);
  });
});
