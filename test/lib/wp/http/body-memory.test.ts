/**
 * The process's budget for request bodies held in memory (lib/wp/http/body-memory.ts): past it a
 * request is refused with a WordPress-shaped 503 and Retry-After before its body is read, whatever
 * its own route allows; the room comes back when the requests holding it are answered. Multipart
 * files go to disk and take no room. The budget is set small here; bodies are held open by clients
 * that send part of what they declared.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { DEFAULT_BODY_MEMORY_BYTES, bodyMemory } from '../../../../lib/wp/http/body-memory';
import { eventually } from '../../../harness/eventually';
import { servedSampleOracle } from '../../../harness/sample-routes';
import { postUntilAnswered } from '../../../harness/unread-body';
import { rawRequest } from '../../../harness/wp-http';

const BUDGET = 1024 * 1024;
const ECHO = '/wp-json/test/v1/echo/x';

/** A POST declaring `declared` bytes that sends `sent` of them and holds on; `finish()` sends the rest. */
function heldBody(port: number, path: string, declared: number, sent: number): Promise<{ finish(): Promise<number> }> {
  return new Promise((resolve, reject) => {
    let answered: (status: number) => void = () => {};
    const status = new Promise<number>((done) => { answered = done; });
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path, agent: false, headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': String(declared) } }, (res) => {
      res.resume();
      res.on('end', () => answered(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.write(`a=${'b'.repeat(sent - 2)}`, () => resolve({
      finish: () => {
        req.end('b'.repeat(declared - sent));
        return status;
      },
    }));
  });
}

describe('the body memory budget', function () {
  const served = servedSampleOracle();
  before(() => bodyMemory.setLimit(BUDGET));
  after(() => bodyMemory.setLimit(DEFAULT_BODY_MEMORY_BYTES));

  it('refuses a body the budget has no room for with 503 and Retry-After, before reading it, then takes it once room is back', async () => {
    const held = await heldBody(served.port, ECHO, 700 * 1024, 300 * 1024);
    // The first body's declared size is held from its first byte on.
    await eventually(async () => bodyMemory.bytesHeld === 700 * 1024, 5000);
    const refused = await postUntilAnswered(served.port, ECHO, { declared: 400 * 1024, chunk: 10, maxWrite: 10 });
    assert.equal(refused.status, 503);
    assert.equal(refused.written, 10, 'answered before the body was sent');
    assert.equal(refused.headers['retry-after'], '5');
    assert.equal(refused.headers.connection, 'close');
    assert.deepEqual(JSON.parse(refused.body), {
      code: 'rest_server_busy', message: 'The server is busy. Try again in 5 seconds.', data: { status: 503, retry_after: 5 },
    });
    // A small body still fits beside the held one.
    assert.equal((await rawRequest(served.port, 'POST', ECHO, { 'Content-Type': 'application/x-www-form-urlencoded' }, 'n=1')).status, 200);
    assert.equal(await held.finish(), 200);
    await eventually(async () => bodyMemory.bytesHeld === 0, 5000);
    const later = await rawRequest(served.port, 'POST', ECHO, { 'Content-Type': 'application/x-www-form-urlencoded' }, `a=${'b'.repeat(400 * 1024)}`);
    assert.equal(later.status, 200, 'the room came back when the first answer went');
  });

  it('cuts off a chunked body when it grows past the room left', async () => {
    const held = await heldBody(served.port, ECHO, 700 * 1024, 100 * 1024);
    await eventually(async () => bodyMemory.bytesHeld === 700 * 1024, 5000);
    const res = await postUntilAnswered(served.port, ECHO, { chunk: 16 * 1024, maxWrite: 4 * 1024 * 1024 });
    assert.equal(res.status, 503);
    assert.equal(JSON.parse(res.body).code, 'rest_server_busy');
    assert.ok(res.written < 2 * 1024 * 1024, `answered long before the 4 MiB were sent (wrote ${res.written})`);
    assert.equal(await held.finish(), 200);
    await eventually(async () => bodyMemory.bytesHeld === 0, 5000);
  });

  it('answers admin-ajax with 503 and Retry-After too', async () => {
    const held = await heldBody(served.port, ECHO, 900 * 1024, 100 * 1024);
    await eventually(async () => bodyMemory.bytesHeld === 900 * 1024, 5000);
    const res = await postUntilAnswered(served.port, '/wp-admin/admin-ajax.php?action=test_echo', { declared: 200 * 1024, chunk: 10, maxWrite: 10 });
    assert.equal(res.status, 503);
    assert.equal(res.headers['retry-after'], '5');
    assert.equal(res.body, 'The server is busy. Try again in 5 seconds.');
    assert.equal(await held.finish(), 200);
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
