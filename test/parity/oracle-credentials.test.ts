/**
 * Every credential real WordPress issued for the oracle database is accepted, every one it refused is
 * refused, and each user's capabilities resolve as WordPress resolved them. Checked at the recorded time.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { OracleSite, credentials, openOracle } from '../harness/oracle';

const users = Object.entries(credentials.users) as Array<[string, any]>;
const sessions = credentials.sessions as Record<string, any>;
const appPasswords = credentials.application_passwords as Record<string, any>;
const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

describe('oracle credentials (a database made by real WordPress 6.1)', function () {
  let oracle: OracleSite;
  before(async () => { oracle = await openOracle(); });
  after(async () => { await oracle.close(); });

  describe('application passwords over HTTP Basic', () => {
    for (const [login, app] of Object.entries(appPasswords)) {
      it(`signs in ${login} with the issued password, its spaced form and the account email`, async () => {
        const email = credentials.users[login].email;
        for (const auth of [app.basic_auth_header, basic(login, app.password_chunked), basic(email, app.password)]) {
          const res = await request(oracle.app).get('/wp-json/wp/v2/users/me').set('Authorization', auth);
          assert.equal(res.status, 200, `${login}: ${res.text}`);
          assert.equal(res.body.slug, login);
          assert.equal(res.body.id, app.user_id);
          assert.equal(res.headers['x-wp-nonce'], undefined, 'application-password answers carry no nonce');
        }
      });
    }

    it('leaves a wrong application password, the account password or an unknown user anonymous (401 rest_not_logged_in)', async () => {
      for (const auth of [basic('agent1', 'A'.repeat(24)), basic('agent1', credentials.users.agent1.password), basic('nobody', appPasswords.agent1.password)]) {
        const res = await request(oracle.app).get('/wp-json/wp/v2/users/me').set('Authorization', auth);
        assert.equal(res.status, 401);
        assert.equal(res.body.code, 'rest_not_logged_in');
      }
    });

    it('ignores X-WP-Nonce when an application password signs the request in', async () => {
      const res = await request(oracle.app).get('/wp-json/wp/v2/users/me')
        .set('Authorization', appPasswords.agent1.basic_auth_header).set('X-WP-Nonce', 'deadbeef00');
      assert.equal(res.status, 200);
      assert.equal(res.body.slug, 'agent1');
    });
  });

  describe('logged-in cookies with REST nonces', () => {
    for (const [login, session] of Object.entries(sessions)) {
      it(`signs in ${login} with the cookie and its wp_rest nonce, and returns a fresh nonce`, async () => {
        const res = await request(oracle.app).get('/wp-json/wp/v2/users/me')
          .set('Cookie', session.logged_in_cookie.header).set('X-WP-Nonce', session.rest_nonce);
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.slug, login);
        assert.equal(res.headers['x-wp-nonce'], session.rest_nonce, 'in the same tick the fresh nonce equals the issued one');
      });

      it(`treats ${login}'s cookie without a nonce as signed out`, async () => {
        const res = await request(oracle.app).get('/wp-json/wp/v2/users/me').set('Cookie', session.logged_in_cookie.header);
        assert.equal(res.status, 401);
        assert.equal(res.body.code, 'rest_not_logged_in');
      });

      it(`refuses ${login}'s expired, tampered and unknown-session cookies and wrong nonces with 403 rest_cookie_invalid_nonce`, async () => {
        const neg = session.negative;
        const cases: Array<[string, string]> = [
          [neg.expired_logged_in_cookie.header, session.rest_nonce],
          [neg.bad_hmac_logged_in_cookie.header, session.rest_nonce],
          [neg.unknown_session_logged_in_cookie.header, session.rest_nonce],
          [session.logged_in_cookie.header, neg.nonce_for_other_action.value],
          [session.logged_in_cookie.header, neg.bad_nonce.value],
        ];
        for (const [cookie, nonce] of cases) {
          const res = await request(oracle.app).get('/wp-json/wp/v2/users/me').set('Cookie', cookie).set('X-WP-Nonce', nonce);
          assert.equal(res.status, 403, `${cookie.slice(0, 80)} / ${nonce}`);
          assert.equal(res.body.code, 'rest_cookie_invalid_nonce');
        }
      });
    }

    it('accepts the nonce only within its two ticks (12 to 24 hours)', async () => {
      const session = sessions.agent1;
      const ask = () => request(oracle.app).get('/wp-json/wp/v2/users/me')
        .set('Cookie', session.logged_in_cookie.header).set('X-WP-Nonce', session.rest_nonce);
      try {
        oracle.clock.set((credentials.nonces.valid_until - 1) * 1000);
        assert.equal((await ask()).status, 200);
        oracle.clock.set((credentials.nonces.valid_until + 1) * 1000);
        const expired = await ask();
        assert.equal(expired.status, 403);
        assert.equal(expired.body.code, 'rest_cookie_invalid_nonce');
      } finally {
        oracle.clock.set(credentials.generated_at * 1000);
      }
    });

    it('accepts the anonymous (user 0) wp_rest nonce and refreshes it', async () => {
      const res = await request(oracle.app).get('/wp-json/wp/v2/users/me').set('X-WP-Nonce', credentials.nonces.logged_out_wp_rest);
      assert.equal(res.status, 401);
      assert.equal(res.headers['x-wp-nonce'], credentials.nonces.logged_out_wp_rest);
    });
  });

  describe('capabilities', () => {
    for (const [login, user] of users) {
      it(`resolves ${login}'s roles and the plugins' capabilities as WordPress did`, async () => {
        const wpUser = await oracle.site.users.byLogin(login);
        assert.ok(wpUser);
        const caps = await oracle.site.capabilities.forUser(wpUser);
        assert.deepEqual(caps.roles, user.roles);
        for (const cap of ['svc_work_tickets', 'svc_manage', 'edit_forms']) assert.equal(caps.can(cap), user[cap], `${login} ${cap}`);
      });
    }
  });
});
