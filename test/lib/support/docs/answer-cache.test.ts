/**
 * The docs search's kept answers (lib/support/docs/answer-cache.ts): bounded by the bytes they hold,
 * least recently asked first out. Many large distinct answers (long queries, eight hits each) keep
 * the cache under its budget, while a question asked again and again between them is still answered
 * from it; what is computed rather than found shows in the metrics' cache reloads.
 */
import assert from 'node:assert/strict';
import { deskOf } from '../../../../lib/support/desk';
import { ANSWER_BYTES } from '../../../../lib/support/docs/answer-cache';
import { MAX_RESULTS, rankDocs } from '../../../../lib/support/docs/search';
import { docSearchIndex } from '../../../../lib/support/docs/search-index';
import { insertDocs } from '../../../../lib/support/docs/store';
import { cacheReloads } from '../../../../lib/wp/cache-stats';
import { TestSite, openTestSite } from '../../../harness/site';

/** Answers computed so far in this process (the metric `understudy_cache_reloads_total{cache="docs_search_answer"}`). */
const computed = () => cacheReloads().get('docs_search_answer') ?? 0;

describe('docs search answers kept within a byte budget', function () {
  this.timeout(120_000);
  let t: TestSite;

  before(async () => {
    t = await openTestSite();
    await insertDocs(t.site, Array.from({ length: 12 }, (_, i) => ({
      slug: `guide-${i}`, title: `Billing guide ${i}`, content: `Every guide explains billing, part ${i}.`, collections: ['help'],
    })));
  });
  after(async () => {
    await t?.close();
  });

  it('keeps a repeated question while many large answers pass through, and never holds more than the budget', async () => {
    const index = deskOf(t.site).get(docSearchIndex);
    await index.ready();
    const ask = (q: string) => rankDocs(index, q, null);
    /** A long query of its own (seven made-up words, about 200 characters) that still finds eight docs, with their excerpts. */
    const distinct = (n: number) => ['guide', ...Array.from({ length: 7 }, (_, w) => `unheardof${n}x${w}${'q'.repeat(14)}`)].join(' ');

    const start = computed();
    assert.equal((await ask('billing guide')).length, MAX_RESULTS);
    assert.equal(computed() - start, 1);
    assert.equal((await ask(distinct(0))).length, MAX_RESULTS, 'a large answer: eight hits');

    let largest = 0;
    const many = 2000;
    for (let n = 1; n <= many; n++) {
      await ask(distinct(n));
      if (n % 10 === 0) assert.equal((await ask('billing guide')).length, MAX_RESULTS);
      largest = Math.max(largest, index.answerBytes);
    }
    assert.equal(computed() - start, many + 2, 'each distinct query computed once; the repeated one never again');
    assert.ok(largest <= ANSWER_BYTES, `the kept answers held ${largest} bytes, over the ${ANSWER_BYTES} budget`);
    assert.ok(largest > ANSWER_BYTES * 0.9, 'the budget was reached: answers were let go');

    // The first large answer went (asked longest ago): asking it again computes it again.
    const before = computed();
    await ask(distinct(0));
    assert.equal(computed() - before, 1, 'the least recently asked answer was dropped');
    await ask('billing guide');
    assert.equal(computed() - before, 1, 'the repeated question is still kept');
  });
});
