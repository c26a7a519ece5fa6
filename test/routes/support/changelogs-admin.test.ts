/**
 * The internal changelog routes (docs/changelogs.md): POST /changelogs/admin/parse and probe for
 * users who can edit docs, POST /changelogs/admin/<id>/sync for users who can edit that changelog
 * (both map onto svc_manage: managers and administrators), against a real HTTP source.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { createProduct } from '../../../lib/support/changelogs/admin';
import { Product } from '../../../lib/support/changelogs/store';
import { parseOutgoingAllow } from '../../../lib/wp/http/outgoing-allow';
import { API, as } from '../../harness/support';
import { Listening, listen } from '../../harness/http';
import { OracleSite, openOracle } from '../../harness/oracle';
import { assertRestError } from '../../harness/wp-http';

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, '../../fixtures/changelogs', name), 'utf8');

describe('POST /support/v1/changelogs/admin/…', function () {
  let oracle: OracleSite;
  let server: Listening;
  let product: Product;

  before(async () => {
    server = await listen((req, res) => {
      if (req.url === '/readme.txt') return void res.writeHead(200, { 'Content-Type': 'text/plain' }).end(fixture('readme.txt'));
      if (req.url === '/down') return void res.writeHead(500).end('oops');
      res.writeHead(404).end('not here');
    });
    // The suite's source is on loopback: the operator's setting lets this one port through.
    oracle = await openOracle({ outgoingAllow: parseOutgoingAllow(`127.0.0.1:${new URL(server.url).port}`) });
    product = await createProduct(oracle.site, { name: 'Acme Contact Forms', source: `${server.url}/readme.txt`, kind: 'readme' });
  });
  after(async () => {
    await server.close();
    await oracle.close();
  });

  const releaseCount = async (id: number) => Number(((await oracle.site.db.knex('wp_posts').where({ post_type: 'svc_release', post_parent: id }).count({ n: '*' }))[0] as { n: number }).n);

  describe('parse', () => {
    it('answers the releases of pasted text, newest first, in the public shape', async () => {
      const res = await as(oracle.app, 'manager1').post(`${API}/changelogs/admin/parse`).send({ text: fixture('readme-oldest-first.txt') });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.format, 'readme');
      assert.deepEqual(res.body.releases.map((r: { version: string }) => r.version), ['1.10', '1.9', '1.2', '1.1', '1.0']);
      assert.deepEqual(res.body.releases[0], {
        version: '1.10', date: null, stability: 'stable', url: '', summary: "Works with the block editor's site editor.",
        changes: [{ type: null, text: "Works with the block editor's site editor." }], html: "<ul>\n<li>Works with the block editor&#039;s site editor.</li>\n</ul>",
      });
      assert.equal(res.headers['cache-control'], 'private, no-store');
    });

    it('is for users who can edit docs: managers and administrators, not agents, editors or customers', async () => {
      const send = (login: 'admin' | 'agent1' | 'editor1' | 'customer1') => as(oracle.app, login).post(`${API}/changelogs/admin/parse`).send({ text: '= 1.0 =\n* x' });
      assert.equal((await send('admin')).status, 200);
      assertRestError(await send('agent1'), 403, 'rest_forbidden');
      assertRestError(await send('editor1'), 403, 'rest_forbidden');
      assertRestError(await send('customer1'), 403, 'rest_forbidden');
      assertRestError(await request(oracle.app).post(`${API}/changelogs/admin/parse`).send({ text: 'x' }), 401, 'rest_forbidden');
    });

    it('keeps a release page as WordPress keeps a URL (esc_url_raw): no ", < or > left in it', async () => {
      const text = [
        '## [1.2.0](https://example.com/r?a="<b>") - 2026-01-05', '### Added', '- One.', '',
        '## [1.1.0] - 2025-12-01', '### Fixed', '- Two.', '',
        '[1.1.0]: https://example.com/compare/1.0...1.1"><img/src=x>',
      ].join('\n');
      const res = await as(oracle.app, 'manager1').post(`${API}/changelogs/admin/parse`).send({ text });
      assert.deepEqual(res.body.releases.map((r: { url: string }) => r.url), ['https://example.com/r?a=b', 'https://example.com/compare/1.0...1.1img/src=x']);
    });

    it('needs text', async () => {
      assertRestError(await as(oracle.app, 'manager1').post(`${API}/changelogs/admin/parse`).send({}), 400, 'rest_missing_callback_param');
    });
  });

  describe('probe', () => {
    it('says what a source holds, or why it cannot be read, and saves nothing', async () => {
      const posts = async () => Number(((await oracle.site.db.knex('wp_posts').count({ n: '*' }))[0] as { n: number }).n);
      const before = await posts();
      const found = await as(oracle.app, 'manager1').post(`${API}/changelogs/admin/probe`).send({ url: `${server.url}/readme.txt` });
      assert.equal(found.status, 200, found.text);
      assert.deepEqual(found.body, { ok: true, url: `${server.url}/readme.txt`, kind: 'readme', format: 'readme', count: 5, newest: ['3.10.1', '3.10.0', '3.10.0-beta.1', '3.9.2', '3.9.0'] });
      const down = await as(oracle.app, 'manager1').post(`${API}/changelogs/admin/probe`).send({ url: `${server.url}/down` });
      assert.deepEqual(down.body, { ok: false, url: `${server.url}/down`, error: { code: 'http_status', message: 'The source answered HTTP 500.', status: 500 } });
      assert.equal(await posts(), before);
    });

    it('refuses a URL that is not http or https, and an unknown kind', async () => {
      const bad = assertRestError(await as(oracle.app, 'manager1').post(`${API}/changelogs/admin/probe`).send({ url: 'file:///etc/passwd' }), 400, 'rest_invalid_param');
      assert.match(bad.data.params.url, /Only http and https/);
      assertRestError(await as(oracle.app, 'manager1').post(`${API}/changelogs/admin/probe`).send({ url: `${server.url}/x`, kind: 'svn' }), 400, 'rest_invalid_param');
      assertRestError(await as(oracle.app, 'agent1').post(`${API}/changelogs/admin/probe`).send({ url: `${server.url}/readme.txt` }), 403, 'rest_forbidden');
    });
  });

  describe('<id>/sync', () => {
    it('syncs now, idempotently: the second time adds nothing', async () => {
      const first = await as(oracle.app, 'manager1').post(`${API}/changelogs/admin/${product.postId}/sync`);
      assert.equal(first.status, 200, first.text);
      assert.deepEqual([first.body.ok, first.body.found, first.body.added, first.body.updated], [true, 5, 5, 0]);
      assert.deepEqual(Object.keys(first.body), ['at', 'ok', 'message', 'found', 'added', 'updated']);
      const second = await as(oracle.app, 'admin').post(`${API}/changelogs/admin/${product.postId}/sync`);
      assert.deepEqual([second.body.added, second.body.updated], [0, 0]);
      assert.equal(await releaseCount(product.postId), 5);
      const list = await request(oracle.app).get(`${API}/changelogs/${product.slug}?per_page=2`);
      assert.deepEqual(list.body.map((r: { version: string }) => r.version), ['3.10.1', '3.10.0']);
    });

    it('answers 502 for a failing source, changes no release, and keeps the failure as the last sync', async () => {
      const failing = await createProduct(oracle.site, { name: 'Down Product', source: `${server.url}/down` });
      const res = await as(oracle.app, 'manager1').post(`${API}/changelogs/admin/${failing.postId}/sync`);
      const body = assertRestError(res, 502, 'svc_changelog_source_failed', 'The source answered HTTP 500.');
      assert.equal(body.data.reason, 'http_status');
      assert.equal(body.data.last_sync.ok, false);
      assert.equal(await releaseCount(failing.postId), 0);
      const missing = await createProduct(oracle.site, { name: 'Gone Product', source: `${server.url}/gone` });
      assertRestError(await as(oracle.app, 'manager1').post(`${API}/changelogs/admin/${missing.postId}/sync`), 502, 'svc_changelog_source_failed', 'The source answered HTTP 404.');
    });

    it('refuses a product without a source (400), an unknown one (404), and users who cannot edit it', async () => {
      const manual = await createProduct(oracle.site, { name: 'Manual Product' });
      assertRestError(await as(oracle.app, 'manager1').post(`${API}/changelogs/admin/${manual.postId}/sync`), 400, 'svc_changelog_no_source');
      assertRestError(await as(oracle.app, 'manager1').post(`${API}/changelogs/admin/999999/sync`), 404, 'rest_post_invalid_id');
      // A ticket is no changelog.
      const ticket = await oracle.site.db.knex('wp_posts').where({ post_type: 'svc_ticket' }).first('ID');
      assertRestError(await as(oracle.app, 'manager1').post(`${API}/changelogs/admin/${ticket.ID}/sync`), 404, 'rest_post_invalid_id');
      assertRestError(await as(oracle.app, 'agent1').post(`${API}/changelogs/admin/${product.postId}/sync`), 403, 'rest_forbidden');
      assertRestError(await as(oracle.app, 'editor1').post(`${API}/changelogs/admin/${product.postId}/sync`), 403, 'rest_forbidden');
      assertRestError(await request(oracle.app).post(`${API}/changelogs/admin/${product.postId}/sync`), 401, 'rest_forbidden');
    });
  });
});
