/**
 * Pages declared like routes (lib/wp/pages.ts): answered as declared, with an ETag that lets a
 * client polling an unchanged page get a 304 without the body, and a way to leave a request alone.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { SampleOracle, openSampleOracle } from '../../harness/sample-routes';

describe('declared pages', function () {
  let oracle: SampleOracle;
  before(async () => { oracle = await openSampleOracle(); });
  after(async () => { await oracle.close(); });

  it('answers with the declared headers and body, and a strong ETag', async () => {
    const res = await request(oracle.app).get('/test/page/a?text=hello');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'text/plain; charset=UTF-8');
    assert.equal(res.text, 'a: hello\n');
    assert.match(res.headers.etag, /^"[\w-]{27}"$/);
  });

  it('answers 304 without a body while the page is unchanged, and 200 once it changes', async () => {
    const first = await request(oracle.app).get('/test/page/a?text=one');
    const same = await request(oracle.app).get('/test/page/a?text=one').set('If-None-Match', `W/"x", ${first.headers.etag}`);
    assert.equal(same.status, 304);
    assert.equal(same.text, '');
    assert.equal(same.headers.etag, first.headers.etag);
    const changed = await request(oracle.app).get('/test/page/a?text=two').set('If-None-Match', first.headers.etag);
    assert.equal(changed.status, 200);
    assert.equal(changed.text, 'a: two\n');
  });

  it('answers HEAD with the headers only', async () => {
    const res = await request(oracle.app).head('/test/page/b?text=x');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-length'], String(Buffer.byteLength('b: x\n')));
    assert.equal(res.text, undefined);
  });

  it('leaves a request the page declines to the 404', async () => {
    const res = await request(oracle.app).get('/test/page/a?none');
    assert.equal(res.status, 404);
  });
});
