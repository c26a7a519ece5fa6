/**
 * GET /docs/search and POST /docs/<id>/feedback over HTTP (docs/docs.md): arguments, the answer's
 * shape and permalinks, votes per doc, visitor and day on the injected clock, the hourly limit shared
 * by two server processes, what the votes table holds (never an address), and bad input changing nothing.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { Express } from 'express';
import { createApp } from '../../../lib/app';
import { FEEDBACK_META, VOTES_PER_HOUR } from '../../../lib/support/docs/feedback';
import { SEARCHES_PER_MINUTE } from '../../../routes/support/docs';
import { insertDocs } from '../../../lib/support/docs/store';
import { createConnectedSite } from '../../../lib/support/sites/admin';
import { postMetaFor, singleMetaValues } from '../../../lib/wp/posts';
import { FLUSH_MS } from '../../../lib/wp/rate-limit';
import { TestSite, openTestSite } from '../../harness/site';
import { API } from '../../harness/support';
import { loadDocsIndex } from '../../harness/desk';
import { assertRestError } from '../../harness/wp-http';

const DAY_MS = 24 * 3600 * 1000;

describe('support/v1 docs', function () {
  let t: TestSite;
  let guide: number;
  let faq: number;
  let draft: number;

  before(async () => {
    t = await openTestSite();
    [guide, faq, draft] = await insertDocs(t.site, [
      {
        slug: 'getting-started', title: 'Getting <em>started</em> with Q&amp;A', collections: ['basics'],
        content: '<!-- wp:paragraph --><p>Welcome! [button url="/start"]Start here[/button] Read this first &mdash; it explains everything.</p><!-- /wp:paragraph -->',
      },
      { slug: 'faq', title: 'Frequently asked questions', excerpt: 'Answers to <strong>common</strong> questions.', content: '<p>Long answers follow.</p>', collections: ['basics', 'billing'] },
      { slug: 'secret-draft', title: 'Unreleased feature', content: 'Not yet.', status: 'draft', collections: ['basics'] },
      ...Array.from({ length: 12 }, (_, i) => ({ slug: `widget-${i}`, title: `Widget guide ${i}`, content: `All about widgets, part ${i}.`, collections: ['widgets'] })),
    ]);
    await loadDocsIndex(t.site);
  });
  after(async () => {
    await t?.close();
  });

  const search = (query: Record<string, string>) => request(t.app).get(`${API}/docs/search`).query(query);

  describe('GET /docs/search', () => {
    it('answers plain-text results with id, title, excerpt, url and collection', async () => {
      const res = await search({ q: 'started' });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, [{
        id: guide, title: 'Getting started with Q&A', excerpt: 'Welcome! Start here Read this first — it explains everything.',
        url: 'http://127.0.0.1:8081/docs/getting-started/', collection: 'basics',
      }]);
    });

    it("uses the doc's own excerpt when it has one, and the collection the filter asked for", async () => {
      const res = await search({ q: 'questions', collection: 'billing' });
      assert.deepEqual(res.body.map((r: { id: number; excerpt: string; collection: string }) => [r.id, r.excerpt, r.collection]), [[faq, 'Answers to common questions.', 'billing']]);
    });

    it('gives at most 8 results, and never a draft', async () => {
      assert.equal((await search({ q: 'widget' })).body.length, 8);
      assert.deepEqual((await search({ q: 'unreleased' })).body, []);
    });

    it('links docs as plain permalinks when the site has none', async () => {
      await t.site.options.update('permalink_structure', '');
      try {
        assert.equal((await search({ q: 'started' })).body[0].url, 'http://127.0.0.1:8081/?svc_doc=getting-started');
      } finally {
        await t.site.options.update('permalink_structure', '/%postname%/');
      }
    });

    it('requires q (400), not empty nor blank', async () => {
      assertRestError(await request(t.app).get(`${API}/docs/search`), 400, 'rest_missing_callback_param');
      assertRestError(await search({ q: '' }), 400, 'rest_invalid_param');
      assertRestError(await search({ q: '   ' }), 400, 'rest_invalid_param');
      assertRestError(await search({ q: 'x'.repeat(201) }), 400, 'rest_invalid_param');
    });

    it('an unknown site, or one that shows no collection, finds nothing, without an error', async () => {
      const res = await search({ q: 'widget', site: 'unknownsite1' });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, []);
      const bare = await createConnectedSite(t.site, { name: 'No docs', origins: [] });
      assert.deepEqual((await search({ q: 'widget', site: bare.site.siteId })).body, []);
      const shows = await createConnectedSite(t.site, { name: 'Widgets', origins: [], docCollections: ['widgets'] });
      assert.equal((await search({ q: 'widget', site: shows.site.siteId })).body.length, 8);
    });
  });

  describe('GET /docs/search limit', () => {
    it(`allows ${SEARCHES_PER_MINUTE} searches per address and minute across two processes, then 429 with Retry-After`, async () => {
      // A minute of its own, started at its first second.
      t.clock.advance(60_000 - (t.clock.now() % 60_000));
      const twinSite = await t.openAnother();
      const twin = createApp(twinSite);
      const statuses: number[] = [];
      for (let i = 0; i < SEARCHES_PER_MINUTE; i += 10) {
        statuses.push(...(await Promise.all(Array.from({ length: 10 }, (_, j) => request(j % 2 ? twin : t.app).get(`${API}/docs/search`).query({ q: `widget ${i + j}` })))).map((r) => r.status));
      }
      assert.deepEqual(statuses, Array(SEARCHES_PER_MINUTE).fill(200));
      // Counts are shared within FLUSH_MS: each process writes its own, then reads the other's.
      for (const limiter of [t.site.rateLimiter, twinSite.rateLimiter, t.site.rateLimiter]) await limiter.flush();
      const row = await t.site.db.knex(t.site.db.tables.plugin('svc', 'rate_limits')).where('bucket', 'like', 'docs.search:%').andWhere('window_start', Math.floor(t.clock.now() / 1000)).first('hits');
      assert.equal(Number(row?.hits), SEARCHES_PER_MINUTE, 'both processes\' searches in the shared count');
      for (const app of [t.app, twin]) {
        const refused = await request(app).get(`${API}/docs/search`).query({ q: 'widget' });
        assertRestError(refused, 429, 'rest_too_many_requests');
        assert.equal(refused.headers['retry-after'], '60');
        assert.equal(refused.body.data.retry_after, 60);
      }
      // Counted by a keyed hash of the address, as the votes are.
      const buckets = await t.site.db.knex(t.site.db.tables.plugin('svc', 'rate_limits')).where('bucket', 'like', 'docs.search:%').select('bucket');
      assert.ok(buckets.length > 0 && buckets.every((b: { bucket: string }) => /^docs\.search:visitor:[0-9a-f]{64}$/.test(b.bucket)), JSON.stringify(buckets));
      t.clock.advance(60_000);
      assert.equal((await search({ q: 'widget' })).status, 200, 'a new minute');
    });

    it('writes the count of a burst of searches in a few statements, not one per search', async () => {
      t.clock.advance(60_000 - (t.clock.now() % 60_000));
      const knex = t.site.db.knex;
      const table = t.site.db.tables.plugin('svc', 'rate_limits');
      let writes = 0;
      const countWrite = (query: { sql: string }) => { if (/^\s*(insert|update|replace)\b/i.test(query.sql) && query.sql.includes(table)) writes += 1; };
      knex.on('query', countWrite);
      const started = Date.now();
      try {
        for (let i = 0; i < 100; i += 20) {
          const answers = await Promise.all(Array.from({ length: 20 }, (_, j) => search({ q: `widget ${i + j}` })));
          assert.deepEqual(answers.map((r) => r.status), Array(20).fill(200));
        }
        await t.site.rateLimiter.flush();
      } finally {
        knex.removeListener('query', countWrite);
      }
      // One write per flush at most, and a flush every FLUSH_MS (plus the final one).
      assert.ok(writes <= Math.floor((Date.now() - started) / FLUSH_MS) + 2 && writes < 25, `${writes} writes for 100 searches`);
      const row = await knex(table).where('bucket', 'like', 'docs.search:%').andWhere('window_start', Math.floor(t.clock.now() / 1000)).first('hits');
      assert.equal(Number(row?.hits), 100, 'every search counted');
    });
  });

  describe('POST /docs/<id>/feedback', () => {
    const votesTable = () => t.site.db.knex(t.site.db.tables.plugin('svc', 'doc_votes'));
    const vote = (id: number, body: Record<string, unknown>, app: Express = t.app) => request(app).post(`${API}/docs/${id}/feedback`).send(body);
    const counts = async (id: number) => {
      const meta = singleMetaValues((await postMetaFor(t.site.db.knex, t.site.db.tables, [id])).get(id));
      return [meta.get(FEEDBACK_META.helpful), meta.get(FEEDBACK_META.notHelpful), meta.get(FEEDBACK_META.comments)];
    };

    // Each test starts a new hour (the limit) and a new day (one vote per doc and day).
    beforeEach(() => t.clock.advance(DAY_MS));

    it('records a vote, replaces it the same day, and counts a new one the next day; counts in the postmeta', async () => {
      const first = await vote(faq, { helpful: true, comment: 'Clear, thanks.' });
      assert.equal(first.status, 200, first.text);
      assert.deepEqual(first.body, { id: faq, helpful: true, replaced: false, day: first.body.day });
      assert.match(first.body.day, /^\d{4}-\d{2}-\d{2}$/);
      assert.deepEqual(await counts(faq), ['1', '0', '1']);

      const again = await vote(faq, { helpful: false });
      assert.equal(again.body.replaced, true);
      assert.deepEqual(await counts(faq), ['0', '1', '0']);
      assert.equal((await votesTable().where({ doc_id: faq })).length, 1);

      t.clock.advance(DAY_MS);
      const nextDay = await vote(faq, { helpful: 'true', comment: 'Still good.' });
      assert.equal(nextDay.body.replaced, false);
      assert.notEqual(nextDay.body.day, first.body.day);
      assert.deepEqual(await counts(faq), ['1', '1', '1']);
      assert.equal((await votesTable().where({ doc_id: faq })).length, 2);
    });

    it('stores a keyed hash of the visitor, never the address (votes and limits alike)', async () => {
      await vote(guide, { helpful: true, comment: 'From 127.0.0.1? No, from a reader.' });
      const rows = await votesTable();
      assert.ok(rows.length > 0);
      for (const row of rows) {
        assert.match(String(row.visitor), /^[0-9a-f]{64}$/);
        assert.ok(!String(row.visitor).includes('127.0.0.1'));
      }
      const stored = JSON.stringify(rows.map(({ comment: _comment, ...rest }: Record<string, unknown>) => rest));
      assert.ok(!/127\.0\.0\.1|::1/.test(stored), stored);
      const limits = JSON.stringify(await t.site.db.knex(t.site.db.tables.plugin('svc', 'rate_limits')).where('bucket', 'like', 'docs.feedback%'));
      assert.ok(limits.includes('docs.feedback') && !/127\.0\.0\.1|::1\b/.test(limits), limits);
    });

    it('unknown, draft or non-doc IDs: 404, nothing stored', async () => {
      const before = (await votesTable()).length;
      assertRestError(await vote(999999, { helpful: true }), 404, 'svc_doc_not_found');
      assertRestError(await vote(draft, { helpful: true }), 404, 'svc_doc_not_found');
      const [site] = await t.site.db.knex(t.site.db.tables.posts).whereNot({ post_type: 'svc_doc' }).limit(1).select('ID');
      if (site) assertRestError(await vote(Number(site.ID), { helpful: true }), 404, 'svc_doc_not_found');
      assert.equal((await votesTable()).length, before);
    });

    it('bad input is 400 and changes nothing: a comment over 1,000 characters, helpful missing or not a boolean', async () => {
      await vote(guide, { helpful: true, comment: 'Fine.' });
      const before = { rows: await votesTable().orderBy('id'), counts: await counts(guide) };
      assertRestError(await vote(guide, { helpful: false, comment: 'é'.repeat(1001) }), 400, 'rest_invalid_param');
      assertRestError(await vote(guide, { comment: 'no flag' }), 400, 'rest_missing_callback_param');
      assertRestError(await vote(guide, { helpful: 'maybe' }), 400, 'rest_invalid_param');
      assert.deepEqual(await votesTable().orderBy('id'), before.rows);
      assert.deepEqual(await counts(guide), before.counts);
      // 1,000 characters exactly is fine.
      assert.equal((await vote(guide, { helpful: false, comment: 'é'.repeat(1000) })).status, 200);
    });

    it(`allows ${VOTES_PER_HOUR} votes per visitor and hour across two processes, then 429 with Retry-After`, async () => {
      const twin = createApp(await t.openAnother());
      const statuses: number[] = [];
      for (let i = 0; i < VOTES_PER_HOUR; i++) statuses.push((await vote(i % 2 ? faq : guide, { helpful: i % 3 === 0 }, i % 2 ? twin : t.app)).status);
      assert.deepEqual(statuses, Array(VOTES_PER_HOUR).fill(200));
      const rowsBefore = (await votesTable()).length;
      for (const app of [t.app, twin]) {
        const refused = await vote(guide, { helpful: true }, app);
        assertRestError(refused, 429, 'rest_too_many_requests');
        assert.ok(Number(refused.headers['retry-after']) > 0);
        assert.equal(refused.body.data.retry_after, Number(refused.headers['retry-after']));
      }
      assert.equal((await votesTable()).length, rowsBefore);
      t.clock.advance(3600 * 1000);
      assert.equal((await vote(guide, { helpful: true }, twin)).status, 200, 'a new hour');
    });
  });
});
