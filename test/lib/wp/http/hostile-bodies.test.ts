/**
 * Requests an attacker sends before signing in: broken multipart bodies, names nested thousands of
 * levels deep, thousands of variables. Each is answered in the caller's shape, the server stays up,
 * and what PHP would keep is kept.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { eventually } from '../../../harness/eventually';
import { servedSampleOracle } from '../../../harness/sample-routes';
import { rawRequest } from '../../../harness/wp-http';

const TRUNCATED = '--XX\r\nContent-Disposition: form-data; name="note"\r\n\r\nhi\r\n'
  + '--XX\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\nhello';
const MULTIPART = { 'Content-Type': 'multipart/form-data; boundary=XX' };
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

const nested = (levels: number) => `a${'[a]'.repeat(levels)}=1`;
const uploadsLeft = () => fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('understudy-upload-')).length;

/** A chunked POST (no Content-Length) of `total` bytes; resolves with the answer. */
function postChunked(port: number, path: string, total: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path, headers: FORM }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', (err) => reject(err));
    let written = 0;
    const pump = () => {
      if (written >= total || req.destroyed) return void req.end();
      written += 64 * 1024;
      req.write(Buffer.alloc(64 * 1024, 0x61), pump);
    };
    pump();
  });
}

describe('hostile request bodies', function () {
  const served = servedSampleOracle();

  const stillServing = async () => {
    const res = await rawRequest(served.port, 'GET', '/wp-json/test/v1/things');
    assert.equal(res.status, 200, 'the server still answers');
  };

  describe('a multipart body that ends inside a file part', () => {
    it('answers a REST route with a WordPress JSON 400 and keeps serving', async () => {
      const res = await rawRequest(served.port, 'POST', '/wp-json/', MULTIPART, TRUNCATED);
      assert.equal(res.status, 400);
      assert.equal(res.headers['content-type'], 'application/json; charset=UTF-8');
      assert.deepEqual(JSON.parse(res.body), { code: 'rest_invalid_multipart', message: 'The multipart body could not be read.', data: { status: 400 } });
      await stillServing();
    });

    it('gives admin-ajax the fields that were complete, as PHP does, and drops the cut-off file', async () => {
      const body = TRUNCATED.replace('name="note"\r\n\r\nhi', 'name="action"\r\n\r\ntest_echo');
      const res = await rawRequest(served.port, 'POST', '/wp-admin/admin-ajax.php', MULTIPART, body);
      assert.equal(res.status, 200, res.body);
      assert.deepEqual(JSON.parse(res.body).data.params, { action: 'test_echo' });
      await stillServing();
    });

    it('leaves no temporary file behind, whole or cut off', async () => {
      const before = uploadsLeft();
      await rawRequest(served.port, 'POST', '/wp-json/test/v1/upload', MULTIPART, TRUNCATED);
      const whole = `${TRUNCATED}\r\n--XX--\r\n`;
      const ok = await rawRequest(served.port, 'POST', '/wp-json/test/v1/upload', MULTIPART, whole);
      assert.deepEqual(JSON.parse(ok.body), { fields: 1, files: [5] });
      // Removed once the answer has gone out.
      await eventually(async () => uploadsLeft() === before, 2000);
    });

    it('skips a field named "" or not named at all instead of failing with a 500 (found by fuzzing)', async () => {
      const unnamed = '--XX\r\nContent-Disposition: form-data; name=""\r\n\r\nempty name\r\n'
        + '--XX\r\nContent-Disposition: form-data\r\n\r\nno name\r\n'
        + '--XX\r\nContent-Disposition: form-data; filename="a.txt"\r\n\r\nfile without a name\r\n'
        + '--XX\r\nContent-Disposition: form-data; name="b"\r\n\r\n2\r\n--XX--\r\n';
      const rest = await rawRequest(served.port, 'POST', '/wp-json/test/v1/echo/x', MULTIPART, unnamed);
      assert.equal(rest.status, 200, rest.body);
      assert.deepEqual(JSON.parse(rest.body).params, { b: '2', slot: 'x' });
      const ajax = await rawRequest(served.port, 'POST', '/wp-admin/admin-ajax.php?action=test_echo', MULTIPART, unnamed);
      assert.equal(ajax.status, 200, ajax.body);
      assert.deepEqual(JSON.parse(ajax.body).data.params, { action: 'test_echo', b: '2' });
      const upload = await rawRequest(served.port, 'POST', '/wp-json/test/v1/upload', MULTIPART, unnamed);
      assert.deepEqual(JSON.parse(upload.body), { fields: 1, files: [19] });
    });

    it('answers a multipart type without a boundary as PHP does: no fields', async () => {
      const res = await rawRequest(served.port, 'POST', '/wp-admin/admin-ajax.php?action=test_echo', { 'Content-Type': 'multipart/form-data' }, 'action=x&y=1');
      assert.equal(res.status, 200, res.body);
      assert.deepEqual(JSON.parse(res.body).data.params, { action: 'test_echo' });
    });
  });

  describe('names nested past max_input_nesting_level (64)', () => {
    it('drops a 100,000-level name from a form body and keeps the other fields', async () => {
      const res = await rawRequest(served.port, 'POST', '/wp-admin/admin-ajax.php', FORM, `action=test_echo&${nested(100_000)}&b=2`);
      assert.equal(res.status, 200, res.body.slice(0, 200));
      assert.deepEqual(JSON.parse(res.body).data.params, { action: 'test_echo', b: '2' });
      await stillServing();
    });

    it('answers a 10,000-level REST body and a 3,000-level URL in the REST shape, never a 500', async () => {
      const body = await rawRequest(served.port, 'POST', '/wp-json/test/v1/echo/x', FORM, `${nested(10_000)}&b=2`);
      assert.notEqual(body.status, 500, body.body.slice(0, 200));
      const url = await rawRequest(served.port, 'GET', `/wp-json/test/v1/things?${nested(3_000)}`);
      assert.equal(url.status, 200);
      assert.equal(url.headers['content-type'], 'application/json; charset=UTF-8');
      const routed = await rawRequest(served.port, 'GET', `/?rest_route=/test/v1/things&${nested(3_000)}`);
      assert.equal(routed.status, 200);
    });

    it('keeps a name of exactly 64 levels', async () => {
      const res = await rawRequest(served.port, 'POST', '/wp-admin/admin-ajax.php', FORM, `action=test_echo&${nested(64)}`);
      let value = JSON.parse(res.body).data.params.a;
      for (let i = 0; i < 64; i++) value = value.a;
      assert.equal(value, '1');
    });
  });

  it('keeps the first 1,000 query variables, as $_GET does', async () => {
    const query = Array.from({ length: 1500 }, (_, i) => `v${i}=${i}`).join('&');
    const res = await rawRequest(served.port, 'GET', `/wp-admin/admin-ajax.php?action=test_echo&${query}`);
    const params = JSON.parse(res.body).data.params;
    assert.equal(Object.keys(params).length, 1000);
    assert.equal(params.v998, '998');
    assert.equal(params.v999, undefined);
  });

  it('answers a chunked admin-ajax body past the limit with 413, whether or not the query names the action', async () => {
    const named = await postChunked(served.port, '/wp-admin/admin-ajax.php?action=test_small', 256 * 1024);
    assert.deepEqual(named, { status: 413, body: '0' });
    const unnamed = await postChunked(served.port, '/wp-admin/admin-ajax.php', 9 * 1024 * 1024);
    assert.deepEqual(unnamed, { status: 413, body: '0' });
  });
});
