/**
 * The demo's docs have pages on the standalone site: every link docs search and the chat cite opens
 * (pretty and plain permalinks, a doc without a slug), the title and the site's name escaped, the
 * content as WordPress's front end prints it under a Content-Security-Policy that runs no script,
 * and no page for a draft, a password-protected doc or an unknown slug.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { createApp } from '../../lib/app';
import { DEMO_DOCS } from '../../lib/demo/docs';
import { seedDemoSite } from '../../lib/demo/seed';
import { DOC_POST_TYPE, insertDocs } from '../../lib/support/docs/store';
import { Site } from '../../lib/wp/site';
import { envFor, openFor } from '../cli/cli-harness';
import { ScratchDatabase, scratchDatabase } from '../harness/db';

const API = '/wp-json/support/v1';

describe('doc pages on the standalone site', () => {
  let db: ScratchDatabase;
  let site: Site;

  before(async () => {
    db = await scratchDatabase();
    site = (await openFor(envFor(db.target, { WP_ENVIRONMENT_TYPE: 'local' }))).site;
    await seedDemoSite(site);
  });
  after(async () => {
    await site?.close();
    await db?.drop();
  });

  /** The path and query of a link the site made (its host is the site's own). */
  const local = (url: string) => { const u = new URL(url); return `${u.pathname}${u.search}`; };

  it('opens every demo doc that docs search links to, under pretty permalinks', async () => {
    const app = createApp(site);
    for (const doc of DEMO_DOCS) {
      const search = await request(app).get(`${API}/docs/search`).query({ q: doc.title });
      const hit = (search.body as Array<{ title: string; url: string }>).find((h) => h.title === doc.title);
      assert.ok(hit, `${doc.title} is found`);
      assert.match(hit.url, new RegExp(`/docs/${doc.slug}/$`));
      const page = await request(app).get(local(hit.url));
      assert.equal(page.status, 200, `${hit.url}: ${page.text}`);
      assert.match(page.headers['content-type'], /^text\/html; charset=UTF-8/);
      assert.ok(page.text.includes(`<h1>${doc.title}</h1>`), page.text);
      assert.ok(page.text.includes(doc.content), 'the content as stored');
      assert.ok(page.text.includes(`<link rel="canonical" href="${hit.url}">`));
    }
  });

  it('opens the plain-permalink and slugless forms through the front page', async () => {
    const [slugless] = await insertDocs(site, [{ slug: '', title: 'No slug', content: '<p>Slugless.</p>', collections: ['account'] }]);
    await site.options.update('permalink_structure', '');
    try {
      const app = createApp(site);
      const plain = await request(app).get('/').query({ [DOC_POST_TYPE]: 'password-reset' });
      assert.equal(plain.status, 200);
      assert.match(plain.text, /<h1>Password reset<\/h1>/);
      const byId = await request(app).get('/').query({ post_type: DOC_POST_TYPE, p: slugless });
      assert.equal(byId.status, 200);
      assert.match(byId.text, /<p>Slugless\.<\/p>/);
      assert.equal((await request(app).get('/').query({ [DOC_POST_TYPE]: 'no-such-doc' })).status, 404);
      assert.match((await request(app).get('/')).text, /This is <strong>Understudy<\/strong>/, 'the front page otherwise');
    } finally {
      await site.options.update('permalink_structure', '/%postname%/');
    }
  });

  it('shows the title and the site name as text, and runs no script of the content', async () => {
    await insertDocs(site, [{
      slug: 'hostile', title: '<script>alert(1)</script> &amp; Co', content: '<p>Hello</p><script>alert(2)</script><img src=x onerror=alert(3)>', collections: ['account'],
    }]);
    await site.options.update('blogname', '"Desk" <b>');
    try {
      const page = await request(createApp(site)).get('/docs/hostile/');
      assert.equal(page.status, 200);
      // Titles as docs search shows them: the text a reader sees (tags out, entities read), escaped.
      assert.ok(page.text.includes('<h1>&amp; Co</h1>'), page.text);
      assert.ok(page.text.includes('<title>&amp; Co – &quot;Desk&quot;</title>'), page.text);
      assert.doesNotMatch(page.text, /alert\(1\)|<b>/);
      const csp = String(page.headers['content-security-policy']);
      assert.match(csp, /^default-src 'none';/);
      assert.doesNotMatch(csp, /script-src|unsafe-eval/);
      assert.match(csp, /(^|; )sandbox( |;|$)/);
      assert.doesNotMatch(csp, /allow-scripts|allow-same-origin/);
      assert.equal(page.headers['x-content-type-options'], 'nosniff');
    } finally {
      await site.options.update('blogname', 'Understudy Demo');
    }
  });

  it('has no page for a draft, a password-protected doc or an unknown slug', async () => {
    const [draft, secret] = await insertDocs(site, [
      { slug: 'draft-doc', title: 'Draft', content: '<p>Not yet.</p>', status: 'draft', collections: ['account'] },
      { slug: 'secret-doc', title: 'Secret', content: '<p>Hidden.</p>', collections: ['account'] },
    ]);
    await site.db.knex(site.db.tables.posts).where({ ID: secret }).update({ post_password: 'pw' });
    const app = createApp(site);
    for (const path of ['/docs/draft-doc/', '/docs/secret-doc/', '/docs/nothing-here/']) {
      const res = await request(app).get(path);
      assert.equal(res.status, 404, path);
      assert.doesNotMatch(res.text, /Not yet|Hidden/);
    }
    assert.equal((await request(app).get('/').query({ post_type: DOC_POST_TYPE, p: draft })).status, 404);
  });
});
