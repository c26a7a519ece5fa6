/**
 * POST /support/v1/sites/<site-id>/tickets (docs/sites.md): tickets from a connected site's server
 * (site key) and from browsers on its listed addresses (no key), with the body limits, CORS, the
 * per-address rate limit shared by two processes, and what is stored and shown to whom.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { Express } from 'express';
import request from 'supertest';
import { buildSurface, createApp } from '../../../lib/app';
import { parseTrustedProxies } from '../../../lib/wp/http/trusted-proxies';
import { memoryLogger } from '../../../lib/logger';
import { createConnectedSite, rotateSiteKey } from '../../../lib/support/sites/admin';
import { uploadsDirOf } from '../../../lib/support/tickets/attachments';
import { connect } from '../../../lib/wp/db/database';
import { Tables } from '../../../lib/wp/db/tables';
import { PhpValue, toPlain, unserialize } from '../../../lib/wp/php';
import { Site, createSite } from '../../../lib/wp/site';
import { API, as } from '../../harness/support';
import { OracleSite, credentials, openOracle, oracleConfig } from '../../harness/oracle';
import { turnTeamAlertsOn } from '../../harness/site';
import { assertRestError } from '../../harness/wp-http';

const SHOP = 'https://shop.example';
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6300010000050001' + '0d0a2db40000000049454e44ae426082', 'hex');
const HTML = Buffer.from('<html><script>alert(document.cookie)</script></html>');

describe('POST /support/v1/sites/<site-id>/tickets', function () {
  let oracle: OracleSite;
  let siteId: string;
  let key: string;
  let twin: { site: Site; app: Express } | null = null;

  before(async () => {
    oracle = await openOracle();
    await turnTeamAlertsOn(oracle.site);
    const issued = await createConnectedSite(oracle.site, { name: 'Shop', origins: [SHOP, 'http://localhost:3000'] });
    siteId = issued.site.siteId;
    key = issued.key;
  });
  after(async () => {
    await twin?.site.close();
    fs.rmSync(uploadsDirOf(oracle.site.config), { recursive: true, force: true });
    await oracle.close();
  });

  /** Every keyless test starts in an hour of its own, so earlier tests' requests do not count against it. */
  const freshHour = () => oracle.clock.advance(3600 * 1000);

  const url = (id = siteId) => `${API}/sites/${id}/tickets`;
  const post = (app: Express = oracle.app, id = siteId) => request(app).post(url(id));
  const fields = (extra: Record<string, unknown> = {}) => ({
    email: 'visitor@example.net', name: 'Vera Visitor', subject: 'Where is my order?', message: 'Order 1234 has not arrived.', ...extra,
  });
  const tickets = async () => Number(((await oracle.site.db.knex('wp_posts').where({ post_type: 'svc_ticket' }).count({ n: '*' }))[0] as { n: number }).n);
  const metaOf = async (id: number) => Object.fromEntries((await oracle.site.db.knex('wp_postmeta').where({ post_id: id }))
    .map((m: { meta_key: string; meta_value: string }) => [m.meta_key, m.meta_value]));

  describe('from the site\'s server (site key)', () => {
    it('opens a ticket with Authorization: Bearer: source site, the site-id, the customer without an account, a team alert', async () => {
      const res = await post().set('Authorization', `Bearer ${key}`).send(fields({ page_url: 'https://shop.example/orders/1234' }));
      assert.equal(res.status, 201, res.text);
      assert.match(res.headers.location, new RegExp(`/wp-json/support/v1/tickets/${res.body.id}$`));
      assert.deepEqual(Object.keys(res.body), ['id', 'subject', 'status', 'priority', 'source', 'customer_name', 'customer_email', 'created_at', 'updated_at', 'version', 'messages']);
      assert.deepEqual([res.body.source, res.body.status, res.body.customer_email, res.body.customer_name], ['site', 'open', 'visitor@example.net', 'Vera Visitor']);
      assert.deepEqual(res.body.messages.map((m: { body: string; author: unknown }) => [m.body, m.author]), [['Order 1234 has not arrived.', { name: 'Vera Visitor', kind: 'customer' }]]);
      assert.equal(res.headers['cache-control'], 'private, no-store');
      const row = await oracle.site.db.knex('wp_posts').where({ ID: res.body.id }).first();
      assert.deepEqual([row.post_type, row.post_status, Number(row.post_author), row.post_title], ['svc_ticket', 'svc-open', 0, 'Where is my order?']);
      assert.deepEqual(await metaOf(res.body.id), {
        _svc_priority: 'normal', _svc_source: 'site', _svc_customer_name: 'Vera Visitor', _svc_customer_email: 'visitor@example.net',
        _svc_version: '1', _svc_site_id: siteId, _svc_page_url: 'https://shop.example/orders/1234',
      });
      const job = await oracle.site.db.knex('wp_svc_jobs').where({ kind: 'team_alert' }).orderBy('id', 'desc').first();
      assert.deepEqual(JSON.parse(job.payload), { event: 'ticket_created', ticket_id: res.body.id, message_id: res.body.messages[0].id });
    });

    it('takes the key in X-Svc-Key too, and always opens a new ticket', async () => {
      const first = await post().set('X-Svc-Key', key).send(fields());
      const second = await post().set('X-Svc-Key', key).send(fields());
      assert.equal(first.status, 201, first.text);
      assert.equal(second.status, 201, second.text);
      assert.notEqual(first.body.id, second.body.id);
    });

    it('refuses a wrong or empty key (401) and an unknown site (404), storing nothing', async () => {
      const before = await tickets();
      assertRestError(await post().set('Authorization', `Bearer ${'0'.repeat(64)}`).send(fields()), 401, 'svc_invalid_site_key');
      assertRestError(await post().set('X-Svc-Key', 'nope').send(fields()), 401, 'svc_invalid_site_key');
      assertRestError(await post().set('Authorization', 'Bearer').send(fields()), 401, 'svc_invalid_site_key');
      assertRestError(await post(oracle.app, 'zzzzzzzzzzzz').set('Authorization', `Bearer ${key}`).send(fields()), 404, 'svc_site_not_found');
      // post_name compares case-insensitively on MySQL: only the exact site-id is the site.
      assertRestError(await post(oracle.app, siteId.toUpperCase()).set('Authorization', `Bearer ${key}`).send(fields()), 404, 'svc_site_not_found');
      assertRestError(await post(oracle.app, 'short').set('Authorization', `Bearer ${key}`).send(fields()), 400, 'rest_invalid_param');
      assert.equal(await tickets(), before);
    });

    it('stops taking the old key at once when the key is rotated', async () => {
      const { siteId: id, key: old } = await (async () => {
        const made = await createConnectedSite(oracle.site, { name: 'Rotating' });
        return { siteId: made.site.siteId, key: made.key };
      })();
      assert.equal((await post(oracle.app, id).set('Authorization', `Bearer ${old}`).send(fields())).status, 201);
      const { key: fresh } = await rotateSiteKey(oracle.site, id);
      assertRestError(await post(oracle.app, id).set('Authorization', `Bearer ${old}`).send(fields()), 401, 'svc_invalid_site_key');
      assert.equal((await post(oracle.app, id).set('Authorization', `Bearer ${fresh}`).send(fields())).status, 201);
    });

    it('accepts up to 8 MiB and refuses more with 413', async () => {
      const big = Buffer.alloc(5 * 1024 * 1024, 7).toString('base64'); // about 6.7 MiB of JSON
      const ok = await post().set('Authorization', `Bearer ${key}`).send(fields({ attachments: [{ filename: 'dump.bin', data: big }] }));
      assert.equal(ok.status, 201, ok.text.slice(0, 200));
      const before = await tickets();
      const tooBig = Buffer.alloc(7 * 1024 * 1024, 7).toString('base64'); // about 9.3 MiB
      const refused = await post().set('Authorization', `Bearer ${key}`).send(fields({ attachments: [{ filename: 'dump.bin', data: tooBig }] }));
      assertRestError(refused, 413, 'rest_payload_too_large');
      assert.equal(refused.body.data.max_bytes, 8 * 1024 * 1024);
      assert.equal(await tickets(), before);
    });

    it('keeps page_url as WordPress keeps a format: uri field (esc_url_raw): no ", <, > or backtick in what agents see', async () => {
      const sent = 'https://shop.example/orders/1?q="><script>alert(1)</script>&x=`y`#[top]';
      const res = await post().set('Authorization', `Bearer ${key}`).send(fields({ page_url: sent }));
      assert.equal(res.status, 201, res.text);
      const kept = 'https://shop.example/orders/1?q=scriptalert(1)/script&x=y#%5Btop%5D';
      assert.equal((await metaOf(res.body.id))._svc_page_url, kept);
      assert.equal((await as(oracle.app, 'agent1').get(`${API}/tickets/${res.body.id}`)).body.page_url, kept);
    });

    it('keeps metadata and shows it to agents, never in the customer\'s answer or view', async () => {
      const metadata = { plan: 'pro', account: { id: 42, tags: ['vip', 'beta'] }, path: '/a/b' };
      const res = await post().set('Authorization', `Bearer ${key}`).send(fields({ email: 'customer1@example.test', metadata, page_url: 'https://shop.example/help' }));
      assert.equal(res.status, 201, res.text);
      assert.ok(!('metadata' in res.body) && !('page_url' in res.body) && !('site_id' in res.body));
      assert.ok(!res.text.includes('vip'), 'nothing of the metadata in the answer');
      // Stored as PHP stores an array in postmeta: serialized.
      const stored = (await metaOf(res.body.id))._svc_site_metadata as string;
      assert.match(stored, /^a:3:\{s:4:"plan";s:3:"pro";/);
      assert.deepEqual(toPlain(unserialize(stored) as PhpValue), metadata);
      const agent = await as(oracle.app, 'agent1').get(`${API}/tickets/${res.body.id}`);
      assert.equal(agent.status, 200);
      assert.deepEqual(agent.body.metadata, metadata);
      assert.equal(agent.body.page_url, 'https://shop.example/help');
      assert.equal(agent.body.site_id, siteId);
      const customer = await as(oracle.app, 'customer1').get(`${API}/tickets/${res.body.id}`);
      assert.equal(customer.status, 200);
      assert.ok(!('metadata' in customer.body) && !('page_url' in customer.body) && !('site_id' in customer.body));
      const asCustomer = await as(oracle.app, 'agent1').get(`${API}/tickets/${res.body.id}`).set('X-Svc-View', 'customer');
      assert.deepEqual(asCustomer.body, customer.body);
      assert.deepEqual(Object.keys(res.body), Object.keys(customer.body), 'the answer is the customer\'s view');
    });

    it('refuses metadata larger than 16 KiB of JSON, and metadata that is not an object', async () => {
      const before = await tickets();
      assertRestError(await post().set('Authorization', `Bearer ${key}`).send(fields({ metadata: { blob: 'x'.repeat(17 * 1024) } })), 400, 'svc_metadata_too_large');
      assertRestError(await post().set('Authorization', `Bearer ${key}`).send(fields({ metadata: 'text' })), 400, 'rest_invalid_param');
      assert.equal(await tickets(), before);
    });

    it('types base64 attachments by their bytes: HTML named x.png is never an image', async () => {
      const res = await post().set('Authorization', `Bearer ${key}`).send(fields({
        attachments: [
          { filename: 'screen.png', content_type: 'image/png', data: PNG.toString('base64') },
          { filename: 'x.png', content_type: 'image/png', data: HTML.toString('base64') },
          { filename: 'notes.txt', data: Buffer.from('plain notes').toString('base64') },
        ],
      }));
      assert.equal(res.status, 201, res.text);
      const files = res.body.messages[0].attachments;
      assert.deepEqual(files.map((f: { filename: string; mime_type: string }) => [f.filename, f.mime_type]), [
        ['screen.png', 'image/png'], ['x.png', 'application/octet-stream'], ['notes.txt', 'application/octet-stream'],
      ]);
      const disguised = await as(oracle.app, 'agent1').get(`${API}/tickets/${res.body.id}/attachments/${files[1].id}?inline=1`).buffer(true);
      assert.match(disguised.headers['content-disposition'], /^attachment;/);
      assert.equal(disguised.headers['content-type'], 'application/octet-stream');
      assert.deepEqual(disguised.body, HTML);
      const png = await as(oracle.app, 'agent1').get(`${API}/tickets/${res.body.id}/attachments/${files[0].id}?inline=1`).buffer(true);
      assert.equal(png.headers['content-type'], 'image/png');
      assert.deepEqual(png.body, PNG);
    });

    it('refuses data that is not base64, more than 10 files, a file without a name and uploaded files; nothing stored', async () => {
      const before = await tickets();
      assertRestError(await post().set('Authorization', `Bearer ${key}`).send(fields({ attachments: [{ filename: 'a', data: 'not base64!' }] })), 400, 'svc_invalid_attachment');
      const eleven = Array.from({ length: 11 }, (_, i) => ({ filename: `f${i}.txt`, data: 'YQ==' }));
      assertRestError(await post().set('Authorization', `Bearer ${key}`).send(fields({ attachments: eleven })), 400, 'rest_invalid_param');
      assertRestError(await post().set('Authorization', `Bearer ${key}`).send(fields({ attachments: [{ data: 'YQ==' }] })), 400, 'rest_invalid_param');
      const multipart = post().set('Authorization', `Bearer ${key}`);
      for (const [field, value] of Object.entries(fields())) multipart.field(field, String(value));
      assertRestError(await multipart.attach('file', PNG, { filename: 'a.png', contentType: 'image/png' }), 400, 'svc_attachments_base64_only');
      assert.equal(await tickets(), before);
    });

    it('opens tickets while the site\'s new tickets are closed, and past its message limit', async () => {
      const made = await createConnectedSite(oracle.site, { name: 'Closed', origins: ['https://closed.example'], newTickets: false, messageLimit: 10 });
      const res = await post(oracle.app, made.site.siteId).set('Authorization', `Bearer ${made.key}`).send(fields({ message: 'A message longer than ten characters.' }));
      assert.equal(res.status, 201, res.text);
    });
  });

  describe('from a browser (no key)', () => {
    it('opens a ticket for a listed origin, naming exactly it in CORS, without credentials', async () => {
      freshHour();
      const res = await post().set('Origin', SHOP).send(fields());
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.source, 'site');
      assert.equal(res.headers['access-control-allow-origin'], SHOP);
      assert.equal(res.headers['access-control-allow-credentials'], undefined);
      assert.equal(res.headers.vary, 'Origin');
      assert.equal((await metaOf(res.body.id))._svc_site_id, siteId);
      const other = await post().set('Origin', 'http://localhost:3000').send(fields());
      assert.equal(other.status, 201, other.text);
      assert.equal(other.headers['access-control-allow-origin'], 'http://localhost:3000');
    });

    it('refuses unlisted, look-alike and null origins, and a request with neither key nor Origin; nothing stored', async () => {
      freshHour();
      const before = await tickets();
      for (const origin of ['https://evil.example', 'https://shop.example.evil.test', 'http://shop.example', 'https://shop.example:8443', 'null', 'https://SHOP.example']) {
        const res = await post().set('Origin', origin).send(fields());
        assertRestError(res, 403, 'rest_origin_not_allowed');
        assert.equal(res.headers['access-control-allow-origin'], undefined, origin);
        assert.equal(res.headers['access-control-allow-credentials'], undefined, origin);
        assert.equal(res.headers.vary, 'Origin', origin);
      }
      assertRestError(await post().send(fields()), 401, 'svc_site_key_required');
      // An unknown site lists nothing, so a browser is refused at the origin stage.
      assertRestError(await post(oracle.app, 'zzzzzzzzzzzz').set('Origin', SHOP).send(fields()), 403, 'rest_origin_not_allowed');
      assert.equal(await tickets(), before);
    });

    it('answers preflights: CORS for a listed origin (no credentials), none for others; always Vary', async () => {
      const preflight = (origin: string) => request(oracle.app).options(url()).set('Origin', origin)
        .set('Access-Control-Request-Method', 'POST').set('Access-Control-Request-Headers', 'content-type');
      const listed = await preflight(SHOP);
      assert.equal(listed.status, 200);
      assert.equal(listed.headers['access-control-allow-origin'], SHOP);
      assert.match(listed.headers['access-control-allow-methods'], /POST/);
      assert.match(listed.headers['access-control-allow-headers'], /Content-Type/);
      assert.equal(listed.headers['access-control-allow-credentials'], undefined);
      assert.equal(listed.headers.vary, 'Origin');
      for (const origin of ['https://evil.example', 'null']) {
        const other = await preflight(origin);
        assert.equal(other.headers['access-control-allow-origin'], undefined, origin);
        assert.equal(other.headers['access-control-allow-credentials'], undefined, origin);
        assert.equal(other.headers.vary, 'Origin', origin);
      }
    });

    it('varies on Origin in every answer of the route, with an Origin header or without', async () => {
      freshHour();
      const answers = [
        await post().set('Authorization', `Bearer ${key}`).send(fields()),
        await post().set('Authorization', 'Bearer wrong').send(fields()),
        await post(oracle.app, 'zzzzzzzzzzzz').set('Authorization', `Bearer ${key}`).send(fields()),
        await post().set('Authorization', `Bearer ${key}`).send({}),
        await post().send(fields()),
        await post().send({ pad: 'x'.repeat(70 * 1024) }),
        await request(oracle.app).get(url()),
        await request(oracle.app).options(url()),
      ];
      assert.deepEqual(answers.map((r) => r.status), [201, 401, 404, 400, 401, 413, 404, 200]);
      for (const res of answers) {
        assert.equal(res.headers.vary, 'Origin', `${res.status} ${res.text.slice(0, 80)}`);
        assert.equal(res.headers['access-control-allow-credentials'], undefined);
      }
    });

    it('takes at most 64 KiB without a key, even from a listed Origin (413, nothing stored); the key allows more', async () => {
      freshHour();
      const before = await tickets();
      // 66 KB of JSON, but a message within what a ticket message holds (65,535 characters).
      const body = fields({ message: 'é'.repeat(33 * 1024) });
      const refused = await post().set('Origin', SHOP).send(body);
      assertRestError(refused, 413, 'rest_payload_too_large');
      assert.equal(refused.body.data.max_bytes, 64 * 1024);
      assert.equal(refused.headers['access-control-allow-origin'], SHOP, 'a listed origin can read why');
      assert.equal(await tickets(), before);
      const keyed = await post().set('Authorization', `Bearer ${key}`).send(body);
      assert.equal(keyed.status, 201, keyed.text.slice(0, 200));
      // A header that only looks like a key is refused (401) before its body is read.
      assertRestError(await post().set('X-Svc-Key', 'guess').send(body), 401, 'svc_invalid_site_key');
      assert.equal(await tickets(), before + 1);
    });

    it('refuses metadata and attachments from a browser, honours closed new tickets and the message limit', async () => {
      freshHour();
      const before = await tickets();
      const metadata = await post().set('Origin', SHOP).send(fields({ metadata: { a: 1 } }));
      assertRestError(metadata, 403, 'svc_site_key_needed');
      assertRestError(await post().set('Origin', SHOP).send(fields({ attachments: [{ filename: 'a.txt', data: 'YQ==' }] })), 403, 'svc_site_key_needed');
      const made = await createConnectedSite(oracle.site, { name: 'Limited', origins: ['https://limited.example'], messageLimit: 10 });
      const long = await post(oracle.app, made.site.siteId).set('Origin', 'https://limited.example').send(fields({ message: 'Eleven char' }));
      assertRestError(long, 400, 'svc_message_too_long');
      assert.equal(long.body.data.max_length, 10);
      assert.equal((await post(oracle.app, made.site.siteId).set('Origin', 'https://limited.example').send(fields({ message: 'Ten chars!' }))).status, 201);
      const closed = await createConnectedSite(oracle.site, { name: 'Closed', origins: ['https://closed.example'], newTickets: false });
      assertRestError(await post(oracle.app, closed.site.siteId).set('Origin', 'https://closed.example').send(fields()), 403, 'svc_new_tickets_closed');
      assert.equal(await tickets(), before + 1);
    });

    it('allows 10 keyless requests per hour per address, whatever the Origin, shared by two processes; then 429 with Retry-After', async () => {
      freshHour();
      const config = oracleConfig(oracle.scratch);
      const db = connect({ target: config.db, tables: new Tables({ prefix: config.tablePrefix }) });
      const site = createSite(config, db, oracle.clock, memoryLogger());
      twin = { site, app: createApp(site) };
      const before = await tickets();
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) {
        // Origin is only a claim outside a browser: a script sending a listed one is counted all the same.
        const res = await post(i % 2 ? twin.app : oracle.app).set('Origin', i % 3 ? SHOP : 'http://localhost:3000').send(fields({ subject: `Burst ${i}` }));
        statuses.push(res.status);
      }
      assert.deepEqual(statuses, Array(10).fill(201));
      for (const app of [oracle.app, twin.app]) {
        const refused = await post(app).set('Origin', SHOP).send(fields());
        const body = assertRestError(refused, 429, 'rest_too_many_requests');
        assert.ok(Number(refused.headers['retry-after']) > 0);
        assert.equal(body.data.retry_after, Number(refused.headers['retry-after']));
        assert.equal(refused.headers['access-control-allow-origin'], SHOP);
        assert.equal(refused.headers.vary, 'Origin');
      }
      assert.equal(await tickets(), before + 10);
      // The site's server is not a visitor: its requests are neither counted nor refused.
      assert.equal((await post(twin.app).set('Authorization', `Bearer ${key}`).send(fields())).status, 201);
      oracle.clock.advance(3600 * 1000);
      assert.equal((await post().set('Origin', SHOP).send(fields())).status, 201, 'a new hour');
    });

    it('counts an IPv6 visitor behind a trusted proxy by the /64: another address of it is the same visitor', async () => {
      freshHour();
      const behindProxy = createApp(oracle.site, buildSurface(), { trustedProxies: parseTrustedProxies('127.0.0.1, ::1') });
      const from = (address: string) => post(behindProxy).set('Origin', SHOP).set('X-Forwarded-For', address).send(fields());
      for (let i = 1; i <= 10; i++) assert.equal((await from(`2001:db8:7:1::${i.toString(16)}`)).status, 201);
      assertRestError(await from('2001:db8:7:1:ffff:ffff:ffff:fffe'), 429, 'rest_too_many_requests');
      assert.equal((await from('2001:db8:7:2::1')).status, 201, 'the next /64 is another visitor');
    });
  });

  describe('the customer', () => {
    it('is linked to the WordPress user with that email (ASCII case aside), who sees the ticket in their list', async () => {
      freshHour();
      const customer1 = credentials.application_passwords.customer1.user_id as number;
      const res = await post().set('Origin', SHOP).send(fields({ email: 'Customer1@Example.TEST', name: 'C One', subject: 'From the shop page' }));
      assert.equal(res.status, 201, res.text);
      const row = await oracle.site.db.knex('wp_posts').where({ ID: res.body.id }).first();
      assert.equal(Number(row.post_author), customer1);
      // The answer shows what was sent, never the account's own details.
      assert.deepEqual([res.body.customer_email, res.body.customer_name], ['Customer1@Example.TEST', 'C One']);
      const list = await as(oracle.app, 'customer1').get(`${API}/tickets?search=${encodeURIComponent('From the shop page')}`);
      assert.equal(list.status, 200);
      assert.deepEqual(list.body.map((t: { id: number }) => t.id), [res.body.id]);
      const other = await as(oracle.app, 'customer2').get(`${API}/tickets/${res.body.id}`);
      assertRestError(other, 404, 'svc_ticket_not_found');
    });

    it('writes the message as a customer\'s even when the address is an agent\'s', async () => {
      const res = await post().set('Authorization', `Bearer ${key}`).send(fields({ email: credentials.users.agent1.email }));
      assert.equal(res.status, 201, res.text);
      assert.equal(Number((await oracle.site.db.knex('wp_posts').where({ ID: res.body.id }).first()).post_author), credentials.users.agent1.id);
      assert.equal(res.body.messages[0].author.kind, 'customer');
      const meta = await oracle.site.db.knex('wp_postmeta').where({ post_id: res.body.messages[0].id, meta_key: '_svc_author_kind' }).first();
      assert.equal(meta.meta_value, 'customer');
    });
  });
});
