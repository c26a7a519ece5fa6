/**
 * `understudy user list` over a scratch database holding the demo users (seeded at a fixed time, so
 * the registration dates are known): the WP-CLI table, JSON and CSV shapes, fields and filters.
 */
import assert from 'node:assert/strict';
import { seedDemoSite } from '../../lib/demo/seed';
import { fixedClock } from '../../lib/wp/clock';
import { ScratchDatabase, scratchDatabase } from '../harness/db';
import { cli, envFor, openFor } from './cli-harness';

const SEEDED_AT = Date.UTC(2026, 5, 15, 12, 0, 0);

describe('understudy user list', function () {
  let db: ScratchDatabase;
  let env: Record<string, string>;

  before(async () => {
    db = await scratchDatabase();
    env = envFor(db.target);
    const { site } = await openFor(env, fixedClock(SEEDED_AT));
    try {
      assert.ok(await seedDemoSite(site));
    } finally {
      await site.close();
    }
  });
  after(async () => { await db?.drop(); });

  it('prints WP-CLI\'s ASCII table of the default fields, ordered by login', async () => {
    const run = await cli(['user', 'list'], env);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, [
      '+----+------------+----------------+------------------------+---------------------+-----------------+',
      '| ID | user_login | display_name   | user_email             | user_registered     | roles           |',
      '+----+------------+----------------+------------------------+---------------------+-----------------+',
      '| 1  | admin      | Ada Admin      | admin@example.test     | 2026-04-16 12:00:00 | administrator   |',
      '| 2  | agent      | Sam Agent      | agent@example.test     | 2026-05-01 12:00:00 | support_agent   |',
      '| 4  | customer1  | Chris Customer | customer1@example.test | 2026-05-16 12:00:00 | subscriber      |',
      '| 5  | customer2  | Kim Client     | customer2@example.test | 2026-05-26 12:00:00 | subscriber      |',
      '| 3  | manager    | Morgan Manager | manager@example.test   | 2026-05-01 12:00:00 | support_manager |',
      '+----+------------+----------------+------------------------+---------------------+-----------------+',
      '',
    ].join('\n'));
  });

  it('prints JSON as an array of objects with a numeric ID', async () => {
    const run = await cli(['user', 'list', '--format=json'], env);
    assert.equal(run.status, 0, run.stderr);
    const users = JSON.parse(run.stdout);
    assert.equal(users.length, 5);
    assert.deepEqual(users[0], {
      ID: 1, user_login: 'admin', display_name: 'Ada Admin', user_email: 'admin@example.test', user_registered: '2026-04-16 12:00:00', roles: 'administrator',
    });
    assert.ok(run.stdout.startsWith('[{"ID":1,"user_login":"admin",'), run.stdout);
  });

  it('prints CSV with a header row, quoting fields as fputcsv does', async () => {
    const run = await cli(['user', 'list', '--format=csv', '--fields=ID,display_name,roles'], env);
    assert.equal(run.stdout, [
      'ID,display_name,roles',
      '1,"Ada Admin",administrator',
      '2,"Sam Agent",support_agent',
      '4,"Chris Customer",subscriber',
      '5,"Kim Client",subscriber',
      '3,"Morgan Manager",support_manager',
      '',
    ].join('\n'));
  });

  it('filters by role and prints one field per line, IDs or a count', async () => {
    assert.equal((await cli(['user', 'list', '--role=subscriber', '--field=user_login'], env)).stdout, 'customer1\ncustomer2\n');
    assert.equal((await cli(['user', 'list', '--format=ids'], env)).stdout, '1 2 4 5 3\n');
    assert.equal((await cli(['user', 'list', '--role', 'support_manager', '--format=count'], env)).stdout, '1\n');
  });

  it('lists every role of a user, comma-separated, and only real roles', async () => {
    const { site } = await openFor(env);
    try {
      const id = (await site.users.byLogin('customer2'))!.ID;
      // A capability that is not a role (edit_forms) is not listed; the order of the usermeta is kept.
      await site.users.updateMeta(id, site.db.tables.capabilitiesKey, { support_agent: true, edit_forms: true, subscriber: true });
      const run = await cli(['user', 'list', '--format=csv', '--fields=user_login,roles', '--role=subscriber'], env);
      assert.equal(run.stdout, 'user_login,roles\ncustomer1,subscriber\ncustomer2,"support_agent,subscriber"\n');
    } finally {
      await site.users.updateMeta((await site.users.byLogin('customer2'))!.ID, site.db.tables.capabilitiesKey, { subscriber: true });
      await site.close();
    }
  });

  it('refuses an unknown field or format with status 1', async () => {
    assert.deepEqual(await cli(['user', 'list', '--fields=ID,user_pass'], env), { status: 1, stdout: '', stderr: 'Error: Invalid field: user_pass.\n' });
    const badFormat = await cli(['user', 'list', '--format=xml'], env);
    assert.equal(badFormat.status, 1);
    assert.match(badFormat.stderr, /^Error: Invalid value for --format: 'xml'/);
  });
});
