/**
 * The docs search and the chat passages rank with MiniSearch over compact postings
 * (lib/support/docs/compact-postings.ts): every search must find the same docs with the same scores,
 * in the same order, as MiniSearch over its own Maps, through what a help center's index goes
 * through: docs added, replaced and discarded, MiniSearch's clean-up (vacuum), the engine's
 * compaction, words added after it (a compacted word node given a longer word), and a word so
 * frequent in one doc that the postings widen to pairs; and the compactions in place that adding
 * thousands of docs sets off, replaced and discarded docs' postings among them.
 */
import assert from 'node:assert/strict';
import MiniSearch, { Options, SearchOptions } from 'minisearch';
import { CompactMiniSearch } from '../../../../lib/support/docs/compact-postings';
import { searchTerm, tokenizeText } from '../../../../lib/support/docs/text';

interface Doc {
  id: number;
  title: string;
  excerpt: string;
  body: string;
}

const OPTIONS: Options<Doc> = { fields: ['title', 'excerpt', 'body'], storeFields: [], tokenize: tokenizeText, processTerm: (term) => searchTerm(term) || null };
const SEARCH: SearchOptions = {
  boost: { title: 3, excerpt: 1.5, body: 1 },
  prefix: (term) => term.length >= 3,
  fuzzy: (term) => (term.length >= 6 ? 2 : term.length >= 4 ? 1 : false),
};
const SYLLABLES = 'ka lo mi ne ru ta shi ven dor pel quin sar tov bri cal dun'.split(' ');

/** A deterministic doc: words of a Zipf-like vocabulary, so that some are in most docs and many in few. */
function doc(id: number, salt = 0): Doc {
  let seed = (id + 1) * 2654435761 + salt;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const word = () => {
    let n = Math.floor(3000 ** next());
    let w = '';
    do {
      w += SYLLABLES[n % SYLLABLES.length];
      n = Math.floor(n / SYLLABLES.length);
    } while (n > 0 || w.length < 4);
    return w;
  };
  const words = (n: number) => Array.from({ length: n }, word).join(' ');
  return { id, title: words(5), excerpt: id % 3 ? '' : words(12), body: words(80) };
}

describe('docs search over compact postings', () => {
  it('finds the same docs with the same scores as MiniSearch over its own Maps, through changes, clean-up and compaction', async () => {
    const plain = new MiniSearch<Doc>(OPTIONS);
    const compact = new CompactMiniSearch<Doc>(OPTIONS);
    const both = (change: (engine: MiniSearch<Doc>) => void) => [plain, compact].forEach(change);
    const queries = Array.from({ length: 60 }, (_, i) => {
      const { title } = doc(i * 7);
      const [a = '', b = ''] = title.split(' ');
      return i % 3 === 0 ? a : i % 3 === 1 ? `${a} ${b}` : `${a.slice(0, -1)}x ${b.slice(0, 4)}`;
    });
    const same = (when: string) => {
      for (const q of [...queries, 'kalo', 'tovwide']) assert.deepEqual(compact.search(q, SEARCH), plain.search(q, SEARCH), `${when}: ${q}`);
    };

    for (let id = 1; id <= 600; id++) both((e) => e.add(doc(id)));
    same('added');
    for (let id = 1; id <= 200; id++) both((e) => e.replace(doc(id, 1)));
    for (let id = 201; id <= 260; id++) both((e) => e.discard(id));
    same('replaced and discarded');
    compact.compact();
    same('compacted');
    // Longer words after the compaction: word nodes holding one word get children.
    for (let id = 601; id <= 700; id++) both((e) => e.add({ ...doc(id), body: doc(id).title.split(' ').map((w) => `${w}ings ${w}er`).join(' ') }));
    both((e) => e.add({ id: 9999, title: 'tovwide', excerpt: '', body: 'tovwide '.repeat(1100) }));
    same('longer words, and a count that widens the postings');
    await Promise.all([plain.vacuum(), compact.vacuum()]);
    same('vacuumed');
    compact.compact();
    for (let id = 261; id <= 300; id++) both((e) => e.discard(id));
    await Promise.all([plain.vacuum(), compact.vacuum()]);
    same('compacted, discarded and vacuumed again');
    assert.equal(compact.termCount, plain.termCount);
    assert.equal(compact.documentCount, plain.documentCount);
  });

  it('finds the same through the compactions in place that a load of thousands of docs sets off', () => {
    const plain = new MiniSearch<Doc>(OPTIONS);
    const compact = new CompactMiniSearch<Doc>(OPTIONS);
    const both = (change: (engine: MiniSearch<Doc>) => void) => [plain, compact].forEach(change);
    const same = (when: string) => {
      for (let i = 0; i < 40; i++) {
        const [a = '', b = ''] = doc(i * 37).title.split(' ');
        for (const q of [a, `${a} ${b}`, `${a.slice(0, -1)}x`]) assert.deepEqual(compact.search(q, SEARCH), plain.search(q, SEARCH), `${when}: ${q}`);
      }
    };
    // About 280,000 postings: the moved runs' wasted room passes half the pool again and again.
    for (let id = 1; id <= 3000; id++) both((e) => e.add(doc(id)));
    same('loaded');
    // Removed postings (counts of 0) left in the runs until the next compaction in place drops them.
    for (let id = 1; id <= 1500; id++) both((e) => (id % 2 ? e.replace(doc(id, 2)) : e.discard(id)));
    for (let id = 3001; id <= 4000; id++) both((e) => e.add(doc(id)));
    same('replaced, discarded and loaded again');
    compact.compact();
    same('compacted');
    assert.equal(compact.documentCount, plain.documentCount);
  });
});
