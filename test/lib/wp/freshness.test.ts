/**
 * The database is shared with a live PHP site: what WordPress changes there (an option, a role, a
 * user's capabilities, a revoked application password, a destroyed session) takes effect in
 * Understudy within 2 seconds, although Understudy caches what it reads.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { Knex } from 'knex';
import { createHash, randomBytes } from 'node:crypto';
import { generateAuthCookie } from '../../../lib/wp/auth/cookies';
import { serialize, unserialize, toPlain, PhpValue } from '../../../lib/wp/php';
import { eventually } from '../../harness/eventually';
import { OracleSite, credentials, openOracle, phpConnection } from '../../harness/oracle';

const BOUND_MS = 2000;

describe('changes made by PHP behind Understudy\'s back', function () {
  let oracle: OracleSite;
  /** A second connection, standing in for the PHP site writing the same database. */
  let php: Knex;

  before(async () => {
    oracle = await openOracle();
    php = phpConnection(oracle);
  });
  after(async () => {
    await php.destroy();
    await oracle.close();
  });

  const agentApp = () => request(oracle.app).get('/wp-json/wp/v2/users/me').set('Authorization', credentials.application_passwords.agent1.basic_auth_header);
  const canOf = async (login: string, cap: string) => {
    const user = await oracle.site.users.byLogin(login);
    return user ? (await oracle.site.capabilities.forUser(user)).can(cap) : false;
  };

  it('sees an updated option within 2 seconds', async () => {
    assert.equal(await oracle.site.options.get('blogname'), 'WP Oracle');
    await php('wp_options').where({ option_name: 'blogname' }).update({ option_value: 'Renamed by PHP' });
    await eventually(async () => (await oracle.site.options.get('blogname')) === 'Renamed by PHP', BOUND_MS);
  });

  it('sees a capability removed from a role within 2 seconds', async () => {
    assert.equal(await canOf('agent1', 'svc_work_tickets'), true);
    const row = await php('wp_options').where({ option_name: 'wp_user_roles' }).first('option_value');
    const roles = toPlain(unserialize(row.option_value) as PhpValue) as any;
    delete roles.support_agent.capabilities.svc_work_tickets;
    await php('wp_options').where({ option_name: 'wp_user_roles' }).update({ option_value: serialize(roles) });
    await eventually(async () => !(await canOf('agent1', 'svc_work_tickets')), BOUND_MS);
  });

  it('sees a capability granted to a user directly within 2 seconds', async () => {
    assert.equal(await canOf('customer1', 'svc_manage'), false);
    await php('wp_usermeta').where({ user_id: 4, meta_key: 'wp_capabilities' })
      .update({ meta_value: 'a:2:{s:10:"subscriber";b:1;s:10:"svc_manage";b:1;}' });
    await eventually(() => canOf('customer1', 'svc_manage'), BOUND_MS);
  });

  it('stops accepting a revoked application password within 2 seconds, despite the verified-password cache', async () => {
    assert.equal((await agentApp()).status, 200);
    await php('wp_usermeta').where({ user_id: 2, meta_key: '_application_passwords' }).del();
    await eventually(async () => (await agentApp()).status === 401, BOUND_MS);
  });

  it('stops accepting the cookie of a destroyed session within 2 seconds', async () => {
    const session = credentials.sessions.customer1;
    const ask = () => request(oracle.app).get('/wp-json/wp/v2/users/me')
      .set('Cookie', session.logged_in_cookie.header).set('X-WP-Nonce', session.rest_nonce);
    assert.equal((await ask()).status, 200);
    await php('wp_usermeta').where({ user_id: 4, meta_key: 'session_tokens' }).del();
    await eventually(async () => (await ask()).status === 403, BOUND_MS);
  });

  it('accepts at once the cookie of a session PHP stored after the user was cached (a sign-in at wp-login.php)', async () => {
    const user = await oracle.site.users.reload(4);
    assert.ok(user);
    const token = randomBytes(32).toString('hex').slice(0, 43);
    const expiration = credentials.generated_at + 14 * 86400;
    const verifier = createHash('sha256').update(token).digest('hex');
    const sessions = { [verifier]: { expiration, ip: '127.0.0.1', ua: 'test', login: credentials.generated_at } };
    await php('wp_usermeta').where({ user_id: 4, meta_key: 'session_tokens' }).del();
    await php('wp_usermeta').insert({ user_id: 4, meta_key: 'session_tokens', meta_value: serialize(sessions) });
    const cookie = `${(await oracle.site.cookieNames()).loggedIn}=${encodeURIComponent(await generateAuthCookie(oracle.site.salts, user, expiration, token, 'logged_in'))}`;
    const res = await request(oracle.app).get('/wp-admin/admin-ajax.php?action=rest-nonce').set('Cookie', cookie);
    assert.equal(res.status, 200, res.text);
    assert.match(res.text, /^[0-9a-f]{10}$/);
  });
});
