/**
 * The support desk's caches loaded in the background (lib/support/warm-up.ts, docs/deploy.md "Warm
 * caches"): while the ticket list index and the docs search index are still loading, lists and
 * searches are answered from SQL at once, not after the load; a list answers what the index answers
 * once loaded, and a search finds the doc the index puts first, and only docs a search may show.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { deskOf, loadGate } from '../../../lib/support/desk';
import { docSearchIndex } from '../../../lib/support/docs/search-index';
import { insertDocs } from '../../../lib/support/docs/store';
import { createConnectedSite } from '../../../lib/support/sites/admin';
import { actorOf } from '../../../lib/support/tickets/actor';
import { ListQuery, listTickets, ticketLists } from '../../../lib/support/tickets/list';
import { warmUpSupportDesk } from '../../../lib/support/warm-up';
import { Site } from '../../../lib/wp/site';
import { RANKING_DOCS, RANKING_QUERIES, RANKING_SITES } from '../../fixtures/docs/corpus';
import { TestSite, openTestSite } from '../../harness/site';
import { OracleSite, openOracle } from '../../harness/oracle';
import { API } from '../../harness/support';

/** Holds every load of the desk until the returned function is called. */
function holdLoads(): () => void {
  let release = () => {};
  const held = new Promise<void>((resolve) => { release = resolve; });
  loadGate.wait = () => held;
  return () => {
    loadGate.wait = () => Promise.resolve();
    release();
  };
}

describe('the support desk while its caches load', function () {
  this.timeout(60_000);

  describe('the ticket list', () => {
    let oracle: OracleSite;
    before(async () => { oracle = await openOracle(); });
    after(async () => { await oracle?.close(); });

    it('answers from SQL while the index loads, as the index answers once loaded', async () => {
      const { site } = oracle;
      const release = holdLoads();
      let duringLoad: Array<[string, ListQuery, unknown]>;
      try {
        assert.deepEqual(warmUpSupportDesk(site), ['ticket lists', 'docs search index']);
        duringLoad = await listEveryWay(site);
        assert.equal(deskOf(site).get(ticketLists).live.loaded, false, 'the load was held');
      } finally {
        release();
      }
      await deskOf(site).get(ticketLists).live.load();
      const loaded = await listEveryWay(site);
      assert.deepEqual(warmUpSupportDesk(site), [], 'both loaded');
      assert.ok(duringLoad.some(([, , page]) => (page as { total: number }).total > 0));
      assert.deepEqual(duringLoad, loaded);
    });
  });

  describe('the docs search', () => {
    let t: TestSite;
    let siteIds: Record<string, string>;
    const slugOf = new Map<number, string>();
    before(async () => {
      t = await openTestSite();
      const ids = await insertDocs(t.site, [
        ...RANKING_DOCS,
        { slug: 'draft-refund', title: 'Refund draft', content: 'Refund cookies pagination.', status: 'draft', collections: ['billing'] },
      ]);
      ids.forEach((id, i) => slugOf.set(id, RANKING_DOCS[i]?.slug ?? 'draft-refund'));
      siteIds = {};
      for (const [name, collections] of Object.entries(RANKING_SITES)) {
        siteIds[name] = (await createConnectedSite(t.site, { name, origins: [], docCollections: [...collections] })).site.siteId;
      }
    });
    after(async () => { await t?.close(); });

    const search = async (query: (typeof RANKING_QUERIES)[number]): Promise<string[]> => {
      t.clock.advance(60_000);
      const params: Record<string, string> = { q: query.q };
      if (query.collection) params.collection = query.collection;
      if (query.site) params.site = siteIds[query.site] as string;
      const res = await request(t.app).get(`${API}/docs/search`).query(params);
      assert.equal(res.status, 200, res.text);
      return (res.body as Array<{ id: number }>).map((hit) => slugOf.get(hit.id) as string);
    };

    it('answers from SQL while the index loads: the doc the index puts first among its answers, never a draft, never by markup, within the filters', async () => {
      // Typos are the index's alone.
      const queries = RANKING_QUERIES.filter((query) => query.kind !== 'typo');
      const release = holdLoads();
      const duringLoad = new Map<string, string[]>();
      try {
        for (const query of queries) duringLoad.set(JSON.stringify(query), await search(query));
        assert.deepEqual(await search({ q: 'paragraph', top: '', kind: 'html' }), [], 'block comments are markup');
        assert.equal(deskOf(t.site).get(docSearchIndex).loaded, false, 'the load was held');
      } finally {
        release();
      }
      await deskOf(t.site).get(docSearchIndex).load();
      for (const query of queries) {
        const fromSql = duringLoad.get(JSON.stringify(query)) as string[];
        assert.equal((await search(query))[0], query.top, `${query.q}, from the index`);
        assert.ok(fromSql.includes(query.top), `${query.q}: ${fromSql.join(', ')}`);
        assert.ok(!fromSql.includes('draft-refund'), query.q);
        const allowed = new Set(query.collection ? [query.collection] : query.site ? RANKING_SITES[query.site] : Object.values(collectionOf));
        for (const slug of fromSql) assert.ok(allowed.has(collectionOf[slug] as string), `${query.q}: ${slug}`);
      }
    });
  });
});

const collectionOf: Record<string, string> = Object.fromEntries(RANKING_DOCS.map((doc) => [doc.slug, doc.collections[0]]));

/** Every filter and a few pages for an agent, a manager and two customers. */
async function listEveryWay(site: Site): Promise<Array<[string, ListQuery, unknown]>> {
  const answers: Array<[string, ListQuery, unknown]> = [];
  for (const login of ['agent1', 'manager1', 'customer1', 'customer2']) {
    const user = await site.users.byLogin(login);
    assert.ok(user, login);
    const actor = actorOf(await site.auth.signedIn(user, 'application-password', ''));
    for (const status of [undefined, 'open', 'waiting', 'resolved'] as const) {
      for (const priority of [undefined, 'high'] as const) {
        for (const assignment of [undefined, 'mine', 'unassigned'] as const) {
          for (const [page, perPage] of [[1, 20], [2, 7]] as const) {
            const query: ListQuery = { status, priority, assignment, page, perPage };
            const { tickets, total, totalPages } = await listTickets(site, actor, query);
            answers.push([login, query, { ids: tickets.map((ticket) => ticket.id), total, totalPages }]);
          }
        }
      }
    }
  }
  return answers;
}
