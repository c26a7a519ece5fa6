/**
 * `understudy user create` over a scratch database with no users (a configured site that has none):
 * WP-CLI's output, and the users and usermeta rows real WordPress 6.1 writes for a new user
 * (fixtures/oracle/wp-oracle.sql: agent1's rows), with a password WordPress verifies.
 */
import assert from 'node:assert/strict';
import { checkPassword } from '../../lib/wp/passwords';
import { connect } from '../../lib/wp/db/database';
import { Tables } from '../../lib/wp/db/tables';
import { ScratchDatabase, scratchDatabase } from '../harness/db';
import { cli, envFor, openFor } from './cli-harness';

/** The usermeta keys WordPress 6.1 wrote for agent1 (wp_insert_user, then set_role), in order. */
const WP_NEW_USER_META = [
  'nickname', 'first_name', 'last_name', 'description', 'rich_editing', 'syntax_highlighting', 'comment_shortcuts',
  'admin_color', 'use_ssl', 'show_admin_bar_front', 'locale', 'wp_capabilities', 'wp_user_level',
];

describe('understudy user create', function () {
  let db: ScratchDatabase;
  let env: Record<string, string>;

  before(async () => {
    db = await scratchDatabase();
    env = envFor(db.target);
    const { site } = await openFor(env);
    await site.close();
  });
  after(async () => { await db?.drop(); });

  async function rows(login: string): Promise<{ user: Record<string, unknown>; meta: Array<[string, string]> }> {
    const conn = connect({ target: db.target, tables: new Tables({ prefix: 'wp_' }) });
    try {
      const user = await conn.knex('wp_users').where({ user_login: login }).first();
      const meta = await conn.knex('wp_usermeta').where({ user_id: user.ID }).orderBy('umeta_id').select('meta_key', 'meta_value');
      return { user, meta: meta.map((m: { meta_key: string; meta_value: string }) => [m.meta_key, m.meta_value]) };
    } finally {
      await conn.close();
    }
  }

  it('creates an administrator with a generated password, printed once, as WP-CLI does', async () => {
    const run = await cli(['user', 'create', 'owner', 'owner@example.test', '--role=administrator'], env);
    assert.equal(run.status, 0, run.stderr);
    const match = /^Success: Created user (\d+)\.\nPassword: (\S{24})\n$/.exec(run.stdout);
    assert.ok(match, run.stdout);
    const { user, meta } = await rows('owner');
    assert.equal(Number(user.ID), Number(match[1]));
    assert.deepEqual([user.user_email, user.user_nicename, user.display_name, user.user_url, user.user_status], ['owner@example.test', 'owner', 'owner', '', 0]);
    assert.ok(await checkPassword(match[2] as string, String(user.user_pass)), 'the printed password signs in');
    assert.deepEqual(meta.map(([key]) => key), WP_NEW_USER_META);
    assert.deepEqual(Object.fromEntries(meta).wp_capabilities, 'a:1:{s:13:"administrator";b:1;}');
    assert.equal(Object.fromEntries(meta).wp_user_level, '10');
    assert.equal(Object.fromEntries(meta).nickname, 'owner');
    const listed = JSON.parse((await cli(['user', 'list', '--format=json', '--fields=user_login,roles'], env)).stdout);
    assert.deepEqual(listed, [{ user_login: 'owner', roles: 'administrator' }]);
  });

  it('takes --user_pass (printing no password), names, and the site\'s default role', async () => {
    const run = await cli(['user', 'create', 'sam', 'sam@example.test', '--user_pass=correct horse', '--first_name=Sam', '--last_name=Agent', '--format=json'], env);
    assert.equal(run.status, 0, run.stderr);
    const out = JSON.parse(run.stdout);
    assert.deepEqual({ ...out, ID: undefined }, { ID: undefined, user_login: 'sam', user_email: 'sam@example.test', role: 'subscriber' });
    const { user, meta } = await rows('sam');
    assert.equal(user.display_name, 'Sam Agent');
    assert.ok(await checkPassword('correct horse', String(user.user_pass)));
    assert.equal(Object.fromEntries(meta).wp_capabilities, 'a:1:{s:10:"subscriber";b:1;}');
    assert.equal(Object.fromEntries(meta).wp_user_level, '0');
    const porcelain = await cli(['user', 'create', 'sam2', 'sam2@example.test', '--user_pass=x', '--porcelain'], env);
    assert.match(porcelain.stdout, /^\d+\n$/);
  });

  it('refuses what WordPress and WP-CLI refuse, writing nothing', async () => {
    const refused = async (argv: string[]) => {
      const run = await cli(['user', 'create', ...argv], env);
      assert.equal(run.status, 1, run.stdout);
      return run.stderr;
    };
    assert.equal(await refused(['owner', 'other@example.test']), 'Error: Sorry, that username already exists!\n');
    assert.equal(await refused(['other', 'owner@example.test']), 'Error: Sorry, that email address is already used!\n');
    assert.equal(await refused(['other', 'not-an-email']), "Error: The 'not-an-email' email address is invalid.\n");
    assert.equal(await refused(['other', 'other@example.test', '--role=wizard']), "Error: Role doesn't exist: wizard\n");
    assert.equal(await refused(['***', 'other@example.test']), 'Error: Cannot create a user with an empty login name.\n');
    assert.match(await refused(['other']), /^Error: Too few arguments/);
    assert.equal(JSON.parse((await cli(['user', 'list', '--format=count'], env)).stdout), 3);
  });

  it('makes the nicename unique as WordPress does', async () => {
    assert.equal((await cli(['user', 'create', 'Owner.Two', 'o2@example.test', '--user_pass=x'], env)).status, 0);
    assert.equal((await cli(['user', 'create', 'owner_two', 'o3@example.test', '--user_pass=x'], env)).status, 0);
    assert.equal((await rows('Owner.Two')).user.user_nicename, 'owner-two');
    assert.equal((await rows('owner_two')).user.user_nicename, 'owner_two');
    assert.equal((await cli(['user', 'create', 'owner-two', 'o4@example.test', '--user_pass=x'], env)).status, 0);
    assert.equal((await rows('owner-two')).user.user_nicename, 'owner-two-2');
  });
});
