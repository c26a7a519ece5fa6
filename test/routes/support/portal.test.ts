/**
 * The customer portal's sign-in (docs/portal.md): codes emailed through the job queue to a real SMTP
 * server and read back from the delivered email, the code and session limits on the injected clock,
 * sign-out, the portal switch, and the listed origins.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { JobWorker } from '../../../lib/jobs/worker';
import { PORTAL_LIMITS } from '../../../lib/support/portal/limits';
import { createConnectedSite } from '../../../lib/support/sites/admin';
import { updateSite } from '../../../lib/support/sites/store';
import { createApp } from '../../../lib/app';
import { jobHandlers } from '../../../lib/worker';
import { TestSite, jobsOf, openTestSite } from '../../harness/site';
import { SmtpCapture, startSmtpCapture } from '../../harness/smtp';
import { API } from '../../harness/support';
import { assertRestError } from '../../harness/wp-http';

const SHOP = 'https://shop.example';

/** A REST error as WordPress shapes it (the portal's CORS adds X-Svc-Portal to the allowed headers). */

describe('support/v1 portal sign-in', function () {
  let t: TestSite;
  let smtp: SmtpCapture;
  let siteId: string;
  let postId: number;
  let n = 0;

  before(async () => {
    smtp = await startSmtpCapture();
    t = await openTestSite({ smtpUrl: smtp.url });
    const issued = await createConnectedSite(t.site, { name: 'Shop', origins: [SHOP], portal: true, messageHint: 'Include your order number.', customerCanReopen: false });
    siteId = issued.site.siteId;
    postId = issued.site.postId;
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });
  beforeEach(async () => {
    // A new hour for every test: earlier tests' requests do not count, and their codes have expired.
    t.clock.advance(3600 * 1000);
    await runJobs();
    smtp.clear();
  });

  const base = (id = siteId) => `${API}/sites/${id}/portal`;
  const uniqueEmail = () => `customer${++n}@example.net`;
  const advance = (seconds: number) => t.clock.advance(seconds * 1000);
  const runJobs = () => new JobWorker(t.site, { handlers: jobHandlers() }).runDueJobs();
  const askCode = (email: string, origin = SHOP) => request(t.app).post(`${base()}/code`).set('Origin', origin).send({ email });
  const signIn = (email: string, code: string) => request(t.app).post(`${base()}/session`).set('Origin', SHOP).send({ email, code });

  /** Sends a code and returns it as the delivered email shows it. */
  async function deliveredCode(email: string): Promise<string> {
    const before = smtp.sentEmails().filter((m) => m.envelopeTo.includes(email)).length;
    const res = await askCode(email);
    assert.equal(res.status, 202, res.text);
    await runJobs();
    const mail = await eventually(() => smtp.sentEmails().filter((m) => m.envelopeTo.includes(email))[before]);
    const code = /\b(\d{6})\b/.exec(mail.parsed.text ?? '')?.[1];
    assert.ok(code, mail.parsed.text || 'no text');
    return code;
  }
  async function eventually<T>(get: () => T | undefined): Promise<T> {
    for (let i = 0; i < 200; i++) {
      const value = get();
      if (value !== undefined) return value;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('no email arrived');
  }
  const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  it('GET config: the name, new tickets, message limit and hint, resolve and reopen, the site\'s time zone', async () => {
    const res = await request(t.app).get(`${base()}/config`).set('Origin', SHOP);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {
      site_name: 'Shop', new_tickets: true, message_limit: 5000, message_hint: 'Include your order number.', customer_can_resolve: true, customer_can_reopen: false,
      time_zone: '+00:00',
    });
    // The zone the portal reads ticket dates (site-local, as WordPress stores post_date) in: wp_timezone_string().
    await t.site.options.update('gmt_offset', '5.5');
    try {
      assert.equal((await request(t.app).get(`${base()}/config`).set('Origin', SHOP)).body.time_zone, '+05:30');
      await t.site.options.update('timezone_string', 'Europe/Berlin');
      assert.equal((await request(t.app).get(`${base()}/config`).set('Origin', SHOP)).body.time_zone, 'Europe/Berlin');
    } finally {
      await t.site.options.update('timezone_string', '');
      await t.site.options.update('gmt_offset', '0');
    }
    assert.equal(res.headers['access-control-allow-origin'], SHOP);
    assert.equal(res.headers['access-control-allow-credentials'], undefined);
    assert.match(res.headers.vary, /Origin/);
    assert.match(res.headers['access-control-allow-headers'], /X-Svc-Portal/);
  });

  it('signs in with the code read from the delivered email, and DELETE revokes the token at once', async () => {
    const email = uniqueEmail();
    const res = await askCode(email);
    assert.equal(res.status, 202, res.text);
    // Nothing is sent before the worker runs; the job and the table hold no code in clear.
    assert.equal(smtp.sentEmails().length, 0);
    const [job] = await jobsOf(t.site, 'portal_code_email').orderBy('id', 'desc');
    await runJobs();
    const mail = await eventually(() => smtp.sentEmails().find((m) => m.envelopeTo.includes(email)));
    const code = /\b(\d{6})\b/.exec(mail!.parsed.text ?? '')![1]!;
    assert.equal(mail!.parsed.headers.get('auto-submitted'), 'auto-generated');
    assert.ok(!String(job?.payload).includes(code));
    const stored = await t.site.db.knex(t.site.db.tables.plugin('svc', 'portal_codes')).where({ site_id: siteId, email }).first();
    assert.ok(stored && !String(stored.code_hash).includes(code) && String(stored.code_hash).length === 64);

    const session = await signIn(email, code);
    assert.equal(session.status, 201, session.text);
    const token: string = session.body.token;
    assert.equal(Buffer.from(token, 'base64url').length, 32);
    const rows = await t.site.db.knex(t.site.db.tables.plugin('svc', 'portal_sessions')).where({ site_id: siteId, email });
    assert.equal(rows.length, 1);
    assert.notEqual(rows[0].token_hash, token);
    // The code is spent.
    assertRestError(await signIn(email, code), 400, 'svc_portal_invalid_code');

    const out = await request(t.app).delete(`${base()}/session`).set('Origin', SHOP).set('X-Svc-Portal', token);
    assert.equal(out.status, 200, out.text);
    assertRestError(await request(t.app).delete(`${base()}/session`).set('X-Svc-Portal', token), 401, 'svc_portal_session_invalid');
    assertRestError(await request(t.app).delete(`${base()}/session`).set('Authorization', `Bearer ${token}`), 401, 'svc_portal_session_invalid');
  });

  it('known and unknown addresses get the same answer', async () => {
    const a = await askCode('admin@example.test');
    const b = await askCode(uniqueEmail());
    assert.equal(a.status, b.status);
    assert.deepEqual(a.body, b.body);
  });

  it('the 6th wrong code fails even with the right code, and a resend does not reset the count', async () => {
    const email = uniqueEmail();
    const first = await deliveredCode(email);
    for (let i = 0; i < 3; i++) assertRestError(await signIn(email, wrongCode(first)), 400, 'svc_portal_invalid_code');
    advance(PORTAL_LIMITS.resendSeconds);
    const second = await deliveredCode(email);
    // The old code no longer works; it counts as a wrong try (the 4th).
    assertRestError(await signIn(email, first === second ? wrongCode(second) : first), 400, 'svc_portal_invalid_code');
    assertRestError(await signIn(email, wrongCode(second)), 400, 'svc_portal_invalid_code');
    assertRestError(await signIn(email, second), 400, 'svc_portal_invalid_code');
  });

  it('four wrong codes, then the right one (the 5th try): signs in', async () => {
    const email = uniqueEmail();
    const code = await deliveredCode(email);
    for (let i = 0; i < 4; i++) assertRestError(await signIn(email, wrongCode(code)), 400, 'svc_portal_invalid_code');
    assert.equal((await signIn(email, code)).status, 201);
  });

  it('a code is useless after 10 minutes', async () => {
    const email = uniqueEmail();
    const code = await deliveredCode(email);
    advance(PORTAL_LIMITS.codeTtlSeconds);
    assertRestError(await signIn(email, code), 400, 'svc_portal_invalid_code');
  });

  it('a token is useless after 30 days from sign-in', async () => {
    const a = uniqueEmail();
    const b = uniqueEmail();
    const first = (await signIn(a, await deliveredCode(a))).body.token;
    const second = (await signIn(b, await deliveredCode(b))).body.token;
    advance(PORTAL_LIMITS.sessionTtlSeconds - 1);
    assert.equal((await request(t.app).delete(`${base()}/session`).set('X-Svc-Portal', first)).status, 200);
    advance(1);
    assertRestError(await request(t.app).delete(`${base()}/session`).set('Authorization', `Bearer ${second}`), 401, 'svc_portal_session_invalid');
  });

  it('a sign-in sweeps expired codes and sessions away, and keeps live ones', async () => {
    const [stale, pending, live, late] = [uniqueEmail(), uniqueEmail(), uniqueEmail(), uniqueEmail()];
    await deliveredCode(stale);
    const old = (await signIn(live, await deliveredCode(live))).body.token;
    advance(PORTAL_LIMITS.sessionTtlSeconds);
    await deliveredCode(pending);
    const kept = (await signIn(late, await deliveredCode(late))).body.token;
    const rows = async (table: string) => (await t.site.db.knex(t.site.db.tables.plugin('svc', table)).where({ site_id: siteId }).select('email'))
      .map((r: { email: string }) => r.email);
    assert.deepEqual(await rows('portal_codes'), [pending]);
    assert.deepEqual(await rows('portal_sessions'), [late]);
    assertRestError(await request(t.app).delete(`${base()}/session`).set('X-Svc-Portal', old), 401, 'svc_portal_session_invalid');
    assert.equal((await request(t.app).delete(`${base()}/session`).set('X-Svc-Portal', kept)).status, 200);
  });

  it('60 s between sends, 5 codes per address and site per hour: 429 with Retry-After', async () => {
    const email = uniqueEmail();
    assert.equal((await askCode(email)).status, 202);
    const soon = await askCode(email);
    assertRestError(soon, 429, 'rest_too_many_requests');
    assert.equal(soon.headers['retry-after'], '60');
    advance(30);
    assert.equal((await askCode(email)).headers['retry-after'], '30');
    advance(30);
    // 3 requests counted so far (the refused ones too); two more codes are allowed this hour.
    for (let i = 0; i < 2; i++) {
      assert.equal((await askCode(email)).status, 202);
      advance(PORTAL_LIMITS.resendSeconds);
    }
    const sixth = await askCode(email);
    assertRestError(sixth, 429, 'rest_too_many_requests');
    assert.ok(Number(sixth.headers['retry-after']) > 0);
  });

  it('concurrent first requests for one address send one code; the others are 429', async () => {
    const email = uniqueEmail();
    const answers = await Promise.all(Array.from({ length: 4 }, () => askCode(email)));
    assert.deepEqual(answers.map((r) => r.status).sort(), [202, 429, 429, 429], answers.map((r) => r.text).join('\n'));
    assert.equal((await jobsOf(t.site, 'portal_code_email')).filter((j: Record<string, any>) => String(j.payload).includes(email)).length, 1);
  });

  it('20 code requests per visitor address per hour', async () => {
    for (let i = 0; i < PORTAL_LIMITS.codesPerIpHour; i++) assert.equal((await askCode(uniqueEmail())).status, 202);
    const res = await askCode(uniqueEmail());
    assertRestError(res, 429, 'rest_too_many_requests');
    assert.ok(Number(res.headers['retry-after']) > 0);
  });

  it('10 sign-in tries per visitor address per 10 minutes', async () => {
    const email = uniqueEmail();
    const code = await deliveredCode(email);
    for (let i = 0; i < PORTAL_LIMITS.signInsPerIp; i++) assertRestError(await signIn(uniqueEmail(), '000000'), 400, 'svc_portal_invalid_code');
    const res = await signIn(email, code);
    assertRestError(res, 429, 'rest_too_many_requests');
    assert.ok(Number(res.headers['retry-after']) > 0);
    advance(PORTAL_LIMITS.signInWindowSeconds);
    assertRestError(await signIn(email, code), 400, 'svc_portal_invalid_code');
  });

  it('an unlisted origin is refused and named nowhere', async () => {
    const res = await askCode(uniqueEmail(), 'https://evil.example');
    assertRestError(res, 403, 'rest_origin_not_allowed');
    assert.equal(res.headers['access-control-allow-origin'], undefined);
    assert.match(res.headers.vary, /Origin/);
    const config = await request(t.app).get(`${base()}/config`).set('Origin', 'http://shop.example');
    assertRestError(config, 403, 'rest_origin_not_allowed');
  });

  it('portal off: 404 portal_disabled on every route, before anything else', async () => {
    const email = uniqueEmail();
    const { body } = await signIn(email, await deliveredCode(email));
    await updateSite(t.site, postId, { portal: false });
    try {
      for (const [res, origin] of [
        [await request(t.app).get(`${base()}/config`).set('Origin', SHOP), SHOP],
        [await request(t.app).post(`${base()}/code`).set('Origin', SHOP).send({ email }), SHOP],
        [await request(t.app).post(`${base()}/code`).set('Origin', 'https://evil.example').send({}), undefined],
        [await request(t.app).post(`${base()}/session`).set('Origin', SHOP).send({ email, code: '123456' }), SHOP],
        [await request(t.app).delete(`${base()}/session`).set('X-Svc-Portal', body.token), undefined],
        [await request(t.app).delete(`${base()}/session`), undefined],
      ] as const) {
        assertRestError(res, 404, 'portal_disabled');
        assert.match(res.headers.vary, /Origin/);
        // A listed page can read why (its origin is named); any other is named nowhere.
        assert.equal(res.headers['access-control-allow-origin'], origin);
      }
    } finally {
      await updateSite(t.site, postId, { portal: true });
    }
    // The session was not touched: back on, it still works.
    assert.equal((await request(t.app).delete(`${base()}/session`).set('X-Svc-Portal', body.token)).status, 200);
  });

  it('refuses an address WordPress would not accept, and a missing code', async () => {
    assertRestError(await askCode('not an address'), 400, 'rest_invalid_param');
    assertRestError(await request(t.app).post(`${base()}/session`).set('Origin', SHOP).send({ email: uniqueEmail() }), 400, 'rest_missing_callback_param');
  });

  it('answers preflights from a listed origin with X-Svc-Portal allowed and no credentials', async () => {
    const res = await request(t.app).options(`${base()}/session`).set('Origin', SHOP).set('Access-Control-Request-Method', 'DELETE');
    assert.equal(res.headers['access-control-allow-origin'], SHOP);
    assert.equal(res.headers['access-control-allow-credentials'], undefined);
    assert.match(res.headers['access-control-allow-headers'], /X-Svc-Portal/);
    const other = await request(t.app).options(`${base()}/session`).set('Origin', 'https://evil.example').set('Access-Control-Request-Method', 'DELETE');
    assert.equal(other.headers['access-control-allow-origin'], undefined);
    assert.doesNotMatch(other.headers['access-control-allow-headers'] ?? '', /X-Svc-Portal/);
  });

  it('an unknown site is 404 svc_site_not_found', async () => {
    assertRestError(await request(t.app).get(`${base('zzzzzzzzzzzz')}/config`), 404, 'svc_site_not_found');
  });

  it('refuses sending and spending codes while writes are refused (OBJECT_CACHE_UNKNOWN=refuse-writes), changing nothing', async () => {
    const email = uniqueEmail();
    const code = await deliveredCode(email);
    const stored = () => t.site.db.knex(t.site.db.tables.plugin('svc', 'portal_codes')).where({ site_id: siteId, email }).first();
    const pending = await stored();
    const jobs = (await jobsOf(t.site, 'portal_code_email')).length;
    const refusing = createApp(await t.openAnother({
      config: { objectCache: { setting: { kind: 'unknown', reason: 'a drop-in nothing covers' }, foundBy: 'this test', onUncovered: 'refuse-writes' } },
    }));
    advance(PORTAL_LIMITS.resendSeconds);
    const again = await request(refusing).post(`${base()}/code`).set('Origin', SHOP).send({ email });
    assertRestError(again, 503, 'understudy_writes_refused');
    const spend = await request(refusing).post(`${base()}/session`).set('Origin', SHOP).send({ email, code });
    assertRestError(spend, 503, 'understudy_writes_refused');
    assert.deepEqual(await stored(), pending);
    assert.equal((await jobsOf(t.site, 'portal_code_email')).length, jobs);
    // The code was neither replaced nor spent: it still signs in where writes are taken.
    assert.equal((await signIn(email, code)).status, 201);
  });
});
