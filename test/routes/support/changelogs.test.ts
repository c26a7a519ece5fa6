/**
 * GET /support/v1/changelogs and /changelogs/<product> (docs/changelogs.md): the product list, one
 * product's releases newest first by version with page/per_page/stable/since and WordPress's
 * collection headers, sanitized notes, and releases the PHP site writes straight into the tables.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { createProduct } from '../../../lib/support/changelogs/admin';
import { parseChangelog } from '../../../lib/support/changelogs/parse';
import { Product, releaseHeads, releasesOf } from '../../../lib/support/changelogs/store';
import { storeViews } from '../../../lib/support/changelogs/views';
import { upsertReleases } from '../../../lib/support/changelogs/writes';
import { API } from '../../harness/support';
import { OracleSite, openOracle, phpConnection } from '../../harness/oracle';
import { assertRestError } from '../../harness/wp-http';

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, '../../fixtures/changelogs', name), 'utf8');

describe('GET /support/v1/changelogs', function () {
  let oracle: OracleSite;
  let widget: Product;

  before(async () => {
    oracle = await openOracle();
    widget = await createProduct(oracle.site, { name: 'Acme Widget', slug: 'widget', type: 'library', url: 'https://acme.example/widget' });
    await upsertReleases(oracle.site, widget.postId, parseChangelog(fixture('keep-a-changelog.md')).releases);
    const nightly = await createProduct(oracle.site, { name: 'Acme Nightly' });
    await upsertReleases(oracle.site, nightly.postId, parseChangelog('## 3.0.0-beta.2\n- b\n\n## 3.0.0-alpha.1\n- a\n').releases);
    await createProduct(oracle.site, { name: 'Empty One', slug: 'empty' });
    // As a sync leaves them: each release's view stored, so no read here depends on the worker
    // rendering within a read's wait (changelogs-pathological.test.ts covers releases without one).
    const { db } = oracle.site;
    await storeViews(oracle.site, await releasesOf(db, await releaseHeads(db, [widget.postId, nightly.postId], true)));
  });
  after(() => oracle.close());

  const get = (p: string) => request(oracle.app).get(`${API}${p}`);
  const versions = (res: request.Response) => (res.body as Array<{ version: string }>).map((r) => r.version);

  it('lists every product: slug, name, type, url, latest (newest stable, else newest), releases, feed', async () => {
    const res = await get('/changelogs');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, [
      { slug: 'acme-nightly', name: 'Acme Nightly', type: 'plugin', url: '', latest: '3.0.0-beta.2', releases: 2, feed: 'http://127.0.0.1:8081/changelog/acme-nightly/feed/' },
      { slug: 'empty', name: 'Empty One', type: 'plugin', url: '', latest: null, releases: 0, feed: 'http://127.0.0.1:8081/changelog/empty/feed/' },
      { slug: 'widget', name: 'Acme Widget', type: 'library', url: 'https://acme.example/widget', latest: '2.0.0', releases: 6, feed: 'http://127.0.0.1:8081/changelog/widget/feed/' },
    ]);
  });

  it('answers a product\'s releases newest first by version, each in the contract\'s shape', async () => {
    const res = await get('/changelogs/widget');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(versions(res), ['2.0.0', '2.0.0-rc.1', '2.0.0-beta.10', '2.0.0-beta.2', '1.4.1', '1.4.0']);
    assert.deepEqual([res.headers['x-wp-total'], res.headers['x-wp-totalpages']], ['6', '1']);
    const [major] = res.body;
    assert.deepEqual(Object.keys(major), ['version', 'date', 'stability', 'url', 'summary', 'changes', 'html']);
    assert.deepEqual([major.date, major.stability, major.url], ['2026-03-02', 'stable', 'https://github.com/acme/widget/compare/v1.4.1...v2.0.0']);
    assert.equal(major.summary, 'Version 2 moves the widget to a web component.');
    assert.deepEqual(major.changes[2], { type: 'changed', text: 'The minimum Node.js version is now 20.' });
    assert.match(major.html, /^<p>Version 2 moves the widget to a web component.<\/p>\n<h3>Added<\/h3>/);
    assert.equal(res.body[1].stability, 'pre-release');
  });

  it('pages as WordPress collections do: per_page, page, X-WP-Total, X-WP-TotalPages, Link', async () => {
    const res = await get('/changelogs/widget?per_page=2&page=2');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(versions(res), ['2.0.0-beta.10', '2.0.0-beta.2']);
    assert.deepEqual([res.headers['x-wp-total'], res.headers['x-wp-totalpages']], ['6', '3']);
    assert.match(res.headers.link, /<[^>]*changelogs\/widget\?per_page=2&page=1>; rel="prev"/);
    assert.match(res.headers.link, /<[^>]*changelogs\/widget\?per_page=2&page=3>; rel="next"/);
    assert.deepEqual(versions(await get('/changelogs/widget?per_page=4&page=2')), ['1.4.1', '1.4.0']);
    assert.equal((await get('/changelogs/widget')).body.length, 6, 'default per_page is 10');
  });

  it('refuses per_page outside 1-50 and a page past the last', async () => {
    assertRestError(await get('/changelogs/widget?per_page=51'), 400, 'rest_invalid_param');
    assertRestError(await get('/changelogs/widget?per_page=0'), 400, 'rest_invalid_param');
    assert.equal((await get('/changelogs/widget?per_page=50')).status, 200);
    assertRestError(await get('/changelogs/widget?per_page=2&page=4'), 400, 'rest_post_invalid_page_number');
    const empty = await get('/changelogs/empty');
    assert.deepEqual([empty.status, empty.body, empty.headers['x-wp-total']], [200, [], '0']);
  });

  it('hides pre-releases with stable=true or stable=1', async () => {
    for (const value of ['true', '1']) {
      const res = await get(`/changelogs/widget?stable=${value}`);
      assert.deepEqual(versions(res), ['2.0.0', '1.4.1', '1.4.0'], value);
      assert.equal(res.headers['x-wp-total'], '3');
    }
    assert.equal((await get('/changelogs/widget?stable=false')).body.length, 6);
    assertRestError(await get('/changelogs/widget?stable=maybe'), 400, 'rest_invalid_param');
  });

  it('answers only versions newer than since, pre-releases ordered', async () => {
    assert.deepEqual(versions(await get('/changelogs/widget?since=1.4.1')), ['2.0.0', '2.0.0-rc.1', '2.0.0-beta.10', '2.0.0-beta.2']);
    assert.deepEqual(versions(await get('/changelogs/widget?since=2.0.0-beta.2')), ['2.0.0', '2.0.0-rc.1', '2.0.0-beta.10']);
    assert.deepEqual(versions(await get('/changelogs/widget?since=v1.4&stable=1')), ['2.0.0', '1.4.1']);
    assert.deepEqual(versions(await get('/changelogs/widget?since=2.0.0')), []);
    const bad = assertRestError(await get('/changelogs/widget?since=latest'), 400, 'rest_invalid_param');
    assert.ok(bad.data.params.since);
  });

  it('answers 404 for a product that does not exist', async () => {
    assertRestError(await get('/changelogs/no-such-product'), 404, 'svc_changelog_not_found');
  });

  it('shows a release the PHP site writes into the tables at once, and not once it is unpublished', async () => {
    const php = phpConnection(oracle);
    try {
      // As a PHP admin screen may write it: the title and the notes, no Understudy meta.
      const [id] = await php('wp_posts').insert({
        post_author: 1, post_date: '2026-04-01 09:00:00', post_date_gmt: '2026-04-01 09:00:00', post_content: '- Adds <b>themes</b>.\n- <script>alert(1)</script>Fixes RTL.',
        post_title: 'v2.1.0', post_excerpt: '', post_status: 'publish', comment_status: 'closed', ping_status: 'closed', post_password: '', post_name: '2-1-0',
        to_ping: '', pinged: '', post_modified: '2026-04-01 09:00:00', post_modified_gmt: '2026-04-01 09:00:00', post_content_filtered: '', post_parent: widget.postId,
        guid: '', menu_order: 0, post_type: 'svc_release', post_mime_type: '', comment_count: 0,
      });
      const res = await get('/changelogs/widget?per_page=1');
      assert.deepEqual(res.body[0], {
        version: '2.1.0', date: '2026-04-01', stability: 'stable', url: '', summary: 'Adds themes.',
        changes: [{ type: null, text: 'Adds themes.' }, { type: null, text: 'Fixes RTL.' }],
        html: '<ul>\n<li>Adds <b>themes</b>.</li>\n<li>Fixes RTL.</li>\n</ul>',
      });
      const widgetRow = (await get('/changelogs')).body.find((p: { slug: string }) => p.slug === 'widget');
      assert.deepEqual([widgetRow.latest, widgetRow.releases], ['2.1.0', 7]);
      await php('wp_posts').where({ ID: id }).update({ post_status: 'draft' });
      assert.deepEqual(versions(await get('/changelogs/widget?per_page=1')), ['2.0.0']);
      await php('wp_posts').where({ ID: id }).del();
    } finally {
      await php.destroy();
    }
  });
});
