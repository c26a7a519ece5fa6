/**
 * Request bodies larger than a route accepts are refused with 413 before they are read in full: a
 * declared Content-Length over the limit is answered at once, and a chunked body is cut off as soon
 * as it grows past the limit. Proved with raw HTTP requests that never send the whole body.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import request from 'supertest';
import { servedSampleOracle } from '../../../harness/sample-routes';
import { rawRequest } from '../../../harness/wp-http';
import { postUntilAnswered } from '../../../harness/unread-body';

const LIMIT = 64 * 1024;
const DEFAULT_LIMIT = 8 * 1024 * 1024;

describe('REST request body limits', function () {
  const served = servedSampleOracle();

  it('answers 413 to a declared Content-Length over the limit after reading only a few bytes', async () => {
    const res = await postUntilAnswered(served.port, '/wp-json/test/v1/upload', { declared: 10 * 1024 * 1024, chunk: 10, maxWrite: 10 });
    assert.equal(res.status, 413);
    assert.equal(res.written, 10, 'the client never sent more than ten bytes');
    assert.equal(res.headers.connection, 'close');
    assert.equal(res.headers['content-type'], 'application/json; charset=UTF-8');
    assert.deepEqual(JSON.parse(res.body), {
      code: 'rest_payload_too_large',
      message: `The request body is larger than this endpoint accepts (${LIMIT} bytes).`,
      data: { status: 413, max_bytes: LIMIT },
    });
  });

  it('cuts off a chunked body as soon as it grows past the limit', async () => {
    const res = await postUntilAnswered(served.port, '/wp-json/test/v1/upload', { chunk: 8 * 1024, maxWrite: 4 * 1024 * 1024 });
    assert.equal(res.status, 413);
    assert.equal(JSON.parse(res.body).code, 'rest_payload_too_large');
    assert.ok(res.written > LIMIT, `wrote ${res.written}`);
    assert.ok(res.written < 1024 * 1024, `answered long before the 4 MiB were sent (wrote ${res.written})`);
  });

  it('accepts a body of exactly the limit and refuses one byte more', async () => {
    const exact = await rawRequest(served.port, 'POST', '/wp-json/test/v1/upload', { 'Content-Type': 'application/x-www-form-urlencoded' }, `a=${'b'.repeat(LIMIT - 2)}`);
    assert.equal(exact.status, 200, exact.body);
    assert.deepEqual(JSON.parse(exact.body), { fields: 1, files: [] });
    const over = await rawRequest(served.port, 'POST', '/wp-json/test/v1/upload', { 'Content-Type': 'application/x-www-form-urlencoded' }, `a=${'b'.repeat(LIMIT - 1)}`);
    assert.equal(over.status, 413);
    assert.equal(over.statusMessage, 'Request Entity Too Large');
  });

  it('takes multipart files within the limit', async () => {
    const res = await request(served.oracle.app).post('/wp-json/test/v1/upload').field('note', 'hi').attach('file', Buffer.alloc(1000, 1), 'a.bin');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { fields: 1, files: [1000] });
  });

  it('applies the 8 MiB default to routes that declare no limit, before authentication', async () => {
    const res = await postUntilAnswered(served.port, '/wp-json/test/v1/echo/x', {
      declared: DEFAULT_LIMIT + 1, chunk: 100, maxWrite: 100, headers: { 'X-WP-Nonce': 'deadbeef00' },
    });
    assert.equal(res.status, 413);
    assert.deepEqual(JSON.parse(res.body).data, { status: 413, max_bytes: DEFAULT_LIMIT });
  });

  it('neither answers nor logs a failure when the client hangs up in the middle of its body', async () => {
    const errors = () => served.oracle.logger.lines.filter((l) => l.level === 'error').length;
    const before = errors();
    for (const path of ['/wp-json/test/v1/upload', '/wp-admin/admin-ajax.php?action=test_small']) {
      await new Promise<void>((resolve) => {
        const req = http.request({ host: '127.0.0.1', port: served.port, method: 'POST', path, headers: { 'Content-Length': '1000' } });
        req.on('error', () => resolve());
        req.on('response', () => assert.fail(`${path}: no answer expected`));
        req.write('abc', () => setTimeout(() => { req.destroy(); setTimeout(resolve, 100); }, 50));
      });
    }
    assert.equal(errors(), before, JSON.stringify(served.oracle.logger.lines.slice(-2)));
  });

  it('refuses an admin-ajax body over its action\'s limit with 413 and 0', async () => {
    const res = await postUntilAnswered(served.port, '/wp-admin/admin-ajax.php?action=test_small', { declared: 4096, chunk: 10, maxWrite: 10 });
    assert.equal(res.status, 413);
    assert.equal(res.body, '0');
    assert.equal(res.headers['content-type'], 'text/html; charset=UTF-8');
    const small = await rawRequest(served.port, 'POST', '/wp-admin/admin-ajax.php?action=test_small', { 'Content-Type': 'application/x-www-form-urlencoded' }, `data=${'x'.repeat(500)}`);
    assert.equal(small.status, 200);
    assert.equal(small.body, 'got 500');
  });
});
