/**
 * `/wp/v2/users/me` for every method, against the oracle database made by real WordPress 6.1: the
 * captured exchanges answered byte for byte (status, body, Allow), then editing and deleting oneself
 * as WordPress does it, checked in the database.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { checkPassword } from '../../../lib/wp/passwords';
import { ORACLE_DIR, OracleSite, credentials, openOracle } from '../../harness/oracle';

interface CapturedExchange {
  name: string;
  request: { method: string; url: string; headers: Array<[string, string]>; body: string | null };
  response: { status: number; headers: Array<[string, string]>; body: string };
}

const traffic: CapturedExchange[] = JSON.parse(fs.readFileSync(path.join(ORACLE_DIR, 'wp-core-traffic.json'), 'utf8'));
const captured = (name: string): CapturedExchange => {
  const found = traffic.find((e) => e.name === name);
  if (!found) throw new Error(`no captured exchange named "${name}"`);
  return found;
};
const header = (headers: Array<[string, string]>, name: string) => headers.find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
const usersMeExchanges = traffic.filter((e) => /users(\/|%2F)me/.test(e.request.url));

const appPassword = (login: string): string => credentials.application_passwords[login].basic_auth_header;
const session = (login: string) => credentials.sessions[login] as { logged_in_cookie: { header: string }; rest_nonce: string };
const ME = '/wp-json/wp/v2/users/me';

/** Replays a captured request (method, path and query, the headers that carry identity). */
function replay(oracle: OracleSite, exchange: CapturedExchange): request.Test {
  const url = new URL(exchange.request.url);
  const method = exchange.request.method.toLowerCase() as 'get' | 'options';
  let test = request(oracle.app)[method](url.pathname + url.search);
  for (const [name, value] of exchange.request.headers) {
    if (['cookie', 'x-wp-nonce', 'authorization', 'accept'].includes(name.toLowerCase())) test = test.set(name, value);
  }
  return test;
}

describe('wp/v2/users/me (oracle made by WordPress 6.1)', function () {
  describe('answers the captured exchanges byte for byte', () => {
    let oracle: OracleSite;
    before(async () => { oracle = await openOracle(); });
    after(async () => { await oracle.close(); });

    it('covers every captured users/me exchange', () => {
      assert.ok(usersMeExchanges.length >= 20, `${usersMeExchanges.length} exchanges`);
    });

    for (const exchange of usersMeExchanges) {
      it(`answers "${exchange.name}" with WordPress's status, body and Allow header`, async () => {
        const res = await replay(oracle, exchange);
        assert.equal(res.status, exchange.response.status);
        assert.equal(res.text, exchange.response.body);
        assert.equal(res.headers.allow, header(exchange.response.headers, 'Allow'));
      });
    }

    it('allows GET, POST, PUT, PATCH to a signed-in non-administrator (agent1)', async () => {
      const res = await request(oracle.app).get(ME).set('Authorization', appPassword('agent1'));
      assert.equal(res.status, 200);
      assert.equal(res.headers.allow, 'GET, POST, PUT, PATCH');
      assert.equal(res.headers.allow, header(captured('users-me basic app password (agent1)').response.headers, 'Allow'));
    });

    it('allows DELETE as well to an administrator', async () => {
      const res = await request(oracle.app).get(ME).set('Authorization', appPassword('admin'));
      assert.equal(res.status, 200);
      assert.equal(res.headers.allow, 'GET, POST, PUT, PATCH, DELETE');
      assert.equal(res.headers.allow, header(captured('users-me basic app password (admin)').response.headers, 'Allow'));
    });

    it('allows only GET to an anonymous caller, who is told rest_not_logged_in', async () => {
      const res = await request(oracle.app).get(ME);
      assert.equal(res.status, 401);
      assert.equal(res.body.code, 'rest_not_logged_in');
      assert.equal(res.headers.allow, 'GET');
    });

    it('describes the route on OPTIONS exactly as WordPress does (endpoints, args and the user schema)', async () => {
      const exchange = captured('OPTIONS users/me');
      const res = await request(oracle.app).options(ME);
      assert.equal(res.status, 200);
      assert.equal(res.text, exchange.response.body);
      assert.equal(res.headers.allow, 'GET');
    });

    it('wraps the answer in _envelope with the Allow header inside, as WordPress does (signed in and anonymous)', async () => {
      for (const name of ['_envelope on success', '_envelope on error']) {
        const exchange = captured(name);
        const res = await replay(oracle, exchange);
        assert.equal(res.status, 200, name);
        assert.equal(res.text, exchange.response.body, name);
        assert.equal(res.headers.allow, undefined, name);
      }
    });

    it('shows the edit context fields in WordPress 6.1 order, with the persisted_preferences meta field', async () => {
      const res = await request(oracle.app).get(`${ME}?context=edit`).set('Authorization', appPassword('editor1'));
      assert.equal(res.status, 200);
      assert.deepEqual(Object.keys(res.body), [
        'id', 'username', 'name', 'first_name', 'last_name', 'email', 'url', 'description', 'link', 'locale', 'nickname',
        'slug', 'roles', 'registered_date', 'capabilities', 'extra_capabilities', 'avatar_urls', 'meta', '_links',
      ]);
      assert.equal(res.body.registered_date, '2026-11-22T13:14:55+00:00');
      assert.equal(res.body.locale, 'en_US');
      assert.deepEqual(res.body.roles, ['editor']);
      assert.deepEqual(res.body.extra_capabilities, { editor: true, edit_forms: true });
      assert.equal(res.body.capabilities.edit_forms, true);
      assert.match(res.text, /"meta":\{"persisted_preferences":\[\]\}/);
    });
  });

  describe('the author link', () => {
    let oracle: OracleSite;
    before(async () => { oracle = await openOracle(); });
    after(async () => { await oracle.close(); });

    // WordPress puts `/blog` before the main site's structure on a subdirectory network (checked against PHP in test/network/wordpress-parity.test.ts).
    it("follows the permalink structure's front and trailing slash, as get_author_posts_url() does", async () => {
      const home = String(await oracle.site.options.get('home'));
      for (const [structure, link] of [
        ['/blog/%postname%/', `${home}/blog/author/customer1/`], ['/%postname%', `${home}/author/customer1`],
        ['/index.php/%year%/%postname%/', `${home}/index.php/author/customer1/`], ['', `${home}/?author=4`],
      ]) {
        await oracle.site.options.update('permalink_structure', structure);
        const res = await request(oracle.app).get(ME).set('Authorization', appPassword('customer1'));
        assert.equal(res.body.link, link, structure);
      }
    });
  });

  describe('the locale a user may choose', () => {
    let oracle: OracleSite;
    // As loadSiteConfig() reads them from WP_LANG_DIR beside wp-config.php.
    before(async () => { oracle = await openOracle({ languages: ['de_DE', 'fr_FR'] }); });
    after(async () => { await oracle.close(); });

    it('is one of the languages installed beside WordPress, en_US or empty, and the route says so', async () => {
      const set = (locale: string) => request(oracle.app).post(ME).set('Authorization', appPassword('customer1')).send({ locale });
      const chosen = await set('de_DE');
      assert.equal(chosen.status, 200, chosen.text);
      assert.equal(chosen.body.locale, 'de_DE');
      const refused = await set('es_ES');
      assert.deepEqual([refused.status, refused.body.code], [400, 'rest_invalid_param']);
      assert.match(refused.body.data.params.locale, /^locale is not one of , en_US, de_DE, and fr_FR\.$/);
      const options = await request(oracle.app).options(ME);
      const post = options.body.endpoints.find((e: { methods: string[] }) => e.methods.includes('POST'));
      assert.deepEqual(post.args.locale.enum, ['', 'en_US', 'de_DE', 'fr_FR']);
      assert.deepEqual(options.body.schema.properties.locale.enum, ['', 'en_US', 'de_DE', 'fr_FR']);
    });
  });

  describe('editing oneself (POST, PUT, PATCH)', () => {
    let oracle: OracleSite;
    before(async () => { oracle = await openOracle(); });
    after(async () => { await oracle.close(); });

    const userRow = (id: number) => oracle.site.db.knex(oracle.site.db.tables.users).where({ ID: id }).first();
    const metaOf = async (id: number, key: string) => {
      const rows = await oracle.site.db.knex(oracle.site.db.tables.usermeta).where({ user_id: id, meta_key: key }).select('meta_value');
      return rows.map((r: { meta_value: string }) => r.meta_value);
    };

    it('lets a customer change their name, description, nickname and URL, and GET shows the new values at once', async () => {
      const res = await request(oracle.app).post(ME).set('Authorization', appPassword('customer1'))
        .send({ name: 'Cee One', description: 'Buys things.', nickname: 'cee', url: 'https://cee.example/' });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.name, 'Cee One');
      assert.equal(res.body.description, 'Buys things.');
      assert.equal(res.body.nickname, 'cee');
      assert.equal(res.body.url, 'https://cee.example/');
      assert.equal(res.body.username, 'customer1', 'the answer is the edit context');
      assert.deepEqual(res.body.roles, ['subscriber']);

      const view = await request(oracle.app).get(ME).set('Authorization', appPassword('customer1'));
      assert.equal(view.status, 200);
      assert.equal(view.body.name, 'Cee One');
      assert.equal(view.body.description, 'Buys things.');
      assert.equal(view.body.url, 'https://cee.example/');
      const edit = await request(oracle.app).get(`${ME}?context=edit`).set('Authorization', appPassword('customer1'));
      assert.equal(edit.body.nickname, 'cee');

      const row = await userRow(4);
      assert.equal(row.display_name, 'Cee One');
      assert.equal(row.user_url, 'https://cee.example/');
      assert.deepEqual(await metaOf(4, 'nickname'), ['cee']);
      assert.deepEqual(await metaOf(4, 'description'), ['Buys things.']);
    });

    it('accepts PUT and PATCH as well as POST', async () => {
      for (const method of ['put', 'patch'] as const) {
        const res = await request(oracle.app)[method](ME).set('Authorization', appPassword('customer2')).send({ first_name: `By ${method}` });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.first_name, `By ${method}`);
      }
    });

    it('runs the fields through WordPress save filters (tags stripped, entities encoded, kses on the description)', async () => {
      const res = await request(oracle.app).post(ME).set('Authorization', appPassword('manager1')).send({
        name: '  Tom <b>&</b>  Jerry > Bob ',
        description: '<script>x</script><b>bold</b> & <a href="javascript:alert(1)" onclick="evil()">link</a>',
        url: 'example.org/path?a=1&b=2',
        slug: 'Mänager Ône',
      });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.name, 'Tom &amp; Jerry &gt; Bob');
      assert.equal(res.body.description, 'x<b>bold</b> &amp; <a href="alert(1)">link</a>');
      assert.equal(res.body.url, 'http://example.org/path?a=1&amp;b=2');
      assert.equal(res.body.slug, 'manager-one');
    });

    it('refuses to edit roles for a user who cannot promote users (403 rest_cannot_edit_roles) and changes nothing', async () => {
      const res = await request(oracle.app).post(ME).set('Authorization', appPassword('agent1')).send({ roles: ['administrator'], name: 'Boss' });
      assert.equal(res.status, 403);
      assert.equal(res.body.code, 'rest_cannot_edit_roles');
      assert.equal(res.body.message, 'Sorry, you are not allowed to edit roles of this user.');
      assert.deepEqual(await metaOf(2, 'wp_capabilities'), ['a:1:{s:13:"support_agent";b:1;}']);
      assert.equal((await userRow(2)).display_name, 'Agent One');
    });

    it('lets an administrator set their own roles, but only to roles that keep edit_users and that exist', async () => {
      const ok = await request(oracle.app).post(ME).set('Authorization', appPassword('admin')).send({ roles: ['administrator'] });
      assert.equal(ok.status, 200, ok.text);
      assert.deepEqual(ok.body.roles, ['administrator']);
      assert.deepEqual(await metaOf(1, 'wp_capabilities'), ['a:1:{s:13:"administrator";b:1;}']);
      assert.deepEqual(await metaOf(1, 'wp_user_level'), ['10']);

      for (const roles of [['subscriber'], ['administrator', 'support_agent']]) {
        const demote = await request(oracle.app).post(ME).set('Authorization', appPassword('admin')).send({ roles });
        assert.equal(demote.status, 403, roles.join());
        assert.equal(demote.body.code, 'rest_user_invalid_role');
        assert.equal(demote.body.message, 'Sorry, you are not allowed to give users that role.');
      }
      const unknown = await request(oracle.app).post(ME).set('Authorization', appPassword('admin')).send({ roles: ['overlord'] });
      assert.equal(unknown.status, 400);
      assert.equal(unknown.body.code, 'rest_user_invalid_role');
      assert.equal(unknown.body.message, 'The role overlord does not exist.');
      assert.deepEqual(await metaOf(1, 'wp_capabilities'), ['a:1:{s:13:"administrator";b:1;}']);
    });

    it('takes every role away when `roles` is an empty list, as WordPress 6.1 does (no promote_users needed)', async () => {
      const res = await request(oracle.app).post(ME).set('Authorization', appPassword('editor1')).send({ roles: [] });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.roles, []);
      assert.deepEqual(res.body.extra_capabilities, { edit_forms: true });
      assert.deepEqual(await metaOf(6, 'wp_capabilities'), ['a:1:{s:10:"edit_forms";b:1;}']);
      assert.deepEqual(await metaOf(6, 'wp_user_level'), ['0']);
    });

    it('refuses an invalid email address (400 rest_invalid_param / rest_invalid_email) and changes nothing', async () => {
      const res = await request(oracle.app).post(ME).set('Authorization', appPassword('customer2')).send({ email: 'not-an-email', name: 'Changed' });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'rest_invalid_param');
      assert.equal(res.body.data.details.email.code, 'rest_invalid_email');
      const row = await userRow(5);
      assert.equal(row.user_email, 'customer2@example.test');
      assert.equal(row.display_name, 'Customer Two');
    });

    it("refuses another user's email address, whatever its case (400 rest_user_invalid_email), and changes nothing", async () => {
      for (const email of ['agent1@example.test', 'AGENT1@Example.TEST']) {
        const res = await request(oracle.app).post(ME).set('Authorization', appPassword('customer2')).send({ email, name: 'Changed' });
        assert.equal(res.status, 400, email);
        assert.equal(res.body.code, 'rest_user_invalid_email');
        assert.equal(res.body.message, 'Invalid email address.');
      }
      const row = await userRow(5);
      assert.equal(row.user_email, 'customer2@example.test');
      assert.equal(row.display_name, 'Customer Two');
    });

    it('accepts a new email address but keeps the current one until the new one confirms it (no sign-in with it yet)', async () => {
      const res = await request(oracle.app).post(ME).set('Authorization', appPassword('customer2')).send({ email: 'c2@new.example', first_name: 'Cee' });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.email, 'customer2@example.test', 'the answer shows the account as it is');
      assert.equal(res.body.first_name, 'Cee', 'the other fields are saved at once');
      assert.equal((await userRow(5)).user_email, 'customer2@example.test');
      assert.equal((await metaOf(5, '_new_email')).length, 1, 'the change waits in _new_email');

      const basicAs = (login: string) => `Basic ${Buffer.from(`${login}:${credentials.application_passwords.customer2.password}`).toString('base64')}`;
      const byNew = await request(oracle.app).get(ME).set('Authorization', basicAs('c2@new.example'));
      assert.equal(byNew.status, 401, 'the unconfirmed address signs nobody in');
      const byCurrent = await request(oracle.app).get(ME).set('Authorization', basicAs('customer2@example.test'));
      assert.equal(byCurrent.status, 200);
      assert.equal(byCurrent.body.slug, 'customer2');
    });

    it('refuses to change the username (400 rest_user_invalid_argument) but accepts the current one', async () => {
      const change = await request(oracle.app).post(ME).set('Authorization', appPassword('agent1')).send({ username: 'agent007' });
      assert.equal(change.status, 400);
      assert.equal(change.body.code, 'rest_user_invalid_argument');
      assert.equal(change.body.message, 'Username is not editable.');
      const illegal = await request(oracle.app).post(ME).set('Authorization', appPassword('agent1')).send({ username: 'agent 1!' });
      assert.equal(illegal.status, 400);
      assert.equal(illegal.body.code, 'rest_invalid_param');
      assert.equal(illegal.body.data.details.username.code, 'rest_user_invalid_username');
      const same = await request(oracle.app).post(ME).set('Authorization', appPassword('agent1')).send({ username: 'agent1' });
      assert.equal(same.status, 200, same.text);
    });

    it("refuses another user's slug (400 rest_user_invalid_slug)", async () => {
      const res = await request(oracle.app).post(ME).set('Authorization', appPassword('agent1')).send({ slug: 'customer1' });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'rest_user_invalid_slug');
      assert.equal((await userRow(2)).user_nicename, 'agent1');
    });

    it('refuses an empty password or one with a backslash (400 rest_invalid_param / rest_user_invalid_password)', async () => {
      for (const password of ['', 'back\\slash']) {
        const res = await request(oracle.app).post(ME).set('Authorization', appPassword('agent1')).send({ password });
        assert.equal(res.status, 400, JSON.stringify(password));
        assert.equal(res.body.code, 'rest_invalid_param');
        assert.equal(res.body.data.details.password.code, 'rest_user_invalid_password');
      }
      assert.equal((await userRow(2)).user_pass, credentials.users.agent1.user_pass_hash);
    });

    it('changes the password: the new one verifies, the old one no longer does and the old cookie stops working', async () => {
      const { logged_in_cookie: cookie, rest_nonce: nonce } = session('manager1');
      const before = await request(oracle.app).get(ME).set('Cookie', cookie.header).set('X-WP-Nonce', nonce);
      assert.equal(before.status, 200);

      const res = await request(oracle.app).post(ME).set('Cookie', cookie.header).set('X-WP-Nonce', nonce).send({ password: ' n3w secret ' });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.password, undefined, 'the password is never shown');
      const row = await userRow(3);
      assert.ok(await checkPassword('n3w secret', row.user_pass), 'WordPress hashes the trimmed password');
      assert.equal(await checkPassword(credentials.users.manager1.password, row.user_pass), false);
      assert.equal(row.user_activation_key, '');

      const after = await request(oracle.app).get(ME).set('Cookie', cookie.header).set('X-WP-Nonce', nonce);
      assert.equal(after.status, 403);
      assert.equal(after.body.code, 'rest_cookie_invalid_nonce');
      const app = await request(oracle.app).get(ME).set('Authorization', appPassword('manager1'));
      assert.equal(app.status, 200, 'application passwords do not depend on the account password');
    });

    it('stores persisted_preferences given under meta and shows them in the edit context', async () => {
      const prefs = { core: { fixedToolbar: true }, _modified: '2026-11-22T14:00:00.000Z' };
      const res = await request(oracle.app).post(ME).set('Authorization', appPassword('agent1')).send({ meta: { persisted_preferences: prefs } });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.meta, { persisted_preferences: prefs });
      assert.deepEqual(await metaOf(2, 'wp_persisted_preferences'), [
        'a:2:{s:4:"core";a:1:{s:12:"fixedToolbar";b:1;}s:9:"_modified";s:24:"2026-11-22T14:00:00.000Z";}',
      ]);
      const view = await request(oracle.app).get(ME).set('Authorization', appPassword('agent1'));
      assert.equal(JSON.stringify(view.body.meta), '[]', 'the field is edit-only');
    });

    it('answers an anonymous update as WordPress 6.1 does: 404 rest_user_invalid_id (its permission check looks up user 0)', async () => {
      const res = await request(oracle.app).post(ME).send({ name: 'Nobody' });
      assert.equal(res.status, 404);
      assert.equal(res.body.code, 'rest_user_invalid_id');
      assert.equal(res.body.message, 'Invalid user ID.');
      assert.equal(res.headers.allow, 'GET');
    });

    it('reports a wrongly typed field before anything else (400 rest_invalid_param)', async () => {
      const res = await request(oracle.app).post(ME).set('Authorization', appPassword('agent1')).send({ locale: 'fr_FR' });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'rest_invalid_param');
      assert.equal(res.body.data.params.locale, 'locale is not one of  and en_US.');
    });
  });

  describe('deleting oneself (DELETE)', () => {
    let oracle: OracleSite;
    before(async () => { oracle = await openOracle(); });
    after(async () => { await oracle.close(); });

    const knex = () => oracle.site.db.knex;
    const postsBy = async (author: number) => Number((await knex()(oracle.site.db.tables.posts).where({ post_author: author }).count({ n: '*' }))[0]?.n);

    it('needs reassign (400 rest_missing_callback_param), checked before who is asking', async () => {
      const res = await request(oracle.app).delete(`${ME}?force=true`);
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'rest_missing_callback_param');
      assert.deepEqual(res.body.data.params, ['reassign']);
    });

    it('answers an anonymous caller 404 rest_user_invalid_id, as WordPress 6.1 does', async () => {
      const res = await request(oracle.app).delete(`${ME}?force=true&reassign=1`);
      assert.equal(res.status, 404);
      assert.equal(res.body.code, 'rest_user_invalid_id');
    });

    it('refuses a user without delete_users (403 rest_user_cannot_delete) and deletes nothing', async () => {
      const res = await request(oracle.app).delete(`${ME}?force=true&reassign=1`).set('Authorization', appPassword('agent1'));
      assert.equal(res.status, 403);
      assert.equal(res.body.code, 'rest_user_cannot_delete');
      assert.equal(res.body.message, 'Sorry, you are not allowed to delete this user.');
      assert.ok(await oracle.site.users.byId(2));
    });

    it("refuses to delete without force (501 rest_trash_not_supported), users having no trash", async () => {
      const res = await request(oracle.app).delete(`${ME}?reassign=3`).set('Authorization', appPassword('admin'));
      assert.equal(res.status, 501);
      assert.equal(res.body.code, 'rest_trash_not_supported');
      assert.equal(res.body.message, "Users do not support trashing. Set 'force=true' to delete.");
      assert.ok(await oracle.site.users.byId(1));
    });

    it('refuses to reassign to oneself or to a user who does not exist (400 rest_user_invalid_reassign)', async () => {
      for (const reassign of [1, 999]) {
        const res = await request(oracle.app).delete(`${ME}?force=true&reassign=${reassign}`).set('Authorization', appPassword('admin'));
        assert.equal(res.status, 400, String(reassign));
        assert.equal(res.body.code, 'rest_user_invalid_reassign');
        assert.equal(res.body.message, 'Invalid user ID for reassignment.');
      }
      assert.equal(await postsBy(1), 3);
    });

    it('deletes the user with force and reassigns their tickets and messages, answering {deleted, previous}', async () => {
      // customer1 is given delete_users so that they may delete themselves (the tickets they wrote move to agent1).
      await oracle.site.users.updateMeta(4, 'wp_capabilities', { subscriber: true, delete_users: true });
      const owned = await postsBy(4);
      const agentBefore = await postsBy(2);
      assert.ok(owned >= 19, `customer1 authored ${owned} posts`);

      const res = await request(oracle.app).delete(`${ME}?force=true&reassign=2`).set('Authorization', appPassword('customer1'));
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.deleted, true);
      assert.equal(res.body.previous.id, 4);
      assert.equal(res.body.previous.username, 'customer1');
      assert.equal(res.body.previous.email, 'customer1@example.test');
      assert.equal(res.headers.allow, 'GET', 'the deleted user may no longer edit or delete');

      assert.equal(await postsBy(4), 0);
      assert.equal(await postsBy(2), agentBefore + owned);
      const tickets = await knex()(oracle.site.db.tables.posts).where({ post_author: 2, post_type: 'svc_ticket' }).count({ n: '*' });
      assert.ok(Number(tickets[0]?.n) >= 19);
      assert.equal(await knex()(oracle.site.db.tables.users).where({ ID: 4 }).first(), undefined);
      assert.equal((await knex()(oracle.site.db.tables.usermeta).where({ user_id: 4 })).length, 0);

      const gone = await request(oracle.app).get(ME).set('Authorization', appPassword('customer1'));
      assert.equal(gone.status, 401);
      assert.equal(gone.body.code, 'rest_not_logged_in');
    });

    it('lets an administrator delete themselves, their posts and pages going to the reassigned user', async () => {
      const res = await request(oracle.app).delete(ME).set('Authorization', appPassword('admin')).send({ force: true, reassign: 3 });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.previous.roles, ['administrator']);
      assert.equal(await postsBy(1), 0);
      const moved = await knex()(oracle.site.db.tables.posts).where({ post_author: 3 }).whereIn('post_type', ['post', 'page']).count({ n: '*' });
      assert.equal(Number(moved[0]?.n), 3);
      assert.equal(await oracle.site.users.byId(1), null);
    });
  });
});
