/**
 * wp-admin/admin-ajax.php as WordPress runs it: where the action comes from, who counts as signed in
 * (cookies only), the answers of wp_die() and wp_send_json*(), the admin and no-cache headers, and
 * send_origin_headers(). The captured admin-ajax exchanges are replayed first.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { credentials } from '../../../harness/oracle';
import {
  SITE, SampleOracle, authCookie, basicAuth, loggedInCookie, openSampleOracle, restNonce, sessionNonce,
} from '../../../harness/sample-routes';
import { NO_CACHE, answerHeaders, assertNoCache, capturedHeaders, listen, rawRequest, statusMessage, traffic } from '../../../harness/wp-http';

const AJAX = '/wp-admin/admin-ajax.php';
const ADMIN_HEADERS = { 'referrer-policy': 'strict-origin-when-cross-origin', 'x-frame-options': 'SAMEORIGIN', 'x-content-type-options': 'nosniff' };

function assertAdminHeaders(res: request.Response): void {
  for (const [name, value] of Object.entries(ADMIN_HEADERS)) assert.equal(res.headers[name], value, name);
  assert.equal(res.headers['x-robots-tag'], 'noindex');
  assertNoCache(res);
}

describe('admin-ajax.php', function () {
  let oracle: SampleOracle;
  before(async () => { oracle = await openSampleOracle(); });
  after(async () => { await oracle.close(); });
  const get = (qs = '') => request(oracle.app).get(`${AJAX}${qs}`);
  const post = (qs = '') => request(oracle.app).post(`${AJAX}${qs}`);

  describe('the captured exchanges', () => {
    for (const e of traffic.filter((x) => x.request.url.includes('/wp-admin/admin-ajax.php'))) {
      it(`answers "${e.name}" as WordPress did`, async () => {
        const url = new URL(e.request.url);
        let req = request(oracle.app)[e.request.method.toLowerCase() as 'get' | 'post'](url.pathname + url.search);
        for (const [name, value] of e.request.headers) if (!['host', 'connection', 'content-length'].includes(name.toLowerCase())) req = req.set(name, value);
        const res = await (e.request.body !== null ? req.send(e.request.body) : req);
        assert.equal(res.status, e.response.status);
        assert.equal(res.text, e.response.body);
        assert.deepEqual(answerHeaders(res), capturedHeaders(e));
      });
    }
  });

  describe('the action', () => {
    it('answers 0 with 400 and only no-cache headers when there is no action, or an empty or non-scalar one', async () => {
      for (const qs of ['', '?action=', '?action=0', '?action[]=test_echo']) {
        const res = await get(qs);
        assert.equal(res.status, 400, qs);
        assert.equal(res.text, '0');
        assert.equal(res.headers['content-type'], 'text/html; charset=UTF-8');
        assert.equal(res.headers['x-robots-tag'], 'noindex');
        assertNoCache(res);
        assert.equal(res.headers['x-content-type-options'], undefined, `${qs}: the admin headers come later`);
        assert.equal(res.headers['x-frame-options'], undefined);
      }
    });

    it('answers 0 with 400 and the admin headers for an action without a handler', async () => {
      for (const res of [await get('?action=does_not_exist'), await post().type('form').send('action=does_not_exist')]) {
        assert.equal(res.status, 400);
        assert.equal(res.text, '0');
        assertAdminHeaders(res);
      }
    });

    it('takes the action from the query or the body (form-encoded or multipart), the body winning', async () => {
      const fromQuery = await get('?action=test_echo&x=1');
      assert.deepEqual(fromQuery.body, { success: true, data: { side: 'nopriv', user: 0, action: 'test_echo', params: { action: 'test_echo', x: '1' } } });
      const fromForm = await post().type('form').send('action=test_echo&x=2');
      assert.equal(fromForm.body.data.action, 'test_echo');
      const fromMultipart = await post().field('action', 'test_echo').field('x', '3');
      assert.deepEqual(fromMultipart.body.data.params, { action: 'test_echo', x: '3' });
      const bodyWins = await post('?action=test_priv_only&x=query&y=query').type('form').send('action=test_echo&x=body');
      assert.deepEqual(bodyWins.body.data.params, { action: 'test_echo', x: 'body', y: 'query' });
    });

    it('ignores a body that PHP would not put in $_POST (no Content-Type, JSON, text, or a GET body)', async () => {
      const json = await post().send({ action: 'test_echo' });
      assert.equal(json.status, 400);
      assert.equal(json.text, '0');
      const getBody = await get().type('form').send('action=test_echo');
      assert.equal(getBody.status, 400);
      const server = await listen(oracle.app);
      try {
        for (const headers of [{}, { 'Content-Type': 'text/plain' }] as Array<Record<string, string>>) {
          const res = await rawRequest(server.port, 'POST', AJAX, headers, 'action=test_echo');
          assert.deepEqual([res.status, res.body], [400, '0'], JSON.stringify(headers));
        }
        const form = await rawRequest(server.port, 'POST', AJAX, { 'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8' }, 'action=test_echo');
        assert.equal(form.status, 200);
      } finally {
        await server.close();
      }
    });

    it('answers the core GET actions only when the query string names them', async () => {
      const viaQuery = await get('?action=rest-nonce').set('Cookie', loggedInCookie('agent1'));
      assert.equal(viaQuery.status, 200);
      assert.equal(viaQuery.text, restNonce('agent1'));
      const viaBody = await post().set('Cookie', loggedInCookie('agent1')).type('form').send('action=rest-nonce');
      assert.equal(viaBody.status, 400);
      assert.equal(viaBody.text, '0');
      const queryOnPost = await post('?action=logged-in').set('Cookie', loggedInCookie('agent1')).type('form').send('x=1');
      assert.equal(queryOnPost.text, '1');
    });
  });

  describe('who is signed in', () => {
    it('runs wp_ajax_nopriv_ for anonymous callers and wp_ajax_ for the logged-in cookie', async () => {
      const anonymous = await get('?action=test_echo');
      assert.deepEqual([anonymous.body.data.side, anonymous.body.data.user], ['nopriv', 0]);
      const cookie = await get('?action=test_echo').set('Cookie', loggedInCookie('customer1'));
      assert.deepEqual([cookie.body.data.side, cookie.body.data.user], ['priv', 4]);
      assertAdminHeaders(cookie);
    });

    it('signs in with the wp-admin auth cookie too, and needs no nonce', async () => {
      const res = await get('?action=test_echo').set('Cookie', authCookie('agent1')).set('X-WP-Nonce', 'deadbeef00');
      assert.deepEqual([res.body.data.side, res.body.data.user], ['priv', 2]);
    });

    it('ignores application passwords', async () => {
      const res = await get('?action=test_echo').set('Authorization', basicAuth('admin'));
      assert.deepEqual([res.body.data.side, res.body.data.user], ['nopriv', 0]);
      const privOnly = await get('?action=test_priv_only').set('Authorization', basicAuth('admin'));
      assert.equal(privOnly.status, 400);
      assert.equal(privOnly.text, '0');
    });

    it('treats a broken cookie as anonymous', async () => {
      const bad = credentials.sessions.agent1.negative.bad_hmac_logged_in_cookie.header as string;
      const res = await get('?action=test_echo').set('Cookie', bad);
      assert.equal(res.body.data.side, 'nopriv');
      assert.equal((await get('?action=test_priv_only').set('Cookie', bad)).status, 400);
      assert.equal((await get('?action=test_priv_only').set('Cookie', loggedInCookie('agent1'))).text, 'hello 2');
    });
  });

  describe('nonces', () => {
    it('lets a handler check a nonce with verifyNonce and die with -1 and 403 when it fails', async () => {
      const ok = await post().set('Cookie', loggedInCookie('agent1')).type('form').send({ action: 'test_nonce', _ajax_nonce: sessionNonce('agent1', 'svc_ajax') });
      assert.equal(ok.status, 200, ok.text);
      assert.deepEqual(ok.body, { success: true, data: { tick: 1 } });
      for (const nonce of ['deadbeef00', '', sessionNonce('agent1', 'wp_rest'), sessionNonce('customer1', 'svc_ajax')]) {
        const res = await post().set('Cookie', loggedInCookie('agent1')).type('form').send({ action: 'test_nonce', _ajax_nonce: nonce });
        assert.equal(res.status, 403, nonce);
        assert.equal(res.text, '-1');
        assert.equal(res.headers['content-type'], 'text/html; charset=UTF-8');
        assertAdminHeaders(res);
      }
    });

    it('reads check_ajax_referer()\'s nonce from the named field, else _ajax_nonce, else _wpnonce', async () => {
      const nonce = sessionNonce('agent1', 'svc_ajax');
      const send = (form: Record<string, string>) => post().set('Cookie', loggedInCookie('agent1')).type('form').send({ action: 'test_referer', ...form });
      assert.equal((await send({ security: nonce })).status, 200);
      assert.equal((await send({ _ajax_nonce: nonce })).status, 200);
      assert.equal((await send({ _wpnonce: nonce })).status, 200);
      assert.equal((await send({ security: 'bad', _ajax_nonce: nonce })).status, 403, 'the named field wins');
      const none = await send({});
      assert.equal(none.status, 403);
      assert.equal(none.text, '-1');
    });
  });

  describe('answers', () => {
    it('writes wp_send_json_success() and wp_send_json_error() as WordPress does', async () => {
      const cases: Array<[string, number, string]> = [
        ['success-empty', 200, '{"success":true}'],
        ['success-null', 200, '{"success":true}'],
        ['error-empty', 200, '{"success":false}'],
        ['error-data', 422, '{"success":false,"data":{"reason":"bad\\/thing \\u00e9"}}'],
        ['error-wperror', 200, '{"success":false,"data":[{"code":"svc_bad","message":"It went wrong."}]}'],
        ['plain', 201, '[1,"two"]'],
      ];
      for (const [kind, status, text] of cases) {
        const res = await get(`?action=test_json&kind=${kind}`);
        assert.equal(res.status, status, kind);
        assert.equal(res.text, text, kind);
        assert.equal(res.headers['content-type'], 'application/json; charset=UTF-8');
        assertAdminHeaders(res);
      }
    });

    it('writes wp_die() text with its status and WordPress\'s reason phrase', async () => {
      const res = await get('?action=test_json&kind=die');
      assert.equal(res.status, 418);
      assert.equal(statusMessage(res), "I'm a teapot");
      assert.equal(res.text, 'custom');
      assert.equal(res.headers['content-type'], 'text/html; charset=UTF-8');
    });

    it('logs an unexpected failure with a request id and answers 500 without its internals', async () => {
      const before = oracle.logger.lines.length;
      const res = await get('?action=test_boom');
      assert.equal(res.status, 500);
      assert.equal(res.text, 'There has been a critical error on this website.');
      assertNoCache(res);
      const logged = oracle.logger.lines.slice(before).filter((l) => l.level === 'error');
      assert.equal(logged.length, 1);
      assert.match(String(logged[0]?.fields?.request_id), /^[0-9a-f-]{36}$/);
      assert.match(String(logged[0]?.fields?.error), /ajax secret internals/);
    });

    it('sends no body for HEAD', async () => {
      const res = await request(oracle.app).head(`${AJAX}?action=test_echo`);
      assert.equal(res.status, 200);
      assert.equal(res.text, undefined);
      assert.equal(res.headers['content-type'], 'application/json; charset=UTF-8');
    });
  });

  describe('send_origin_headers()', () => {
    const host = new URL(SITE).hostname;

    it('echoes only the site\'s own scheme and host, without a port', async () => {
      for (const origin of [`http://${host}`, `https://${host}`]) {
        const res = await get('?action=test_echo').set('Origin', origin);
        assert.equal(res.headers['access-control-allow-origin'], origin);
        assert.equal(res.headers['access-control-allow-credentials'], 'true');
        assert.equal(res.headers['access-control-allow-methods'], undefined);
      }
      for (const origin of [SITE, 'http://evil.example', 'null', `ftp://${host}`]) {
        const res = await get('?action=test_echo').set('Origin', origin);
        assert.equal(res.status, 200, origin);
        assert.equal(res.headers['access-control-allow-origin'], undefined, origin);
        assert.equal(res.headers['access-control-allow-credentials'], undefined);
      }
    });

    it('answers a preflight itself: 200 and empty for the site\'s origin, 403 otherwise', async () => {
      const allowed = await request(oracle.app).options(`${AJAX}?action=test_echo`).set('Origin', `https://${host}`);
      assert.equal(allowed.status, 200);
      assert.equal(allowed.text, '');
      assert.equal(allowed.headers['access-control-allow-origin'], `https://${host}`);
      assert.equal(allowed.headers['access-control-allow-credentials'], 'true');
      assert.equal(allowed.headers['x-robots-tag'], undefined, 'nothing after send_origin_headers() runs');
      assert.equal(allowed.headers.expires, undefined);
      for (const origin of [SITE, 'http://evil.example']) {
        const refused = await request(oracle.app).options(AJAX).set('Origin', origin);
        assert.equal(refused.status, 403, origin);
        assert.equal(refused.text, '');
        assert.equal(refused.headers['access-control-allow-origin'], undefined);
      }
      assert.equal((await request(oracle.app).options(AJAX)).status, 403, 'no Origin at all');
    });
  });

  it('never sends the REST headers', async () => {
    const res = await get('?action=test_echo');
    assert.equal(res.headers.link, undefined);
    assert.equal(res.headers['access-control-expose-headers'], undefined);
    assert.equal(res.headers.expires, NO_CACHE.expires);
  });
});
