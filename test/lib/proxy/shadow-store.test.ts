/**
 * The shadow store on the engine under test: counts from two stores on one database (two proxies)
 * add up, survive a store being closed and another opened (a restart), keep only the latest
 * differences per route, and age out after the days kept; the report built from them has the same
 * figures, top fields and a verdict.
 */
import assert from 'node:assert/strict';
import { OpenedSite } from '../../../lib/boot';
import { memoryLogger } from '../../../lib/logger';
import { buildShadowReport, verdictOf } from '../../../lib/proxy/shadow-report';
import { ShadowStore, readEvidence } from '../../../lib/proxy/shadow-store';
import { envFor, openFor } from '../../cli/cli-harness';
import { ScratchDatabase, scratchDatabase } from '../../harness/db';

const ROUTE = '/support/v1/tickets';
const thresholds = { minCompared: 100, minRate: 0.999 };

describe('shadow store', () => {
  let db: ScratchDatabase;
  let first: OpenedSite;
  let second: OpenedSite;
  let now = Date.UTC(2026, 10, 25, 12, 0, 0);
  const clock = () => now;

  before(async () => {
    db = await scratchDatabase();
    first = await openFor(envFor(db.target));
    second = await openFor(envFor(db.target));
  });
  after(async () => {
    await first.site.close();
    await second.site.close();
    await db.drop();
  });

  const store = (opened: OpenedSite, keepDifferences = 3) => new ShadowStore(opened.site.db, { logger: memoryLogger(), now: clock, keepDifferences, keepDays: 7 });
  const evidenceSince = (hoursAgo: number) => readEvidence(first.site.db, Math.floor(now / 1000) - hoursAgo * 3600);

  it('adds the counts of two proxies writing at once, and keeps them across a restart', async () => {
    const a = store(first);
    const b = store(second);
    for (let i = 0; i < 300; i++) {
      a.count(ROUTE, 'matched');
      b.count(ROUTE, i % 3 ? 'matched' : 'noiseCancelled');
    }
    b.count(ROUTE, 'differed');
    a.count('/support/v1/tickets/{id}', 'skipped');
    // Flushes interleave: each writes its own rows' deltas in a transaction of atomic upserts.
    await Promise.all([a.flush(), b.flush(), a.flush(), b.flush()]);
    await a.close();
    await b.close();
    const restarted = store(first);
    restarted.count(ROUTE, 'failed');
    restarted.count(ROUTE, 'matched');
    await restarted.close();
    const [tickets, one] = [...await evidenceSince(1)].sort((x, y) => x.route.length - y.route.length);
    assert.deepEqual(tickets?.counters, { compared: 602, matched: 501, noiseCancelled: 100, differed: 1, failed: 1, dropped: 0, skipped: 0 });
    assert.deepEqual(one?.counters, { compared: 0, matched: 0, noiseCancelled: 0, differed: 0, failed: 0, dropped: 0, skipped: 1 });
  });

  it('keeps the latest differences per route, as given (already redacted)', async () => {
    const s = store(first);
    for (let i = 1; i <= 5; i++) {
      s.difference({ route: '/frm/forms', method: 'GET', url: `/wp-json/frm/forms?page=${i}`, count: 2, diffs: [{ where: `body[${i}].name`, expected: 'a', actual: 'b' }, { where: 'status', expected: '200', actual: '500' }] });
    }
    await s.close();
    const forms = (await evidenceSince(1)).find((e) => e.route === '/frm/forms');
    assert.deepEqual(forms?.differences.map((d) => d.url), ['/wp-json/frm/forms?page=5', '/wp-json/frm/forms?page=4', '/wp-json/frm/forms?page=3']);
    const report = buildShadowReport(await evidenceSince(1), new Date(now - 3600_000), new Date(now), '1 hour', thresholds);
    const route = report.routes.find((r) => r.route === '/frm/forms');
    assert.deepEqual(route?.topFields.map((f) => [f.where, f.count]), [['status', 3], ['body[*].name', 3]]);
    assert.equal(route?.topFields[0]?.example.url, '/wp-json/frm/forms?page=5');
  });

  it('forgets evidence older than the days kept', async () => {
    const s = store(first);
    now += 8 * 86_400_000;
    s.count('/support/v1/late', 'matched');
    await s.close();
    assert.deepEqual((await evidenceSince(24 * 30)).map((e) => e.route), ['/support/v1/late']);
  });

  it('says a route is ready only with enough comparisons, nearly all matching', () => {
    const c = { compared: 12_351, matched: 12_300, noiseCancelled: 45, differed: 6, failed: 0, dropped: 0, skipped: 0 };
    assert.deepEqual(verdictOf(c, '7 days', thresholds), { ready: true, verdict: 'ready to serve: matched 12,345 of 12,351 over 7 days' });
    assert.equal(verdictOf({ ...c, differed: 60, matched: 12_246 }, '7 days', thresholds).verdict, 'not ready: matched 12,291 of 12,351 over 7 days; 60 differed');
    assert.equal(verdictOf({ ...c, failed: 20 }, '7 days', thresholds).ready, false, 'failures count against it');
    assert.equal(verdictOf({ ...c, compared: 50, matched: 50, noiseCancelled: 0, differed: 0 }, '2 hours', thresholds).verdict,
      'not enough traffic yet: matched 50 of 50 over 2 hours (100 comparisons wanted)');
    assert.equal(verdictOf({ ...c, compared: 0, matched: 0, noiseCancelled: 0, differed: 0 }, '7 days', thresholds).verdict, 'no evidence: nothing compared over 7 days');
  });
});
