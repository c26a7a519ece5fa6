/**
 * What answers are grounded in (lib/support/chat/retrieval.ts): docs split at their headings, the
 * right doc among the sources for a set of visitor questions (the share is printed and must stay at
 * least 90 %), nothing for questions the docs do not cover, and the passages following doc edits,
 * unpublishing and learning in batches.
 */
import assert from 'node:assert/strict';
import { chunkDoc, learnBatch, learningProgress, retrieveSources } from '../../../../lib/support/chat/retrieval';
import { deskOf } from '../../../../lib/support/desk';
import { insertDocs } from '../../../../lib/support/docs/store';
import { CHAT_DOCS, CHAT_QUESTIONS, OFF_TOPIC } from '../../../harness/chat-docs';
import { TestSite, openTestSite } from '../../../harness/site';

describe('chat retrieval', function () {
  let t: TestSite;
  let ids: number[];
  before(async () => {
    t = await openTestSite();
    ids = await insertDocs(t.site, CHAT_DOCS);
  });
  after(async () => { await t?.close(); });

  it('splits a doc at its headings, keeping each heading and its anchor', () => {
    const passages = chunkDoc({ id: 7, title: 'Resetting &amp; more', slug: 'reset', content: CHAT_DOCS[0]!.content });
    assert.deepEqual(passages.map((p) => [p.title, p.heading, p.anchor]), [
      ['Resetting & more', '', ''], ['Resetting & more', 'From the sign-in page', 'from-sign-in'], ['Resetting & more', 'If no email arrives', ''],
    ]);
    assert.equal(passages[1]!.text, 'Click Lost your password? under the sign-in form, enter your email address and follow the link we email you. The link works for 24 hours.');
  });

  it('cuts a long section into passages of at most 180 words', () => {
    const words = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
    const passages = chunkDoc({ id: 1, title: 'Long', slug: 'long', content: `<h2>All</h2><p>${words}</p>` });
    assert.deepEqual(passages.map((p) => p.text.split(' ').length), [180, 180, 40]);
  });

  it('finds the doc that answers each question among the sources', async () => {
    let found = 0;
    const misses: string[] = [];
    for (const [question, slug] of CHAT_QUESTIONS) {
      const sources = await retrieveSources(t.site, question);
      if (sources.some((s) => s.url.startsWith(`http://127.0.0.1:8081/docs/${slug}/`))) found += 1;
      else misses.push(`${question} → ${sources.map((s) => s.url).join(', ') || 'nothing'}`);
      assert.ok(sources.length <= 4);
      assert.deepEqual(sources.map((s) => s.n), sources.map((_, i) => i + 1));
    }
    const share = found / CHAT_QUESTIONS.length;
    console.log(`      retrieval: right doc among the sources for ${found} of ${CHAT_QUESTIONS.length} questions (${Math.round(share * 100)} %)`);
    assert.ok(share >= 0.9, `misses:\n${misses.join('\n')}`);
  });

  it('links a passage to its section when its heading has an anchor', async () => {
    const [first] = await retrieveSources(t.site, 'Lost your password sign-in page link');
    assert.equal(first?.url, 'http://127.0.0.1:8081/docs/reset-password/#from-sign-in');
    assert.equal(first?.title, 'Resetting your password: From the sign-in page');
  });

  it('finds nothing for questions the docs do not cover', async () => {
    for (const question of OFF_TOPIC) assert.deepEqual(await retrieveSources(t.site, question), [], question);
    assert.deepEqual(await retrieveSources(t.site, 'how do I'), []);
  });

  it('follows edits and unpublished docs', async () => {
    const refunds = ids[CHAT_DOCS.findIndex((d) => d.slug === 'refunds')]!;
    // The docs index shares a change token read within 50 ms (lib/wp/db/change-token.ts): a write
    // right after a read could be missed until the next refresh, so these writes come later.
    const pause = () => new Promise((resolve) => setTimeout(resolve, 100));
    await pause();
    await t.site.db.knex('wp_posts').where({ ID: refunds }).update({
      post_content: '<p>Refunds are given as store credit for the zebra plan.</p>', post_modified_gmt: '2030-01-01 00:00:00',
    });
    // Written behind the desk's back; it is told as one of this process's doc writes would tell it.
    await deskOf(t.site).afterWrite({ docs: new Set([refunds]) });
    assert.equal((await retrieveSources(t.site, 'zebra store credit'))[0]?.url, 'http://127.0.0.1:8081/docs/refunds/');
    await pause();
    await t.site.db.knex('wp_posts').where({ ID: refunds }).update({ post_status: 'draft', post_modified_gmt: '2030-01-01 00:00:01' });
    await deskOf(t.site).afterWrite({ docs: new Set([refunds]) });
    assert.deepEqual(await retrieveSources(t.site, 'zebra store credit'), []);
  });

  it('learns in batches on a fresh site, then reports nothing left', async () => {
    const fresh = await openTestSite();
    try {
      await insertDocs(fresh.site, Array.from({ length: 120 }, (_, i) => ({ slug: `doc-${i}`, title: `Doc ${i}`, content: `<h2>Part</h2><p>Text ${i}.</p>`, collections: ['x'] })));
      assert.deepEqual(await learningProgress(fresh.site), { docs: 120, learned: 0, left: 120, passages: 0 });
      assert.deepEqual(await learnBatch(fresh.site), { docs: 120, learned: 50, left: 70, passages: 50, chunked: 50, dropped: 0 });
      await learnBatch(fresh.site);
      assert.deepEqual(await learnBatch(fresh.site), { docs: 120, learned: 120, left: 0, passages: 120, chunked: 20, dropped: 0 });
      assert.deepEqual(await learnBatch(fresh.site), { docs: 120, learned: 120, left: 0, passages: 120, chunked: 0, dropped: 0 });
    } finally {
      await fresh.close();
    }
  });
});
