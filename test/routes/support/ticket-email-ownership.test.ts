/**
 * Owning a ticket by its customer email, on the demo site: asking users/me for the address of an
 * account-less ticket gives nothing until that address confirms the change, and an address that only
 * looks like a ticket's (Unicode lookalikes, compatibility forms, collation-equal forms) never owns it,
 * in the list or one by one. Case, which WordPress ignores in addresses, still does not matter.
 */
import assert from 'node:assert/strict';
import { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../../lib/app';
import { SeededDemo, demoFixture, seedDemoSite } from '../../../lib/demo/seed';
import { deskOf } from '../../../lib/support/desk';
import { fixedClock, unixSeconds } from '../../../lib/wp/clock';
import { createSession, generateAuthCookie } from '../../../lib/wp/auth/cookies';
import { mysqlDateTime } from '../../../lib/wp/dates';
import { addPostMeta, insertPost } from '../../../lib/wp/posts';
import { Site } from '../../../lib/wp/site';
import { envFor, openFor } from '../../cli/cli-harness';
import { ScratchDatabase, scratchDatabase } from '../../harness/db';
import { SmtpCapture, startSmtpCapture } from '../../harness/smtp';

const API = '/wp-json/support/v1';
const ME = '/wp-json/wp/v2/users/me';
const NOW = Date.UTC(2026, 5, 15, 12, 0, 0);

describe('support tickets owned by customer email (demo site)', function () {
  let db: ScratchDatabase;
  let smtp: SmtpCapture;
  let site: Site;
  let app: Express;
  let seeded: SeededDemo;

  before(async () => {
    db = await scratchDatabase();
    smtp = await startSmtpCapture();
    ({ site } = await openFor(envFor(db.target, { WP_ENVIRONMENT_TYPE: 'local', SMTP_URL: smtp.url }), fixedClock(NOW)));
    const result = await seedDemoSite(site);
    assert.ok(result);
    seeded = result;
    app = createApp(site);
  });
  after(async () => {
    await site?.close();
    await db?.drop();
    await smtp?.close();
  });

  const basic = (login: string): string => {
    const user = demoFixture.users.find((u) => u.login === login);
    assert.ok(user, login);
    return `Basic ${Buffer.from(`${login}:${user.application_password.password}`).toString('base64')}`;
  };
  const as = (login: string) => ({
    get: (path: string) => request(app).get(path).set('Authorization', basic(login)),
    post: (path: string) => request(app).post(path).set('Authorization', basic(login)),
    patch: (path: string) => request(app).patch(path).set('Authorization', basic(login)),
  });
  const ticketWithEmail = async (email: string): Promise<number> => {
    const row = await site.db.knex(site.db.tables.postmeta).where({ meta_key: '_svc_customer_email', meta_value: email }).first('post_id');
    assert.ok(row, email);
    return Number(row.post_id);
  };
  const listedIds = async (login: string): Promise<number[]> => {
    const res = await as(login).get(`${API}/tickets?per_page=100`);
    assert.equal(res.status, 200, res.text);
    return res.body.map((t: { id: number }) => t.id);
  };
  /** A logged-in cookie for `login`, as wp-login.php would have set it. */
  const cookieFor = async (login: string): Promise<string> => {
    const user = await site.users.byLogin(login);
    assert.ok(user, login);
    const now = unixSeconds(site.clock);
    const token = await createSession(site.users, user, now + 3600, now);
    const value = await generateAuthCookie(site.salts, user, now + 3600, token, 'logged_in');
    return `${(await site.cookieNames()).loggedIn}=${encodeURIComponent(value)}`;
  };
  /** Asks users/me for `email` as `login`, then opens the mailed link signed in as them. */
  const confirmEmail = async (login: string, email: string): Promise<void> => {
    smtp.clear();
    const res = await as(login).post(ME).send({ email });
    assert.equal(res.status, 200, res.text);
    const [mail] = await smtp.waitForEmails(1);
    const link = /https?:\/\/\S+\/wp-admin\/profile\.php\?newuseremail=[0-9a-f]{32}/.exec(mail?.parsed.text ?? '')?.[0];
    assert.ok(link, mail?.parsed.text ?? '');
    const page = await request(app).get(new URL(link).pathname + new URL(link).search).set('Cookie', await cookieFor(login));
    assert.equal(page.status, 200, page.text);
  };
  /** An account-less ticket (post_author 0) of `email`, as an emailed ticket is stored. */
  const accountlessTicket = async (email: string, subject: string): Promise<number> => {
    const date = { local: mysqlDateTime(NOW), gmt: mysqlDateTime(NOW) };
    const id = await insertPost(site.db.knex, site.db.tables, 'http://localhost', { post_type: 'svc_ticket', post_status: 'svc-open', post_title: subject, date });
    await addPostMeta(site.db.knex, site.db.tables, id, {
      _svc_priority: 'normal', _svc_source: 'email', _svc_customer_name: 'Someone', _svc_customer_email: email, _svc_version: 1,
    });
    // Written as PHP would write it; the lists would notice within the 2-second freshness bound
    // (tested on its own), and these tests are about ownership, so they do not wait it out.
    await deskOf(site).afterWrite({ tickets: new Set([id]) });
    return id;
  };

  it('are the two account-less demo tickets 21 (Jordan Lee) and 5 (Priya Patel)', async () => {
    assert.equal(await ticketWithEmail('jordan.lee@example.net'), 21);
    assert.equal(await ticketWithEmail('priya.patel@example.org'), 5);
    assert.ok(seeded.tickets.includes(21) && seeded.tickets.includes(5));
  });

  for (const [ticketId, asked] of [[21, 'jordan.lee@example.net'], [5, 'Priya.Patel@Example.ORG']] as const) {
    it(`does not give customer1 ticket ${ticketId} when they only ask users/me for ${asked}: not to read, list, reply to or reopen`, async () => {
      const res = await as('customer1').post(ME).send({ email: asked });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.email, 'customer1@example.test');
      // The 2-second freshness bound of the caches has nothing to catch up with: the account row never changed.
      await new Promise((resolve) => setTimeout(resolve, 2100));

      const read = await as('customer1').get(`${API}/tickets/${ticketId}`);
      assert.equal(read.status, 404, read.text);
      assert.equal(read.body.code, 'svc_ticket_not_found');
      assert.ok(!(await listedIds('customer1')).includes(ticketId));
      const reply = await as('customer1').post(`${API}/tickets/${ticketId}/messages`).send({ body: 'Hi, it is me.', version: 1 });
      assert.equal(reply.status, 404, reply.text);
      const reopen = await as('customer1').patch(`${API}/tickets/${ticketId}`).send({ status: 'open', version: 1 });
      assert.equal(reopen.status, 404, reopen.text);
      const meta = await site.db.knex(site.db.tables.usermeta).where({ user_id: seeded.users.customer1, meta_key: '_new_email' }).first('meta_value');
      assert.ok(String(meta?.meta_value).includes(asked), 'the request waits for the address to confirm it');
    });
  }

  it('gives ticket 5 to the account whose new address confirmed the link, whatever the case of the address', async () => {
    await confirmEmail('customer2', 'Priya.Patel@Example.ORG');
    const read = await as('customer2').get(`${API}/tickets/5`);
    assert.equal(read.status, 200, read.text);
    assert.ok((await listedIds('customer2')).includes(5));
  });

  describe('an address that only looks like the account email', () => {
    const lookalikes: Array<[string, string]> = [
      ['fullwidth letter', '\uff43ustomer1@example.test'],
      ['fullwidth digit (NFKC folds it to 1)', 'customer\uff11@example.test'],
      ['Cyrillic es', '\u0441ustomer1@example.test'],
      ['long s (equal to s under MySQL collations)', 'cu\u017ftomer1@example.test'],
      ['trailing space (ignored by PAD SPACE collations)', 'customer1@example.test '],
      ['decomposed accent (NFD of an address customer1 does not hold)', 'customer1@exa\u0301mple.test'],
    ];
    const planted: Record<string, number> = {};
    let sameAddressOtherCase = 0;

    before(async () => {
      for (const [name, email] of lookalikes) planted[name] = await accountlessTicket(email, `Lookalike: ${name}`);
      sameAddressOtherCase = await accountlessTicket('CUSTOMER1@EXAMPLE.TEST', 'Same address, other case');
    });

    for (const [name] of lookalikes) {
      it(`does not give customer1 a ticket of the ${name} form, in the list or by ID`, async () => {
        const id = planted[name] as number;
        assert.ok(!(await listedIds('customer1')).includes(id));
        const read = await as('customer1').get(`${API}/tickets/${id}`);
        assert.equal(read.status, 404, read.text);
      });
    }

    it('still gives customer1 a ticket of their own address in other letter case, in the list and by ID', async () => {
      assert.ok((await listedIds('customer1')).includes(sameAddressOtherCase));
      const read = await as('customer1').get(`${API}/tickets/${sameAddressOtherCase}`);
      assert.equal(read.status, 200, read.text);
    });

    it('does not give a ticket of a Kelvin-sign address to the owner of the plain k address', async () => {
      await confirmEmail('customer2', 'kim@example.test');
      const kelvin = await accountlessTicket('\u212aim@example.test', 'Kelvin sign');
      const plain = await accountlessTicket('Kim@example.test', 'Plain k');
      const listed = await listedIds('customer2');
      assert.ok(!listed.includes(kelvin));
      assert.ok(listed.includes(plain));
      assert.equal((await as('customer2').get(`${API}/tickets/${kelvin}`)).status, 404);
      assert.equal((await as('customer2').get(`${API}/tickets/${plain}`)).status, 200);
    });
  });
});
