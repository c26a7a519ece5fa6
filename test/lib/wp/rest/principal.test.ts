/**
 * Callers that are not WordPress users (lib/wp/rest/route.ts `principal`) and endpoints that only
 * browsers on listed origins may call (`origins`): the credential is checked at the permission
 * stage, the handler gets the caller, and CORS names exactly the listed origin.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { SampleOracle, openSampleOracle } from '../../../harness/sample-routes';
import { assertRestError } from '../../../harness/wp-http';

describe('principals and listed origins', function () {
  let oracle: SampleOracle;
  before(async () => { oracle = await openSampleOracle(); });
  after(async () => { await oracle.close(); });

  const call = (site: string) => request(oracle.app).get(`/wp-json/test/v1/gated/${site}`);

  it('hands the handler the caller its credential identifies', async () => {
    const res = await call('shop').set('X-Test-Key', 'key-shop');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { caller: { site: 'shop' } });
  });

  it('refuses a bad credential with the resolver\'s error, before the permission check', async () => {
    assertRestError(await call('shop').set('X-Test-Key', 'key-other'), 401, 'test_bad_key', 'The site key is not valid.');
    assertRestError(await call('shop'), 401, 'test_bad_key');
  });

  it('lets the permission check decide over the identified caller', async () => {
    assertRestError(await call('closed').set('X-Test-Key', 'key-closed'), 401, 'rest_forbidden');
  });

  it('names exactly a listed origin in CORS, varying on Origin', async () => {
    const res = await call('shop').set('X-Test-Key', 'key-shop').set('Origin', 'https://shop.example');
    assert.equal(res.status, 200);
    assert.equal(res.headers['access-control-allow-origin'], 'https://shop.example');
    assert.equal(res.headers['access-control-allow-credentials'], 'true');
    assert.equal(res.headers.vary, 'Origin');
  });

  it('refuses a browser on an unlisted origin, naming no origin in CORS', async () => {
    for (const origin of ['https://evil.example', 'https://shop.example.evil.test', 'http://shop.example']) {
      const res = await call('shop').set('X-Test-Key', 'key-shop').set('Origin', origin);
      assertRestError(res, 403, 'rest_origin_not_allowed', 'Requests from this address are not allowed.');
      assert.equal(res.headers['access-control-allow-origin'], undefined, origin);
      assert.equal(res.headers.vary, 'Origin');
    }
  });

  it('answers a preflight from a listed origin with CORS, and one from elsewhere without', async () => {
    const listed = await request(oracle.app).options('/wp-json/test/v1/gated/shop')
      .set('Origin', 'https://shop.example').set('Access-Control-Request-Method', 'POST');
    assert.equal(listed.headers['access-control-allow-origin'], 'https://shop.example');
    const other = await request(oracle.app).options('/wp-json/test/v1/gated/shop')
      .set('Origin', 'https://evil.example').set('Access-Control-Request-Method', 'POST');
    assert.equal(other.headers['access-control-allow-origin'], undefined);
  });

  it('keeps WordPress\'s rule (any origin echoed) on endpoints that list none', async () => {
    const res = await request(oracle.app).get('/wp-json/test/v1/things').set('Origin', 'https://anywhere.example');
    assert.equal(res.headers['access-control-allow-origin'], 'https://anywhere.example');
  });
});
