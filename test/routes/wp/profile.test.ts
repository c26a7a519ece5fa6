/**
 * Changing one's email through `wp/v2/users/me` and confirming it at
 * `/wp-admin/profile.php?newuseremail=<hash>`, on the oracle made by WordPress: the request keeps the
 * account's address, stores `_new_email` as WordPress stores it and mails the link to the new address
 * (a real SMTP capture); the link changes the address only for the same signed-in user with the right hash.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { Express } from 'express';
import { Knex } from 'knex';
import request from 'supertest';
import { openSite } from '../../../lib/boot';
import { createApp } from '../../../lib/app';
import { memoryLogger } from '../../../lib/logger';
import { fixedClock } from '../../../lib/wp/clock';
import { unserialize } from '../../../lib/wp/php';
import { Site } from '../../../lib/wp/site';
import { scratchDatabase, ScratchDatabase } from '../../harness/db';
import { credentials, loadOracleInto, oracleConfig } from '../../harness/oracle';
import { SmtpCapture, startSmtpCapture } from '../../harness/smtp';

const ME = '/wp-json/wp/v2/users/me';
const PROFILE = '/wp-admin/profile.php';
const SITE_URL = credentials.site_url as string;
const appPassword = (login: string): string => credentials.application_passwords[login].basic_auth_header;
const authCookie = (login: string): string => credentials.sessions[login].auth_cookie.header;
const loggedInCookie = (login: string): string => credentials.sessions[login].logged_in_cookie.header;

describe('GET /wp-admin/profile.php?newuseremail (email change confirmation)', function () {
  let scratch: ScratchDatabase;
  let site: Site;
  let app: Express;
  let smtp: SmtpCapture;

  before(async () => {
    smtp = await startSmtpCapture();
    scratch = await scratchDatabase();
    await loadOracleInto(scratch);
    ({ site } = await openSite({ ...oracleConfig(scratch), smtpUrl: smtp.url }, { logger: memoryLogger(), clock: fixedClock(credentials.generated_at * 1000) }));
    app = createApp(site);
  });
  after(async () => {
    await site?.close();
    await scratch?.drop();
    if (site) fs.rmSync(site.config.dataDir, { recursive: true, force: true });
    await smtp?.close();
  });
  beforeEach(() => smtp.clear());

  const knex = (): Knex => site.db.knex;
  const emailOf = async (id: number): Promise<string> => String((await knex()(site.db.tables.users).where({ ID: id }).first('user_email')).user_email);
  const pendingRaw = async (id: number): Promise<string[]> =>
    (await knex()(site.db.tables.usermeta).where({ user_id: id, meta_key: '_new_email' }).select('meta_value')).map((r: { meta_value: string }) => r.meta_value);
  const ask = (login: string, email: string) => request(app).post(ME).set('Authorization', appPassword(login)).send({ email });
  const hashIn = (raw: string): string => {
    const match = /s:4:"hash";s:32:"([0-9a-f]{32})";/.exec(raw);
    assert.ok(match, raw);
    return match[1] as string;
  };
  const open = (hash: string, cookie?: string) => {
    const req = request(app).get(`${PROFILE}?newuseremail=${hash}`);
    return cookie ? req.set('Cookie', cookie) : req;
  };

  describe('asking for a new address (POST users/me)', () => {
    it("keeps the account's address, stores _new_email in WordPress's serialized shape and mails the link to the new address only", async () => {
      const res = await ask('customer1', 'c1.new@example.org');
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.email, 'customer1@example.test');
      assert.equal(await emailOf(4), 'customer1@example.test');

      const [raw, ...more] = await pendingRaw(4);
      assert.equal(more.length, 0);
      assert.match(raw as string, /^a:2:\{s:4:"hash";s:32:"[0-9a-f]{32}";s:8:"newemail";s:18:"c1\.new@example\.org";\}$/);
      const hash = hashIn(raw as string);
      assert.deepEqual(Object.fromEntries((unserialize(raw as string) as any).entries()), { hash, newemail: 'c1.new@example.org' });

      const [mail, ...others] = await smtp.waitForEmails(1);
      assert.equal(others.length, 0, 'nothing goes to the current address');
      assert.deepEqual(mail?.envelopeTo, ['c1.new@example.org']);
      assert.equal(mail?.parsed.subject, '[WP Oracle] Email Change Request');
      assert.ok(mail?.parsed.text?.includes(`${SITE_URL}/wp-admin/profile.php?newuseremail=${hash}\n`), mail?.parsed.text ?? '');
      assert.ok(mail?.parsed.text?.includes('customer1'));

      const me = await request(app).get(`${ME}?context=edit`).set('Authorization', appPassword('customer1'));
      assert.equal(me.body.email, 'customer1@example.test');
    });

    it('replaces an earlier request: only the newest link works', async () => {
      await ask('customer1', 'first@example.org');
      const first = hashIn((await pendingRaw(4))[0] as string);
      await ask('customer1', 'second@example.org');
      const second = hashIn((await pendingRaw(4))[0] as string);
      assert.notEqual(first, second);
      assert.equal((await smtp.waitForEmails(2)).length, 2);

      const old = await open(first, authCookie('customer1'));
      assert.equal(old.status, 400);
      assert.equal(await emailOf(4), 'customer1@example.test');
      assert.match((await pendingRaw(4))[0] as string, /second@example\.org/);
    });

    it('asks nothing (no meta, no email) when the address sent is the current one', async () => {
      const res = await ask('customer2', 'customer2@example.test');
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(await pendingRaw(5), []);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(smtp.sentEmails().length, 0);
    });
  });

  describe('opening the link', () => {
    it('changes the address for the same user with the right hash (auth cookie), drops _new_email and says so', async () => {
      await ask('customer1', 'c1.confirmed@example.org');
      const hash = hashIn((await pendingRaw(4))[0] as string);
      await knex()(site.db.tables.users).where({ ID: 4 }).update({ user_activation_key: '1700000000:$generic$old-reset-key' });

      const res = await open(hash, authCookie('customer1'));
      assert.equal(res.status, 200, res.text);
      assert.match(res.headers['content-type'] as string, /^text\/html; charset=UTF-8$/);
      assert.ok(res.text.includes('c1.confirmed@example.org'));
      assert.equal(await emailOf(4), 'c1.confirmed@example.org');
      assert.deepEqual(await pendingRaw(4), []);
      const row = await knex()(site.db.tables.users).where({ ID: 4 }).first('user_activation_key');
      assert.equal(row.user_activation_key, '', 'a password-reset key for the old address stops working');

      const me = await request(app).get(`${ME}?context=edit`).set('Authorization', appPassword('customer1'));
      assert.equal(me.body.email, 'c1.confirmed@example.org', 'users/me shows the new address at once');
      const again = await open(hash, authCookie('customer1'));
      assert.equal(again.status, 400, 'a used link does nothing');
    });

    it('accepts the logged-in cookie as well (the cookie WordPress sends to every path)', async () => {
      await ask('customer2', 'c2.confirmed@example.org');
      const hash = hashIn((await pendingRaw(5))[0] as string);
      const res = await open(hash, loggedInCookie('customer2'));
      assert.equal(res.status, 200, res.text);
      assert.equal(await emailOf(5), 'c2.confirmed@example.org');
    });

    it('changes nothing with a wrong hash, and the pending change still waits for the right one', async () => {
      await ask('editor1', 'ed.new@example.org');
      const raw = (await pendingRaw(6))[0] as string;
      const hash = hashIn(raw);
      for (const wrong of ['0'.repeat(32), hash.slice(0, 31), `${hash}0`, '', hash.toUpperCase()]) {
        const res = await open(wrong, authCookie('editor1'));
        assert.equal(res.status, 400, JSON.stringify(wrong));
      }
      const arrayed = await request(app).get(`${PROFILE}?newuseremail[]=${hash}`).set('Cookie', authCookie('editor1'));
      assert.equal(arrayed.status, 400);
      assert.equal(await emailOf(6), 'editor1@example.test');
      assert.deepEqual(await pendingRaw(6), [raw]);
    });

    it("changes nothing for either account when another user's session opens the link", async () => {
      await ask('manager1', 'm1.new@example.org');
      const raw = (await pendingRaw(3))[0] as string;
      const hash = hashIn(raw);
      const customer2Before = await emailOf(5);

      const res = await open(hash, authCookie('customer2'));
      assert.equal(res.status, 400);
      assert.equal(await emailOf(3), 'manager1@example.test');
      assert.equal(await emailOf(5), customer2Before);
      assert.deepEqual(await pendingRaw(3), [raw], "the owner's link still works");

      const own = await open(hash, authCookie('manager1'));
      assert.equal(own.status, 200, own.text);
      assert.equal(await emailOf(3), 'm1.new@example.org');
    });

    it('refuses an address another account took meanwhile (409), keeps the current address and drops the request', async () => {
      await ask('agent1', 'shared@example.org');
      const hash = hashIn((await pendingRaw(2))[0] as string);
      // Meanwhile the PHP site gives the address (in another case) to someone else.
      await knex()(site.db.tables.users).where({ ID: 6 }).update({ user_email: 'Shared@Example.ORG' });

      const res = await open(hash, authCookie('agent1'));
      assert.equal(res.status, 409, res.text);
      assert.ok(res.text.includes('already used'));
      assert.equal(await emailOf(2), 'agent1@example.test');
      assert.equal(await emailOf(6), 'Shared@Example.ORG');
      assert.deepEqual(await pendingRaw(2), []);
    });

    it('sends a signed-out visitor to wp-login.php and back to the link (302), changing nothing', async () => {
      await ask('admin', 'admin.new@example.org');
      const raw = (await pendingRaw(1))[0] as string;
      const hash = hashIn(raw);
      const res = await open(hash);
      assert.equal(res.status, 302);
      const back = `${SITE_URL}/wp-admin/profile.php?newuseremail=${hash}`;
      assert.equal(res.headers.location, `${SITE_URL}/wp-login.php?redirect_to=${encodeURIComponent(back)}&reauth=1`);
      const withAppPassword = await open(hash).set('Authorization', appPassword('admin'));
      assert.equal(withAppPassword.status, 302, 'an application password signs nobody in on a page');
      assert.equal(await emailOf(1), 'admin@example.test');
      assert.deepEqual(await pendingRaw(1), [raw]);
    });

    it("confirms a request the PHP site stored (WordPress's own _new_email row)", async () => {
      const hash = 'd41d8cd98f00b204e9800998ecf8427e';
      await knex()(site.db.tables.usermeta).where({ user_id: 1, meta_key: '_new_email' }).del();
      await knex()(site.db.tables.usermeta).insert({
        user_id: 1, meta_key: '_new_email', meta_value: `a:2:{s:4:"hash";s:32:"${hash}";s:8:"newemail";s:19:"php.set@example.org";}`,
      });
      const res = await open(hash, authCookie('admin'));
      assert.equal(res.status, 200, res.text);
      assert.equal(await emailOf(1), 'php.set@example.org');
    });

    it('mails the address as asked and escapes the saved one on the page (an apostrophe and an ampersand are valid in one)', async () => {
      await ask('customer2', "o'hara&co@example.org");
      const hash = hashIn((await pendingRaw(5))[0] as string);
      const [mail] = await smtp.waitForEmails(1);
      assert.deepEqual(mail?.envelopeTo, ["o'hara&co@example.org"]);

      const res = await open(hash, authCookie('customer2'));
      assert.equal(res.status, 200, res.text);
      // WordPress's save filters (kses) store the ampersand as an entity, as the direct change always did.
      assert.equal(await emailOf(5), "o'hara&amp;co@example.org");
      assert.ok(res.text.includes('o&#39;hara&#38;amp;co@example.org'), res.text);
      assert.ok(!/o'hara|&amp;co/.test(res.text), 'nothing of the address goes into the page unescaped');
    });

    it('leaves profile.php without newuseremail to WordPress (404 here)', async () => {
      const res = await request(app).get(PROFILE).set('Cookie', authCookie('customer1'));
      assert.equal(res.status, 404);
    });
  });
});
