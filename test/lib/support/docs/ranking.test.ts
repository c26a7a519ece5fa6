/**
 * Ranking on a help center of 110 docs (test/fixtures/docs/corpus.ts): every query's expected doc
 * must come first, through GET /docs/search; the share that does is reported.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { insertDocs } from '../../../../lib/support/docs/store';
import { createConnectedSite } from '../../../../lib/support/sites/admin';
import { RANKING_DOCS, RANKING_QUERIES, RANKING_SITES } from '../../../fixtures/docs/corpus';
import { TestSite, openTestSite } from '../../../harness/site';
import { API } from '../../../harness/support';
import { loadDocsIndex } from '../../../harness/desk';

describe('docs search ranking (110 docs, the corpus queries)', function () {
  let t: TestSite;
  const siteIds: Record<string, string> = {};
  const slugOf = new Map<number, string>();

  before(async () => {
    t = await openTestSite();
    const ids = await insertDocs(t.site, RANKING_DOCS);
    ids.forEach((id, i) => slugOf.set(id, RANKING_DOCS[i]!.slug));
    for (const [name, collections] of Object.entries(RANKING_SITES)) {
      siteIds[name] = (await createConnectedSite(t.site, { name, origins: [], docCollections: [...collections] })).site.siteId;
    }
    await loadDocsIndex(t.site);
  });
  after(async () => {
    await t?.close();
  });

  const search = (query: Record<string, string>) => request(t.app).get(`${API}/docs/search`).query(query);

  it(`puts the expected doc first for each of the ${RANKING_QUERIES.length} queries (typos, prefixes, phrases, markup, collection and site filters)`, async () => {
    assert.ok(RANKING_DOCS.length >= 100 && RANKING_QUERIES.length >= 40);
    const misses: string[] = [];
    for (const query of RANKING_QUERIES) {
      const params: Record<string, string> = { q: query.q };
      if (query.collection) params.collection = query.collection;
      if (query.site) params.site = siteIds[query.site]!;
      const res = await search(params);
      assert.equal(res.status, 200, res.text);
      const slugs = (res.body as Array<{ id: number }>).map((hit) => slugOf.get(hit.id));
      if (slugs[0] !== query.top) misses.push(`${JSON.stringify(params)} (${query.kind}): expected ${query.top}, got ${slugs.slice(0, 3).join(', ') || 'nothing'}`);
    }
    const first = RANKING_QUERIES.length - misses.length;
    console.log(`      docs ranking: ${first}/${RANKING_QUERIES.length} (${((first / RANKING_QUERIES.length) * 100).toFixed(1)}%) expected docs first`);
    assert.deepEqual(misses, []);
  });

  it('never searches markup: tag names, block comments and shortcode names or attributes find nothing', async () => {
    for (const q of ['kbd', 'paragraph', 'gravityform', 'Still stuck', 'ldquo', 'rarr']) {
      const res = await search({ q });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, [], q);
    }
  });

  it('keeps to the filters: a collection, a site, both, an unknown site', async () => {
    const collectionsOf = async (params: Record<string, string>) => {
      const res = await search(params);
      assert.equal(res.status, 200, res.text);
      return new Set((res.body as Array<{ collection: string }>).map((hit) => hit.collection));
    };
    assert.deepEqual(await collectionsOf({ q: 'email', collection: 'billing' }), new Set(['billing']));
    const help = await collectionsOf({ q: 'email', site: siteIds.help! });
    assert.ok([...help].every((c) => (RANKING_SITES.help as readonly string[]).includes(c)) && help.size > 0, [...help].join());
    assert.deepEqual(await collectionsOf({ q: 'email', site: siteIds.help!, collection: 'billing' }), new Set());
    assert.deepEqual(await collectionsOf({ q: 'email', site: 'nosuchsite00' }), new Set());
    assert.deepEqual(await collectionsOf({ q: 'email', collection: 'no-such-collection' }), new Set());
  });
});
