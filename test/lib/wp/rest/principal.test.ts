/**
 * Callers that are not WordPress users (lib/wp/rest/route.ts `principal`) and endpoints that only
 * browsers on listed origins may call (`origins`): the credential is checked at the permission
 * stage, the handler gets the caller, and CORS names exactly the listed origin.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { KEYED_LIMITS, SampleOracle, openSampleOracle } from '../../../harness/sample-routes';
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

  it('varies on Origin in every answer of a gated route, even without an Origin header', async () => {
    const answers = [
      await call('shop'), // 401 from the principal stage
      await call('shop').set('X-Test-Key', 'key-shop'),
      await request(oracle.app).delete('/wp-json/test/v1/gated/shop'), // no endpoint for the method: 404
      await request(oracle.app).post('/wp-json/test/v1/keyed/shop').send({ n: 'many' }), // 400 from the args
      await request(oracle.app).post('/wp-json/test/v1/keyed/shop').send({ pad: 'x'.repeat(KEYED_LIMITS.withoutKey) }), // 413
    ];
    assert.deepEqual(answers.map((r) => r.status), [401, 200, 404, 400, 413]);
    for (const res of answers) {
      assert.equal(res.headers.vary, 'Origin', `${res.status}`);
      assert.equal(res.headers['access-control-allow-origin'], undefined);
    }
  });

  it('names a listed origin, and never an unlisted one, in errors before the origin stage', async () => {
    const bad = (origin: string) => request(oracle.app).post('/wp-json/test/v1/keyed/shop').set('Origin', origin).send({ n: 'many' });
    const listed = await bad('https://shop.example');
    assertRestError(listed, 400, 'rest_invalid_param');
    assert.equal(listed.headers['access-control-allow-origin'], 'https://shop.example');
    const unlisted = await bad('https://evil.example');
    assertRestError(unlisted, 400, 'rest_invalid_param');
    assert.equal(unlisted.headers['access-control-allow-origin'], undefined);
    assert.equal(unlisted.headers['access-control-allow-credentials'], undefined);
    const tooLarge = await request(oracle.app).post('/wp-json/test/v1/keyed/shop').set('Origin', 'https://evil.example')
      .send({ pad: 'x'.repeat(KEYED_LIMITS.withoutKey) });
    assert.equal(tooLarge.status, 413);
    assert.equal(tooLarge.headers['access-control-allow-origin'], undefined);
    assert.equal(tooLarge.headers.vary, 'Origin');
  });

  it('sends no Access-Control-Allow-Credentials for an endpoint that declares corsCredentials false, preflight included', async () => {
    const res = await request(oracle.app).post('/wp-json/test/v1/keyed/shop').set('Origin', 'https://shop.example').send({ n: 1 });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.caller, { site: 'browser' });
    assert.equal(res.headers['access-control-allow-origin'], 'https://shop.example');
    assert.equal(res.headers['access-control-allow-credentials'], undefined);
    assert.equal(res.headers.vary, 'Origin');
    const preflight = await request(oracle.app).options('/wp-json/test/v1/keyed/shop')
      .set('Origin', 'https://shop.example').set('Access-Control-Request-Method', 'POST');
    assert.equal(preflight.headers['access-control-allow-origin'], 'https://shop.example');
    assert.equal(preflight.headers['access-control-allow-credentials'], undefined);
    assert.equal(preflight.headers.vary, 'Origin');
    const elsewhere = await request(oracle.app).options('/wp-json/test/v1/keyed/shop')
      .set('Origin', 'https://evil.example').set('Access-Control-Request-Method', 'POST');
    assert.equal(elsewhere.headers['access-control-allow-origin'], undefined);
    assert.equal(elsewhere.headers.vary, 'Origin');
  });

  it('decides the body limit from the request head: a credential header raises it, a bad credential still gets 401', async () => {
    const body = { pad: 'x'.repeat(4 * 1024) };
    assert.equal((await request(oracle.app).post('/wp-json/test/v1/keyed/shop').send(body)).status, 413);
    const keyed = await request(oracle.app).post('/wp-json/test/v1/keyed/shop').set('X-Test-Key', 'key-shop').send(body);
    assert.equal(keyed.status, 200, keyed.text);
    assert.deepEqual(keyed.body.caller, { site: 'shop' });
    assertRestError(await request(oracle.app).post('/wp-json/test/v1/keyed/shop').set('X-Test-Key', 'wrong').send(body), 401, 'test_bad_key');
    const huge = await request(oracle.app).post('/wp-json/test/v1/keyed/shop').set('X-Test-Key', 'key-shop').send({ pad: 'x'.repeat(KEYED_LIMITS.withKey) });
    assertRestError(huge, 413, 'rest_payload_too_large');
    assert.equal(huge.body.data.max_bytes, KEYED_LIMITS.withKey);
  });

  it('keeps WordPress\'s rule (any origin echoed) on endpoints that list none', async () => {
    const res = await request(oracle.app).get('/wp-json/test/v1/things').set('Origin', 'https://anywhere.example');
    assert.equal(res.headers['access-control-allow-origin'], 'https://anywhere.example');
  });
});
