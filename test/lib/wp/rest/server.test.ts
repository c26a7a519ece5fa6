/**
 * The REST server's HTTP surface (WP_REST_Server::serve_request() and dispatch()), proved on the
 * test-only `test/v1` routes over the oracle site: entry points, matching, the error answers, the
 * dispatch order, method overrides, HEAD, and the headers WordPress sends with every answer.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { API, SampleOracle, authCookie, basicAuth, loggedInCookie, openSampleOracle, restNonce } from '../../../harness/sample-routes';
import {
  answerHeaders, assertCacheable, assertNoCache, assertRestError, assertRestHeaders, capturedHeaders, exchange, statusMessage,
} from '../../../harness/wp-http';
import { credentials } from '../../../harness/oracle';

const NO_ROUTE = 'No route was found matching the URL and request method.';
const FORBIDDEN = 'Sorry, you are not allowed to do that.';

describe('REST server: serve_request() and dispatch()', function () {
  let oracle: SampleOracle;
  before(async () => { oracle = await openSampleOracle(); });
  after(async () => { await oracle.close(); });
  const get = (url: string) => request(oracle.app).get(url);

  describe('entry points', () => {
    it('serves the same answer at /wp-json/<route>, /?rest_route=, /index.php?rest_route= and /index.php/wp-json/', async () => {
      const urls = [
        '/wp-json/test/v1/things?count=3',
        '/?rest_route=/test/v1/things&count=3',
        '/?rest_route=%2Ftest%2Fv1%2Fthings&count=3',
        '/index.php?rest_route=/test/v1/things&count=3',
        '/index.php/wp-json/test/v1/things?count=3',
        '/some/page/?count=3&rest_route=/test/v1/things',
      ];
      for (const url of urls) {
        const res = await get(url);
        assert.equal(res.status, 200, url);
        assertRestHeaders(res);
        assert.equal(res.body.count, 3, url);
        assert.equal(res.body.method, 'GET');
      }
    });

    it('tolerates a trailing slash and ignores the case of the route', async () => {
      for (const url of ['/wp-json/test/v1/things/', '/wp-json/test/v1/things//', '/?rest_route=/test/v1/things/', '/wp-json/TEST/V1/Things', '/wp-json/test/v1/THINGS/7/']) {
        const res = await get(url);
        assert.equal(res.status, 200, url);
      }
      const res = await get('/wp-json/Test/V1/things/0042');
      assert.deepEqual(res.body, { id: 42, url_id: '0042' });
    });

    it('lets ?rest_route= win over the /wp-json/ path', async () => {
      const res = await get('/wp-json/test/v1/nope?rest_route=/test/v1/things');
      assert.equal(res.status, 200);
      assert.equal(res.body.color, 'red');
    });

    it('answers 400 rest_path_invalid_type when rest_route is not a string', async () => {
      for (const url of ['/?rest_route[]=/test/v1/things', '/wp-json/test/v1/things?rest_route[a]=b']) {
        assertRestError(await get(url), 400, 'rest_path_invalid_type', 'The REST route parameter must be a string.');
      }
    });

    it('treats an empty rest_route (PHP empty()) as no REST request at all', async () => {
      for (const url of ['/?rest_route=', '/?rest_route=0', '/wp-json/test/v1/things?rest_route=']) {
        const res = await get(url);
        assert.equal(res.status, 404, url);
        assert.match(res.headers['content-type'], /^text\/plain/);
        assert.equal(res.headers['x-robots-tag'], undefined);
      }
    });

    it('leaves rest_route alone on admin-ajax.php', async () => {
      const res = await get('/wp-admin/admin-ajax.php?rest_route=/test/v1/things');
      assert.equal(res.status, 400);
      assert.equal(res.text, '0');
    });

    it('leaves rest_route alone under /wp-admin/, where WordPress shows the dashboard instead', async () => {
      for (const url of ['/wp-admin/?rest_route=/test/v1/things', '/wp-admin/network/?rest_route=/test/v1/things', '/wp-admin/admin-ajax.php/x?rest_route=/test/v1/things']) {
        const res = await get(url);
        assert.equal(res.status, 404, url);
        assert.match(res.text, /^Not found: Understudy serves/, url);
      }
    });
  });

  describe('matching', () => {
    it('answers 404 rest_no_route for an unknown route, with the headers WordPress sent', async () => {
      const res = await get('/wp-json/nope');
      const body = assertRestError(res, 404, 'rest_no_route', NO_ROUTE);
      assert.deepEqual(body, { code: 'rest_no_route', message: NO_ROUTE, data: { status: 404 } });
      assert.equal(res.text, exchange('GET /wp-json/nope').response.body);
      const want = capturedHeaders(exchange('GET /wp-json/nope'));
      const got = answerHeaders(res);
      want.link = `<${API}/>; rel="https://api.w.org/"`;
      assert.deepEqual(got, want);
    });

    it('answers 404 rest_no_route (never 405) for a method the route does not have', async () => {
      const res = await request(oracle.app).put('/wp-json/test/v1/things').set('Authorization', basicAuth('admin'));
      assertRestError(res, 404, 'rest_no_route', NO_ROUTE);
      assert.equal(res.headers.allow, undefined);
      assertRestError(await request(oracle.app).patch('/wp-json/test/v1/items'), 404, 'rest_no_route');
    });

    it('matches a URL parameter only against its pattern', async () => {
      assertRestError(await get('/wp-json/test/v1/things/abc'), 404, 'rest_no_route');
      assertRestError(await get('/wp-json/test/v1/things/1/2'), 404, 'rest_no_route');
    });
  });

  describe('errors', () => {
    it('answers a broken JSON body with 400 rest_invalid_json and PHP\'s json_last_error, as captured', async () => {
      const captured = exchange('POST invalid JSON (anonymous)');
      const res = await request(oracle.app).post('/wp-json/test/v1/things').set('Content-Type', 'application/json').send('{"title": "broken",');
      const body = assertRestError(res, 400, 'rest_invalid_json', 'Invalid JSON body passed.');
      assert.equal(res.text, captured.response.body);
      assert.deepEqual(body.data, { status: 400, json_error_code: 4, json_error_message: 'Syntax error' });
      assert.equal(res.headers.allow, 'GET', 'the matched route\'s Allow header, as for wp/v2/posts');
      assertCacheable(res);
    });

    it('reads JSON errors as PHP does: whitespace, invalid UTF-8, lone surrogates, and on GET too', async () => {
      const cases: Array<[Buffer | string, number, string]> = [
        ['   ', 4, 'Syntax error'],
        [Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]), 5, 'Malformed UTF-8 characters, possibly incorrectly encoded'],
        ['{"a":"\\ud800"}', 10, 'Single unpaired UTF-16 surrogate in unicode escape'],
        ['{"a":"tab\there"}', 3, 'Control character error, possibly incorrectly encoded'],
      ];
      for (const [text, code, message] of cases) {
        const res = await request(oracle.app).post('/wp-json/test/v1/echo/x').set('Content-Type', 'application/json')
          .serialize((raw: unknown) => raw as string).send(text as string);
        const body = assertRestError(res, 400, 'rest_invalid_json');
        assert.deepEqual(body.data, { status: 400, json_error_code: code, json_error_message: message }, String(text));
      }
      const onGet = await request(oracle.app).get('/wp-json/test/v1/echo/x').set('Content-Type', 'application/json').send('{');
      assertRestError(onGet, 400, 'rest_invalid_json');
      for (const empty of ['', '0']) {
        const res = await request(oracle.app).post('/wp-json/test/v1/echo/x').set('Content-Type', 'application/json').send(empty);
        assert.equal(res.status, 200, `PHP calls "${empty}" empty and does not parse it`);
      }
    });

    it('checks the JSON body, then the arguments, before the permission: an anonymous caller gets 400, not 401', async () => {
      const post = () => request(oracle.app).post('/wp-json/test/v1/things');
      assertRestError(await post().set('Content-Type', 'application/json').send('{"title":'), 400, 'rest_invalid_json');
      const missing = assertRestError(await post().send({ title: 'x' }), 400, 'rest_missing_callback_param', 'Missing parameter(s): amount');
      assert.deepEqual(missing.data, { status: 400, params: ['amount'] });
      const invalid = assertRestError(await post().send({ title: 'x', amount: 'lots' }), 400, 'rest_invalid_param', 'Invalid parameter(s): amount');
      assert.deepEqual(invalid.data.params, { amount: 'amount is not of type integer.' });
      assert.deepEqual(invalid.data.details, { amount: { code: 'rest_invalid_type', message: 'amount is not of type integer.', data: { param: 'amount' } } });
      const valid = await post().send({ title: 'x', amount: 1 });
      assertRestError(valid, 401, 'rest_forbidden', FORBIDDEN);
    });

    it('answers rest_forbidden 401 to an anonymous caller and 403 to a signed-in one', async () => {
      assertRestError(await request(oracle.app).delete('/wp-json/test/v1/things/3'), 401, 'rest_forbidden', FORBIDDEN);
      const agent = await request(oracle.app).delete('/wp-json/test/v1/things/3').set('Authorization', basicAuth('agent1'));
      const body = assertRestError(agent, 403, 'rest_forbidden', FORBIDDEN);
      assert.deepEqual(body, { code: 'rest_forbidden', message: FORBIDDEN, data: { status: 403 } });
      assert.equal(agent.headers.allow, 'GET', 'agent1 may only read');
      assertNoCache(agent);
      const manager = await request(oracle.app).delete('/wp-json/test/v1/things/3').set('Authorization', basicAuth('manager1'));
      assert.equal(manager.status, 200);
      assert.deepEqual(manager.body, { deleted: true, id: 3 });
      assert.equal(manager.headers.allow, 'GET, DELETE');
    });

    it('logs an unexpected failure with a request id and answers 500 without its internals', async () => {
      const before = oracle.logger.lines.length;
      const res = await get('/wp-json/test/v1/boom').set('Authorization', basicAuth('agent1'));
      const body = assertRestError(res, 500, 'internal_server_error', 'There has been a critical error on this website.');
      assert.doesNotMatch(res.text, /secret|hunter2|Error:|at .*\.ts/);
      assert.deepEqual(Object.keys(body.data), ['status', 'request_id']);
      assert.match(body.data.request_id, /^[0-9a-f-]{36}$/);
      const logged = oracle.logger.lines.slice(before).filter((l) => l.level === 'error');
      assert.equal(logged.length, 1);
      assert.equal(logged[0]?.fields?.request_id, body.data.request_id);
      assert.equal(logged[0]?.fields?.path, '/test/v1/boom');
      assert.match(String(logged[0]?.fields?.error), /secret internals: db password hunter2/);
      assert.match(String(logged[0]?.fields?.error), /sample-routes\.ts/, 'the stack is in the log');
      assertNoCache(res);
      const anonymous = await get('/wp-json/test/v1/boom');
      assert.equal(anonymous.status, 500);
      assertNoCache(anonymous);
    });

    it('answers a WpError returned (not thrown) by a handler as an error', async () => {
      const body = assertRestError(await get('/wp-json/test/v1/wperror'), 409, 'test_returned', 'Returned, not thrown.');
      assert.deepEqual(body.data, { status: 409, why: 'test' });
    });

    it('answers a value PHP cannot encode with 500 rest_encode_error', async () => {
      const res = await get('/wp-json/test/v1/nan');
      const body = assertRestError(res, 500, 'rest_encode_error', 'Inf and NaN cannot be JSON encoded');
      assert.deepEqual(body, { code: 'rest_encode_error', message: 'Inf and NaN cannot be JSON encoded', data: { status: 500 } });
    });

    it('uses WordPress\'s reason phrases on the status line', async () => {
      const res = await get('/wp-json/nope');
      assert.equal(statusMessage(res), 'Not Found');
      const big = await request(oracle.app).post('/wp-json/test/v1/upload').set('Content-Type', 'text/plain').send('x'.repeat(70 * 1024));
      assert.equal(big.status, 413);
      assert.equal(statusMessage(big), 'Request Entity Too Large');
    });
  });

  describe('methods', () => {
    it('takes the method from ?_method= before X-HTTP-Method-Override, in any case', async () => {
      const viaQuery = await request(oracle.app).post('/wp-json/test/v1/echo/a?_method=delete').set('X-HTTP-Method-Override', 'PUT');
      assert.equal(viaQuery.body.method, 'DELETE');
      const viaHeader = await request(oracle.app).post('/wp-json/test/v1/echo/a').set('X-HTTP-Method-Override', 'patch');
      assert.equal(viaHeader.body.method, 'PATCH');
      const onGet = await get('/wp-json/test/v1/things?_method=POST').set('Authorization', basicAuth('agent1'));
      assertRestError(onGet, 400, 'rest_missing_callback_param', 'Missing parameter(s): title, amount');
      const deleteIt = await get('/wp-json/test/v1/things/9').set('X-HTTP-Method-Override', 'DELETE').set('Authorization', basicAuth('admin'));
      assert.deepEqual(deleteIt.body, { deleted: true, id: 9 });
    });

    it('sends no-cache headers with a 4xx reached through X-HTTP-Method-Override, not through _method', async () => {
      const header = await get('/wp-json/test/v1/things/9').set('X-HTTP-Method-Override', 'DELETE');
      assertRestError(header, 401, 'rest_forbidden');
      assertNoCache(header);
      const query = await get('/wp-json/test/v1/things/9?_method=DELETE');
      assertRestError(query, 401, 'rest_forbidden');
      assertCacheable(query);
      const fine = await get('/wp-json/test/v1/things/9').set('X-HTTP-Method-Override', 'GET');
      assert.equal(fine.status, 200);
      assertCacheable(fine);
    });

    it('answers HEAD with the GET headers and no body', async () => {
      const full = await get('/wp-json/test/v1/items');
      const head = await request(oracle.app).head('/wp-json/test/v1/items');
      assert.equal(head.status, 200);
      assert.equal(head.text, undefined);
      for (const name of ['content-type', 'allow', 'x-wp-total', 'x-wp-totalpages', 'link', 'x-robots-tag']) {
        assert.equal(head.headers[name], full.headers[name], name);
      }
      assert.equal(head.headers.vary, undefined, 'Vary: Origin is for anonymous GET only');
      const viaQuery = await get('/wp-json/test/v1/items?_method=HEAD');
      assert.equal(viaQuery.status, 200);
      assert.equal(viaQuery.text, '', 'the method WordPress serves decides');
    });
  });

  describe('headers', () => {
    it('sends the serve_request() headers and the api.w.org Link on every kind of answer', async () => {
      const answers = [
        await get('/wp-json/test/v1/things'),
        await get('/wp-json/nope'),
        await get('/wp-json/test/v1/things?count=0'),
        await get('/wp-json/test/v1/boom'),
        await request(oracle.app).options('/wp-json/test/v1/things'),
      ];
      for (const res of answers) {
        assertRestHeaders(res);
        assert.equal(res.headers.link, `<${API}/>; rel="https://api.w.org/"`);
      }
    });

    it('lists in Allow only the methods this caller may use, and none on auth errors or unknown routes', async () => {
      assert.equal((await get('/wp-json/test/v1/things')).headers.allow, 'GET');
      assert.equal((await get('/wp-json/test/v1/things').set('Authorization', basicAuth('agent1'))).headers.allow, 'GET, POST');
      assert.equal((await get('/wp-json/test/v1/things/1').set('Authorization', basicAuth('admin'))).headers.allow, 'GET, DELETE');
      const badNonce = await get('/wp-json/test/v1/things').set('Cookie', loggedInCookie('agent1')).set('X-WP-Nonce', 'deadbeef00');
      assertRestError(badNonce, 403, 'rest_cookie_invalid_nonce', 'Cookie check failed');
      assert.equal(badNonce.headers.allow, undefined);
      assert.equal((await get('/wp-json/nope')).headers.allow, undefined);
    });

    it('echoes any Origin with the CORS headers WordPress sends', async () => {
      for (const origin of ['https://elsewhere.example', 'null', 'http://127.0.0.1:8081']) {
        for (const res of [await get('/wp-json/test/v1/things').set('Origin', origin), await request(oracle.app).post('/wp-json/test/v1/things').set('Origin', origin)]) {
          assert.equal(res.headers['access-control-allow-origin'], origin);
          assert.equal(res.headers['access-control-allow-methods'], 'OPTIONS, GET, POST, PUT, PATCH, DELETE');
          assert.equal(res.headers['access-control-allow-credentials'], 'true');
          assert.equal(res.headers.vary, 'Origin');
        }
      }
      const empty = await get('/wp-json/test/v1/things').set('Origin', '');
      assert.equal(empty.headers['access-control-allow-origin'], undefined, 'an empty Origin is no Origin');
    });

    it('varies on Origin for an anonymous GET without Origin, and only then', async () => {
      assert.equal((await get('/wp-json/test/v1/things')).headers.vary, 'Origin');
      assert.equal((await get('/wp-json/nope')).headers.vary, 'Origin');
      assert.equal((await request(oracle.app).post('/wp-json/test/v1/things')).headers.vary, undefined);
      assert.equal((await get('/wp-json/test/v1/things').set('Authorization', basicAuth('agent1'))).headers.vary, undefined);
      assert.equal((await get('/wp-json/test/v1/things?_method=POST')).headers.vary, 'Origin', 'the real method decides');
    });

    it('sends no-cache headers to signed-in callers and after a failed nonce, never to anonymous ones', async () => {
      assertCacheable(await get('/wp-json/test/v1/things'));
      assertNoCache(await get('/wp-json/test/v1/things').set('Authorization', basicAuth('customer1')));
      const cookie = await get('/wp-json/test/v1/things').set('Cookie', loggedInCookie('agent1')).set('X-WP-Nonce', restNonce('agent1'));
      assert.equal(cookie.body.user, 2);
      assertNoCache(cookie);
      const noNonce = await get('/wp-json/test/v1/things').set('Cookie', loggedInCookie('agent1'));
      assert.equal(noNonce.body.user, 0, 'a cookie without a nonce is anonymous');
      assertCacheable(noNonce);
      const expired = await get('/wp-json/test/v1/things')
        .set('Cookie', (credentials.sessions.agent1.negative.expired_logged_in_cookie.header as string)).set('X-WP-Nonce', restNonce('agent1'));
      assertRestError(expired, 403, 'rest_cookie_invalid_nonce', 'Cookie check failed');
      assertNoCache(expired);
      assert.equal(expired.headers.vary, 'Origin', 'the caller is anonymous');
    });

    it('refreshes the nonce in X-WP-Nonce for cookie callers only', async () => {
      const cookie = await get('/wp-json/test/v1/things').set('Cookie', loggedInCookie('customer1')).set('X-WP-Nonce', restNonce('customer1'));
      assert.equal(cookie.headers['x-wp-nonce'], restNonce('customer1'));
      const app = await get('/wp-json/test/v1/things').set('Authorization', basicAuth('customer1'));
      assert.equal(app.headers['x-wp-nonce'], undefined);
    });

    it('reads _wpnonce from the query or a form body, never from a JSON body', async () => {
      const inQuery = await get(`/wp-json/test/v1/things?_wpnonce=${restNonce('agent1')}`).set('Cookie', loggedInCookie('agent1'));
      assert.equal(inQuery.body.user, 2);
      const inForm = await request(oracle.app).post('/wp-json/test/v1/things').set('Cookie', loggedInCookie('agent1'))
        .type('form').send({ _wpnonce: restNonce('agent1'), title: 'hello', amount: '5' });
      assert.equal(inForm.status, 201, inForm.text);
      assert.deepEqual(inForm.body, { title: 'hello', amount: 5, draft: true, user: 2 });
      const inJson = await request(oracle.app).post('/wp-json/test/v1/things').set('Cookie', loggedInCookie('agent1'))
        .send({ _wpnonce: restNonce('agent1'), title: 'hello', amount: 5 });
      assertRestError(inJson, 401, 'rest_forbidden');
      const asList = await get(`/wp-json/test/v1/things?_wpnonce[]=${restNonce('agent1')}`).set('Cookie', loggedInCookie('agent1'));
      assertRestError(asList, 403, 'rest_cookie_invalid_nonce');
    });

    it('does not sign in with the wp-admin auth cookie alone either without a nonce', async () => {
      const res = await get('/wp-json/test/v1/things').set('Cookie', authCookie('agent1'));
      assert.equal(res.body.user, 0);
    });

    it('encodes JSON as PHP does: escaped slashes and \\u escapes for everything past ASCII', async () => {
      const res = await get('/wp-json/test/v1/things?name=caf%C3%A9');
      assert.match(res.text, /"text":"http:\\\/\\\/example\.test\\\/a\\\/b \\u00e9 \\u2603 \\ud83d\\ude00 <tag> & 'q' \\"dq\\""/);
      assert.match(res.text, /"name":"caf\\u00e9"/);
      assert.equal(res.body.text, 'http://example.test/a/b é ☃ 😀 <tag> & \'q\' "dq"');
    });
  });
});
