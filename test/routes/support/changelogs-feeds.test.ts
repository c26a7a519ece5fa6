/**
 * Changelog feeds (docs/changelogs.md): RSS 2.0 at /changelog/<product>/feed/, Atom at …/feed/atom/,
 * JSON Feed at …/feed/json/, parsed back with an XML parser; a stable `updated` (the newest release
 * date, not the time of the request), ETag and Last-Modified with 304, and notes that never carry a
 * script into a feed.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import request from 'supertest';
import { createProduct } from '../../../lib/support/changelogs/admin';
import { parseChangelog } from '../../../lib/support/changelogs/parse';
import { Product, releaseHeads, releasesOf } from '../../../lib/support/changelogs/store';
import { storeViews } from '../../../lib/support/changelogs/views';
import { upsertReleases } from '../../../lib/support/changelogs/writes';
import { OracleSite, openOracle, phpConnection } from '../../harness/oracle';

const fixture = (name: string) => fs.readFileSync(path.join(__dirname, '../../fixtures/changelogs', name), 'utf8');
const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' });

/** Every text and attribute value in a parsed document. */
function allValues(node: unknown): string[] {
  if (node === null || node === undefined) return [];
  if (typeof node !== 'object') return [String(node)];
  return Object.values(node as Record<string, unknown>).flatMap(allValues);
}

describe('changelog feeds', function () {
  let oracle: OracleSite;
  let widget: Product;

  before(async () => {
    oracle = await openOracle();
    widget = await createProduct(oracle.site, { name: 'Acme <Widget> & Co', slug: 'widget', url: 'https://acme.example/widget' });
    await upsertReleases(oracle.site, widget.postId, parseChangelog(fixture('keep-a-changelog.md')).releases);
    const hostile = await createProduct(oracle.site, { name: 'Hostile', slug: 'hostile' });
    await upsertReleases(oracle.site, hostile.postId, parseChangelog(fixture('hostile.md')).releases);
    // As a sync leaves them: each release's view stored, so the feeds' checks do not race the render
    // worker on a loaded machine (changelogs-pathological.test.ts covers releases without a view).
    const { db } = oracle.site;
    await storeViews(oracle.site, await releasesOf(db, await releaseHeads(db, [widget.postId, hostile.postId], true)));
  });
  after(() => oracle.close());

  const get = (p: string) => request(oracle.app).get(p).buffer(true).parse((res, done) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => { text += chunk; });
    res.on('end', () => done(null, text));
  });

  it('serves RSS 2.0 at the product\'s feed URL: the releases newest first by version, HTML notes, escaped titles', async () => {
    const res = await get('/changelog/widget/feed/');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'application/rss+xml; charset=UTF-8');
    const channel = xml.parse(res.body).rss.channel;
    assert.equal(channel.title, 'Acme <Widget> & Co changelog');
    assert.equal(channel.link, 'https://acme.example/widget');
    assert.equal(channel.lastBuildDate, 'Mon, 02 Mar 2026 00:00:00 GMT');
    const items = channel.item as Array<Record<string, any>>;
    assert.deepEqual(items.map((i) => i.title), [
      'Acme &lt;Widget&gt; &amp; Co 2.0.0', 'Acme &lt;Widget&gt; &amp; Co 2.0.0-rc.1 (pre-release)', 'Acme &lt;Widget&gt; &amp; Co 2.0.0-beta.10 (pre-release)',
      'Acme &lt;Widget&gt; &amp; Co 2.0.0-beta.2 (pre-release)', 'Acme &lt;Widget&gt; &amp; Co 1.4.1', 'Acme &lt;Widget&gt; &amp; Co 1.4.0',
    ], 'titles are HTML in RSS: the name is escaped once');
    assert.equal(items[0]?.pubDate, 'Mon, 02 Mar 2026 00:00:00 GMT');
    assert.equal(items[0]?.link, 'https://github.com/acme/widget/compare/v1.4.1...v2.0.0');
    assert.match(items[0]?.['content:encoded'], /<h3>Deprecated<\/h3>\n<ul>\n<li>The jQuery plugin; it will be removed in 3.0.<\/li>/);
    assert.equal(items[0]?.description, 'Version 2 moves the widget to a web component.');
    // Also at …/feed/rss2/, as WordPress names it.
    assert.equal((await get('/changelog/widget/feed/rss2/')).body, res.body);
  });

  it('serves Atom with the newest release date as updated, and JSON Feed', async () => {
    const atom = await get('/changelog/widget/feed/atom/');
    assert.equal(atom.headers['content-type'], 'application/atom+xml; charset=UTF-8');
    const feed = xml.parse(atom.body).feed;
    assert.equal(feed.updated, '2026-03-02T00:00:00.000Z');
    assert.equal(feed.title, 'Acme <Widget> & Co changelog');
    assert.equal(feed.entry.length, 6);
    assert.equal(feed.entry[5].updated, '2025-11-15T00:00:00.000Z');
    assert.equal(feed.entry[0].content['@type'], 'html');
    assert.match(feed.entry[0].content['#text'], /<li>Support for Internet Explorer 11.<\/li>/);
    const json = await get('/changelog/widget/feed/json/');
    assert.equal(json.headers['content-type'], 'application/feed+json; charset=UTF-8');
    const doc = JSON.parse(json.body);
    assert.deepEqual(doc.items.map((i: { title: string }) => i.title).slice(0, 2), ['Acme <Widget> & Co 2.0.0', 'Acme <Widget> & Co 2.0.0-rc.1 (pre-release)']);
    assert.equal(doc.version, 'https://jsonfeed.org/version/1.1', 'JSON Feed 1.1, as docs/changelogs.md says');
    assert.equal((await get('/changelog/widget/feed/xml/')).status, 404);
    assert.equal((await get('/changelog/no-such/feed/')).status, 404);
  });

  it('dates undated releases by their order, never by the sync that first saw them', async () => {
    const product = await createProduct(oracle.site, { name: 'Readme', slug: 'readme-dated-by-order' });
    await upsertReleases(oracle.site, product.postId, [
      { version: '2.0.0', date: '2026-03-02', notes: 'Two.', url: null },
      { version: '1.5.0', date: null, notes: 'Undated, between.', url: null },
      { version: '1.0.0', date: '2026-01-05', notes: 'One.', url: null },
    ]);
    // An old release the source adds later, undated: first seen a month after 2.0.0 came out.
    oracle.clock.advance(30 * 86_400_000);
    await upsertReleases(oracle.site, product.postId, [{ version: '0.9.0', date: null, notes: 'Old, undated.', url: null }]);
    const items = xml.parse((await get('/changelog/readme-dated-by-order/feed/')).body).rss.channel.item as Array<Record<string, string>>;
    assert.deepEqual(items.map((i) => [i.title, i.pubDate]), [
      ['Readme 2.0.0', 'Mon, 02 Mar 2026 00:00:00 GMT'],
      ['Readme 1.5.0', 'Mon, 05 Jan 2026 00:00:01 GMT'],
      ['Readme 1.0.0', 'Mon, 05 Jan 2026 00:00:00 GMT'],
      ['Readme 0.9.0', 'Sun, 04 Jan 2026 23:59:59 GMT'],
    ]);
    const newest = Math.max(...items.map((i) => Date.parse(i.pubDate as string)));
    assert.equal(newest, Date.parse('2026-03-02T00:00:00Z'), 'the newest version is the newest item');
    const json = JSON.parse((await get('/changelog/readme-dated-by-order/feed/json/')).body);
    assert.equal(json.items[3].date_published, '2026-01-04T23:59:59.000Z');
    // The API still says the changelog gave no date.
    const api = await request(oracle.app).get('/wp-json/support/v1/changelogs/readme-dated-by-order');
    assert.deepEqual(api.body.map((r: { version: string; date: string | null }) => [r.version, r.date]),
      [['2.0.0', '2026-03-02'], ['1.5.0', null], ['1.0.0', '2026-01-05'], ['0.9.0', null]]);
  });

  it('answers the same bytes and ETag later on (updated is no request time), and 304 to If-None-Match and If-Modified-Since', async () => {
    const first = await get('/changelog/widget/feed/atom/');
    oracle.clock.advance(3600 * 1000);
    const second = await get('/changelog/widget/feed/atom/');
    assert.equal(second.body, first.body);
    assert.ok(first.headers.etag && first.headers.etag === second.headers.etag);
    assert.ok(first.headers['last-modified']);
    const byTag = await get('/changelog/widget/feed/atom/').set('If-None-Match', first.headers.etag);
    assert.deepEqual([byTag.status, byTag.body, byTag.headers.etag], [304, '', first.headers.etag]);
    const byDate = await get('/changelog/widget/feed/atom/').set('If-Modified-Since', first.headers['last-modified']);
    assert.equal(byDate.status, 304);
    const older = new Date(Date.parse(first.headers['last-modified']) - 1000).toUTCString();
    assert.equal((await get('/changelog/widget/feed/atom/').set('If-Modified-Since', older)).status, 200);
    // If-None-Match decides when both are sent.
    assert.equal((await get('/changelog/widget/feed/atom/').set('If-None-Match', '"other"').set('If-Modified-Since', first.headers['last-modified'])).status, 200);
  });

  it('changes its ETag and Last-Modified when the PHP site edits a release', async () => {
    const before = await get('/changelog/widget/feed/');
    const php = phpConnection(oracle);
    try {
      const row = await php('wp_posts').where({ post_type: 'svc_release', post_parent: widget.postId, post_title: '1.4.0' }).first('ID');
      await php('wp_posts').where({ ID: row.ID }).update({ post_content: '### Added\n- Result limit option (edited).', post_modified_gmt: '2026-12-01 10:00:00' });
    } finally {
      await php.destroy();
    }
    const after = await get('/changelog/widget/feed/').set('If-None-Match', before.headers.etag).set('If-Modified-Since', before.headers['last-modified']);
    assert.equal(after.status, 200);
    assert.notEqual(after.headers.etag, before.headers.etag);
    assert.equal(after.headers['last-modified'], 'Tue, 01 Dec 2026 10:00:00 GMT');
    assert.match(after.body, /Result limit option \(edited\)/);
  });

  it('never carries a note\'s script, event handler or javascript: URL into any feed', async () => {
    for (const format of ['', 'atom/', 'json/']) {
      const res = await get(`/changelog/hostile/feed/${format}`);
      assert.equal(res.status, 200);
      const values = format === 'json/' ? allValues(JSON.parse(res.body)) : allValues(xml.parse(res.body));
      const text = values.join('\n');
      assert.match(text, /safe link/);
      assert.ok(!/<script|onerror|onclick|javascript:|alert\(document/i.test(text), text);
    }
  });
});
