/**
 * The demo site: its users sign in with their application passwords over the real app, their roles
 * carry the plugins' capabilities, its rows have WordPress's and the storage map's exact shape, and
 * seeding a second time changes nothing.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { Express } from 'express';
import { createApp } from '../../../lib/app';
import { DEMO_MARKER_OPTION, SeededDemo, demoFixture, seedDemoSite } from '../../../lib/demo/seed';
import { demoSignIns } from '../../../lib/demo/sign-ins';
import { fixedClock } from '../../../lib/wp/clock';
import { checkApplicationPassword, checkPassword } from '../../../lib/wp/passwords';
import { PhpValue, toPlain, unserialize } from '../../../lib/wp/php';
import { Site } from '../../../lib/wp/site';
import { envFor, openFor } from '../../cli/cli-harness';
import { ScratchDatabase, scratchDatabase } from '../../harness/db';

const NOW = Date.UTC(2026, 5, 15, 12, 0, 0);
const TICKET_META = ['_svc_priority', '_svc_source', '_svc_customer_name', '_svc_customer_email', '_svc_assignee', '_svc_version'];
const MESSAGE_META = ['_svc_author_name', '_svc_author_email', '_svc_author_kind', '_svc_message_id', '_svc_in_reply_to'];

type Row = Record<string, any>;

describe('the demo site', function () {
  let db: ScratchDatabase;
  let site: Site;
  let app: Express;
  let seeded: SeededDemo;
  const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
  const user = (login: string) => demoFixture.users.find((u) => u.login === login)!;
  const metaOf = async (table: 'postmeta' | 'usermeta', column: string, id: number) =>
    site.db.knex(site.db.tables[table]).where(column, id).orderBy(table === 'postmeta' ? 'meta_id' : 'umeta_id').select('meta_key', 'meta_value') as Promise<Row[]>;

  before(async () => {
    db = await scratchDatabase();
    // Application passwords work over plain HTTP only on a local site, as in WordPress.
    ({ site } = await openFor(envFor(db.target, { WP_ENVIRONMENT_TYPE: 'local' }), fixedClock(NOW)));
    const result = await seedDemoSite(site);
    assert.ok(result, 'the first seeding creates the demo');
    seeded = result;
    app = createApp(site);
  });
  after(async () => {
    await site?.close();
    await db?.drop();
  });

  describe('users', () => {
    for (const demo of demoFixture.users) {
      it(`signs ${demo.login} in with the printed application password, with the role ${demo.role}`, async () => {
        const res = await request(app).get('/wp-json/wp/v2/users/me?context=edit').set('Authorization', basic(demo.login, demo.application_password.password));
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.slug, demo.login);
        assert.equal(res.body.id, seeded.users[demo.login]);
        assert.deepEqual(res.body.roles, [demo.role]);
        assert.equal(res.body.email, demo.email);
      });
    }

    it('leaves a wrong application password anonymous', async () => {
      const res = await request(app).get('/wp-json/wp/v2/users/me').set('Authorization', basic('agent', user('admin').application_password.password));
      assert.equal(res.status, 401);
      assert.equal(res.body.code, 'rest_not_logged_in');
    });

    it('gives agents svc_work_tickets, managers and the admin svc_manage too, and customers neither', async () => {
      const expected: Record<string, [boolean, boolean]> = {
        admin: [true, true], agent: [true, false], manager: [true, true], customer1: [false, false], customer2: [false, false],
      };
      for (const [login, [work, manage]] of Object.entries(expected)) {
        const wpUser = await site.users.byLogin(login);
        assert.ok(wpUser, login);
        const caps = await site.capabilities.forUser(wpUser);
        assert.equal(caps.can('svc_work_tickets'), work, `${login} svc_work_tickets`);
        assert.equal(caps.can('svc_manage'), manage, `${login} svc_manage`);
      }
    });

    it('stores the account passwords as WordPress 6.8 hashes them', async () => {
      for (const demo of demoFixture.users) {
        const row = await site.db.knex(site.db.tables.users).where({ user_login: demo.login }).first('user_pass');
        assert.match(row.user_pass, /^\$wp\$2y\$10\$/);
        assert.equal(await checkPassword(demo.password, row.user_pass), true, demo.login);
        assert.equal(await checkPassword(`${demo.password}x`, row.user_pass), false);
      }
    });

    it('writes the users row and the usermeta wp_insert_user() and set_role() write, in order', async () => {
      const row = await site.db.knex(site.db.tables.users).where({ user_login: 'manager' }).first();
      assert.equal(row.user_nicename, 'manager');
      assert.equal(row.display_name, 'Morgan Manager');
      assert.equal(row.user_registered, '2026-05-01 12:00:00');
      assert.equal(Number(row.user_status), 0);
      const meta = await metaOf('usermeta', 'user_id', row.ID);
      assert.deepEqual(meta.slice(0, 13).map((m) => [m.meta_key, m.meta_value]), [
        ['nickname', 'manager'], ['first_name', 'Morgan'], ['last_name', 'Manager'], ['description', ''],
        ['rich_editing', 'true'], ['syntax_highlighting', 'true'], ['comment_shortcuts', 'false'], ['admin_color', 'fresh'],
        ['use_ssl', '0'], ['show_admin_bar_front', 'true'], ['locale', ''],
        ['wp_capabilities', 'a:1:{s:15:"support_manager";b:1;}'], ['wp_user_level', '0'],
      ]);
      const admin = await metaOf('usermeta', 'user_id', seeded.users.admin as number);
      assert.equal(admin.find((m) => m.meta_key === 'wp_user_level')?.meta_value, '10');
    });

    it('stores application passwords as WordPress 6.8 does, and turns them on for the site', async () => {
      const demo = user('customer2');
      const meta = await metaOf('usermeta', 'user_id', seeded.users.customer2 as number);
      const raw = meta.find((m) => m.meta_key === '_application_passwords')?.meta_value as string;
      const list = toPlain(unserialize(raw) as PhpValue) as Array<Record<string, unknown>>;
      assert.equal(list.length, 1);
      assert.deepEqual(Object.keys(list[0]!), ['uuid', 'app_id', 'name', 'password', 'created', 'last_used', 'last_ip']);
      assert.equal(list[0]!.uuid, demo.application_password.uuid);
      assert.equal(list[0]!.app_id, '');
      assert.equal(list[0]!.created, NOW / 1000);
      assert.match(String(list[0]!.password), /^\$generic\$/);
      assert.equal(await checkApplicationPassword(demo.application_password.password, String(list[0]!.password)), true);
      const option = await site.db.knex(site.db.tables.options).where({ option_name: 'using_application_passwords' }).first();
      assert.equal(option.option_value, '1');
      assert.equal(option.autoload, 'no');
    });
  });

  describe('tickets', () => {
    let tickets: Row[];
    let messages: Row[];

    before(async () => {
      tickets = await site.db.knex(site.db.tables.posts).where({ post_type: 'svc_ticket' }).orderBy('ID');
      messages = await site.db.knex(site.db.tables.posts).where({ post_type: 'svc_message' }).orderBy('ID');
    });

    it('creates the fixture\'s tickets, numbered svc-ticket-000001 upwards in the order they were opened', async () => {
      assert.equal(tickets.length, demoFixture.tickets.length);
      assert.ok(tickets.length >= 6 && tickets.length <= 8);
      assert.deepEqual(tickets.map((t) => Number(t.ID)), seeded.tickets);
      assert.deepEqual(tickets.map((t) => t.post_name), tickets.map((_, i) => `svc-ticket-${String(i + 1).padStart(6, '0')}`));
      const opened = tickets.map((t) => t.post_date_gmt);
      assert.deepEqual(opened, [...opened].sort());
      for (const t of tickets) {
        assert.equal(t.post_content, '');
        assert.equal(t.post_parent, 0);
        assert.equal(t.guid, `http://127.0.0.1:8080/?post_type=svc_ticket&p=${t.ID}`);
      }
    });

    it('covers every status, a high and an urgent priority, and an unassigned ticket', async () => {
      assert.deepEqual(new Set(tickets.map((t) => t.post_status)), new Set(['svc-open', 'svc-waiting', 'svc-resolved']));
      const meta = await Promise.all(tickets.map((t) => metaOf('postmeta', 'post_id', t.ID)));
      const value = (i: number, key: string) => meta[i]!.find((m) => m.meta_key === key)?.meta_value;
      const priorities = tickets.map((_, i) => value(i, '_svc_priority'));
      assert.ok(priorities.includes('high') && priorities.includes('urgent'));
      assert.ok(priorities.every((p) => ['normal', 'high', 'urgent'].includes(p)));
      assert.ok(tickets.some((_, i) => value(i, '_svc_assignee') === undefined), 'an unassigned ticket');
      assert.ok(tickets.some((_, i) => value(i, '_svc_assignee') === String(seeded.users.agent)), 'a ticket assigned to the agent');
    });

    it('keeps ticket meta under exactly the storage map\'s keys, in the plugin\'s order', async () => {
      for (const t of tickets) {
        const keys = (await metaOf('postmeta', 'post_id', t.ID)).map((m) => m.meta_key);
        assert.deepEqual(keys, TICKET_META.filter((k) => keys.includes(k)), `ticket ${t.ID}`);
        for (const required of ['_svc_priority', '_svc_source', '_svc_customer_name', '_svc_customer_email', '_svc_version']) assert.ok(keys.includes(required));
      }
    });

    it('has a ticket owned only by its customer email (post_author 0, the address of customer2)', async () => {
      const owned = [];
      for (const t of tickets.filter((row) => Number(row.post_author) === 0)) {
        const email = (await metaOf('postmeta', 'post_id', t.ID)).find((m) => m.meta_key === '_svc_customer_email')?.meta_value;
        if (email === user('customer2').email) owned.push(t);
      }
      assert.equal(owned.length, 1);
    });

    it('stores conversations as svc_message children, with an internal note and the author meta', async () => {
      assert.ok(messages.some((m) => m.post_status === 'private'), 'an internal note');
      for (const m of messages) {
        assert.ok(['publish', 'private'].includes(m.post_status));
        assert.ok(seeded.tickets.includes(Number(m.post_parent)));
        assert.equal(m.post_name, String(m.ID));
        const meta = await metaOf('postmeta', 'post_id', m.ID);
        const keys = meta.map((x) => x.meta_key);
        assert.deepEqual(keys, MESSAGE_META.filter((k) => keys.includes(k)));
        assert.ok(['customer', 'agent'].includes(meta.find((x) => x.meta_key === '_svc_author_kind')?.meta_value));
        assert.match(meta.find((x) => x.meta_key === '_svc_message_id')?.meta_value, /^<ticket-\d+-\d+@demo\.example\.test>$/);
      }
    });

    it('dates everything from the site clock: a ticket opens with its first message and its last activity is post_modified', async () => {
      const newest = tickets[tickets.length - 1]!;
      assert.equal(newest.post_date_gmt, '2026-06-15 10:00:00'); // its first message came 2 hours before "now"
      for (const t of tickets) {
        const conversation = messages.filter((m) => Number(m.post_parent) === Number(t.ID));
        assert.equal(t.post_date_gmt, conversation[0]!.post_date_gmt);
        const lastMessage = conversation[conversation.length - 1]!.post_date_gmt;
        if (t.post_status === 'svc-resolved') assert.ok(t.post_modified_gmt > lastMessage, 'resolved after the last message');
        else assert.equal(t.post_modified_gmt, lastMessage);
      }
    });
  });

  describe('site', () => {
    it('is titled "Understudy Demo"', async () => {
      assert.equal(await site.options.get('blogname'), 'Understudy Demo');
    });

    it('does nothing the second time', async () => {
      const count = async (table: 'users' | 'posts' | 'usermeta' | 'postmeta') => Number((await site.db.knex(site.db.tables[table]).count({ n: '*' }))[0]!.n);
      const before = await Promise.all([count('users'), count('posts'), count('usermeta'), count('postmeta')]);
      assert.equal(await seedDemoSite(site), null);
      assert.deepEqual(await Promise.all([count('users'), count('posts'), count('usermeta'), count('postmeta')]), before);
      assert.notEqual(await site.options.getRaw(DEMO_MARKER_OPTION), undefined);
    });
  });

  describe('sign-in lines', () => {
    it('give each user\'s login, password, role and a curl command with their application password', () => {
      const lines = demoSignIns('http://127.0.0.1:9999');
      for (const demo of demoFixture.users) {
        assert.ok(lines.some((l) => l.includes(demo.login) && l.includes(`password: ${demo.password}`) && l.includes(`role: ${demo.role}`)), demo.login);
        assert.ok(lines.some((l) => l.trim() === `curl -u ${demo.login}:${demo.application_password.password} http://127.0.0.1:9999/wp-json/wp/v2/users/me`), demo.login);
      }
    });
  });
});
