/**
 * The opt-in submission limit of `frm_form_submit` (`frm_settings`: `submit_limit` per
 * `submit_limit_window` minutes, per form and address), for sites whose cached pages cannot carry the
 * nonce: off by default; N allowed, then 429 in the plugin's error shape with Retry-After; counted per
 * address and per form, spam included, in the database, so two app instances over it share the count.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { createApp } from '../../../lib/app';
import { unixSeconds } from '../../../lib/wp/clock';
import { connect } from '../../../lib/wp/db/database';
import { Tables } from '../../../lib/wp/db/tables';
import { PhpArray } from '../../../lib/wp/php';
import { Site, createSite } from '../../../lib/wp/site';
import { FormSite, insertFormRow, openFormSite, submissionRows } from '../../harness/forms';

const LIMIT = 3;
const WINDOW_SECONDS = 10 * 60;
const REFUSED = '{"message":{"type":"error","text":"Too many submissions from your address. Please try again later."}}';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: any;
}

/** A server for an app, on loopback, so requests can come from other loopback addresses (127.0.0.2…). */
async function listen(app: http.RequestListener): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** POSTs a form-encoded submission to admin-ajax.php from `from` (the address the site sees). */
function post(port: number, fields: Record<string, string>, from = '127.0.0.1'): Promise<Answer> {
  const body = new URLSearchParams({ action: 'frm_form_submit', ...fields }).toString();
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1', port, path: '/wp-admin/admin-ajax.php', method: 'POST', localAddress: from, agent: false,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(body) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: JSON.parse(text) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('frm_form_submit submission limit (frm_settings.submit_limit)', function () {
  let fs: FormSite;
  let main: { server: http.Server; port: number };
  let twin: { site: Site; server: http.Server; port: number } | undefined;
  let formA: number;
  let formB: number;
  let window = 0;

  before(async () => {
    fs = await openFormSite();
    main = await listen(fs.app);
    formA = await insertFormRow(fs.site, { settings: { required_fields: 'name' } });
    formB = await insertFormRow(fs.site, { settings: { required_fields: 'name' }, messages: { rate_limited: 'Slow down, please.' } });
  });
  after(async () => {
    for (const s of [main, twin]) if (s) await new Promise((resolve) => s.server.close(resolve));
    await twin?.site.close();
    await fs.close();
  });

  /** Puts the clock `offset` seconds into a window of the limit that no earlier test has used. */
  function freshWindow(offset = 0): number {
    window += 1;
    const now = unixSeconds(fs.clock);
    const start = now - (now % WINDOW_SECONDS) + window * WINDOW_SECONDS;
    fs.clock.set((start + offset) * 1000);
    return start;
  }
  const valid = (id: number, extra: Record<string, string> = {}) => ({ _frm_form_id: String(id), [`_frm_h${id}`]: '', name: 'Ada', ...extra });
  const spam = (id: number) => valid(id, { [`_frm_h${id}`]: 'http://spam.example' });
  const limitRows = () => fs.site.db.knex(fs.site.db.tables.plugin('svc', 'rate_limits')).where('bucket', 'like', 'frm_submit:%');

  it('is off by default: a site without the settings takes every submission and counts nothing', async () => {
    freshWindow();
    for (let i = 0; i < LIMIT * 4; i++) assert.equal((await post(main.port, valid(formA))).body.message.type, 'success', `submission ${i + 1}`);
    assert.deepEqual(await limitRows(), []);
    assert.equal((await submissionRows(fs.site, formA)).length, LIMIT * 4);
  });

  describe('when the site sets it', () => {
    before(async () => {
      await fs.site.options.update('frm_settings', new PhpArray([['enable_nonce', '0'], ['submit_limit', String(LIMIT)], ['submit_limit_window', '10']]));
    });

    it(`allows ${LIMIT} submissions per address, then answers 429 in the plugin's shape with Retry-After, storing nothing`, async () => {
      const start = freshWindow(10);
      const before = (await submissionRows(fs.site, formA)).length;
      for (let i = 0; i < LIMIT; i++) {
        const res = await post(main.port, valid(formA));
        assert.equal(res.status, 200, `submission ${i + 1}`);
        assert.equal(res.body.message.type, 'success');
        assert.equal(res.headers['retry-after'], undefined);
      }
      const refused = await post(main.port, valid(formA));
      assert.equal(refused.status, 429);
      assert.match(String(refused.headers['content-type']), /^application\/json; charset=UTF-8/);
      assert.equal(refused.text, REFUSED);
      assert.equal(refused.headers['retry-after'], String(WINDOW_SECONDS - 10));
      assert.equal((await submissionRows(fs.site, formA)).length, before + LIMIT, 'the refused one is not stored');
      const detailed = await post(main.port, valid(formA, { _frm_detail: '1' }));
      assert.deepEqual([detailed.status, detailed.body], [429, { message: JSON.parse(REFUSED).message, error: 'rate_limited' }]);
      fs.clock.advance(100 * 1000);
      assert.equal((await post(main.port, valid(formA))).headers['retry-after'], String(WINDOW_SECONDS - 110), 'the time left in the window');
      fs.clock.set((start + WINDOW_SECONDS) * 1000);
      assert.equal((await post(main.port, valid(formA))).body.message.type, 'success', 'a new window');
    });

    it("answers with the form's own rate_limited message when it has one", async () => {
      freshWindow();
      for (let i = 0; i < LIMIT; i++) await post(main.port, valid(formB));
      const refused = await post(main.port, valid(formB));
      assert.equal(refused.status, 429);
      assert.equal(refused.text, '{"message":{"type":"error","text":"Slow down, please."}}');
    });

    it('counts each address and each form on its own', async () => {
      freshWindow();
      for (let i = 0; i < LIMIT; i++) await post(main.port, valid(formA));
      assert.equal((await post(main.port, valid(formA))).status, 429);
      assert.equal((await post(main.port, valid(formA), '127.0.0.2')).status, 200, 'another address');
      assert.equal((await post(main.port, valid(formB))).status, 200, 'another form, same address');
      const buckets = (await limitRows()).map((r: Record<string, unknown>) => r.bucket).sort();
      assert.ok(buckets.includes(`frm_submit:${formA}:127.0.0.1`) && buckets.includes(`frm_submit:${formA}:127.0.0.2`), buckets.join());
    });

    it("counts spam: it uses up the address's allowance, and past the limit it is answered as a success but not stored", async () => {
      freshWindow();
      const from = '127.0.0.3';
      const spamBefore = (await submissionRows(fs.site, formA)).filter((r) => r.is_spam === 1).length;
      for (let i = 0; i < LIMIT + 2; i++) {
        const res = await post(main.port, spam(formA), from);
        assert.deepEqual([res.status, res.body.message.type], [200, 'success'], `spam ${i + 1}`);
      }
      const spamAfter = (await submissionRows(fs.site, formA)).filter((r) => r.is_spam === 1).length;
      assert.equal(spamAfter - spamBefore, LIMIT, 'only the spam within the limit is recorded');
      assert.equal((await post(main.port, valid(formA), from)).text, REFUSED, 'a real-looking submission from that address is refused');
    });

    it('does not count a submission that fails validation, and tells a limited visitor what to fix first', async () => {
      freshWindow();
      const from = '127.0.0.4';
      for (let i = 0; i < LIMIT * 2; i++) {
        const res = await post(main.port, valid(formA, { name: '' }), from);
        assert.equal(res.text, '{"message":{"type":"error","text":"Please fill in the required fields."}}');
      }
      for (let i = 0; i < LIMIT; i++) assert.equal((await post(main.port, valid(formA), from)).status, 200, `submission ${i + 1}`);
      const typo = await post(main.port, valid(formA, { name: '' }), from);
      assert.deepEqual([typo.status, typo.body.message.text], [200, 'Please fill in the required fields.']);
      assert.equal((await post(main.port, valid(formA), from)).status, 429);
    });

    it('keeps the count in the database, shared by two app instances over it', async () => {
      const start = freshWindow(5);
      const { config } = fs.site;
      const twinSite = createSite(config, connect({ target: config.db, tables: new Tables({ prefix: config.tablePrefix }) }), fs.clock, fs.logger);
      twin = { site: twinSite, ...(await listen(createApp(twinSite))) };
      assert.notEqual(twinSite.db, fs.site.db, 'a second connection');
      const from = '127.0.0.5';
      const statuses = [];
      for (const port of [main.port, twin.port, main.port, twin.port, main.port]) statuses.push((await post(port, valid(formA), from)).status);
      assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
      const row = await twinSite.db.knex(twinSite.db.tables.plugin('svc', 'rate_limits')).where({ bucket: `frm_submit:${formA}:${from}`, window_start: start }).first();
      assert.equal(Number(row?.hits), 5, 'one counter for both, refused submissions included');
      assert.equal(Number(row?.expires_at), start + WINDOW_SECONDS);
    });

    it('counts a concurrent burst on both instances exactly', async () => {
      freshWindow();
      assert.ok(twin, 'the twin of the previous test');
      const ports = [main.port, (twin as { port: number }).port];
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => post(ports[i % 2] as number, valid(formB), '127.0.0.6')));
      assert.deepEqual(answers.map((a) => a.status).sort(), [...Array(LIMIT).fill(200), ...Array(8 - LIMIT).fill(429)]);
    });
  });
});
