/**
 * What one docs search may cost (docs/docs.md, "Bounds"): the first 8 different words of a query are
 * searched, a prefix standing for more than 50 words of the index is matched as a whole word only,
 * and neither the parsing of a query nor its ranking grows faster than the query (a very long word
 * once cost an edit-distance table of its length squared).
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { deskOf } from '../../../../lib/support/desk';
import { docSearchIndex } from '../../../../lib/support/docs/search-index';
import { MAX_EXPANSIONS, MAX_QUERY_WORDS, queryTerms, rankDocs } from '../../../../lib/support/docs/search';
import { insertDocs } from '../../../../lib/support/docs/store';
import { foldTerm, tokenizeText } from '../../../../lib/support/docs/text';
import { assertAboutLinear } from '../../../fuzz/settings';
import { TestSite, openTestSite } from '../../../harness/site';
import { API } from '../../../harness/support';
import { loadDocsIndex } from '../../../harness/desk';

describe('docs search bounds', function () {
  this.timeout(60_000);
  let t: TestSite;
  let widget: number;
  let codes: number;

  before(async () => {
    t = await openTestSite();
    [widget, codes] = await insertDocs(t.site, [
      { slug: 'widget', title: 'Widget colours', content: 'Pick the launcher colour.', collections: ['setup'] },
      // One word for each of 60 codes: `zyx` stands for more words than a prefix may.
      { slug: 'codes', title: 'Error codes', content: Array.from({ length: MAX_EXPANSIONS + 10 }, (_, i) => `zyx${i}`).join(' '), collections: ['setup'] },
    ]);
    await loadDocsIndex(t.site);
  });
  after(async () => {
    await t?.close();
  });
  beforeEach(() => t.clock.advance(60_000));

  const ids = async (q: string): Promise<number[]> => {
    const res = await request(t.app).get(`${API}/docs/search`).query({ q });
    assert.equal(res.status, 200, res.text);
    return res.body.map((hit: { id: number }) => hit.id);
  };

  it(`searches the first ${MAX_QUERY_WORDS} different words of a query, each once`, async () => {
    const filler = Array.from({ length: MAX_QUERY_WORDS }, (_, i) => `filler${i}`);
    assert.deepEqual(await ids([...filler.slice(0, -1), 'widget'].join(' ')), [widget]);
    assert.deepEqual(await ids([...filler, 'widget'].join(' ')), [], 'the 9th word is not searched');
    assert.deepEqual(await ids(['widget', ...filler, ...filler].join(' ')), [widget]);
    assert.deepEqual(queryTerms(['widget', 'widgets', 'the', 'widget', 'launcher']), ['widget', 'launcher']);
  });

  it(`matches a prefix standing for more than ${MAX_EXPANSIONS} words as a whole word only, and a narrower one as a prefix`, async () => {
    assert.deepEqual(await ids('zyx'), []);
    assert.deepEqual(await ids('zyx1'), [codes], 'zyx1, zyx10 … zyx19');
    assert.deepEqual(await ids('zyx42'), [codes]);
  });

  it('parses and ranks a query in time about linear in its length', async () => {
    const index = deskOf(t.site).get(docSearchIndex);
    await index.ready();
    const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i} café`).join(' ');
    assertAboutLinear('docs query parsing', () => queryTerms(tokenizeText(foldTerm(words(2_000)))), () => queryTerms(tokenizeText(foldTerm(words(32_000)))));
    // Each query new (a different last word), so no kept answer is measured.
    // What is timed is the ranking, before the best candidates' text is read; every read is awaited after.
    let n = 0;
    const reads: Array<Promise<unknown>> = [];
    const ranked = (text: string) => () => reads.push(rankDocs(index, `${text} x${n++}`, null));
    assertAboutLinear('docs ranking, one long word', ranked('widgetz'.repeat(150)), ranked('widgetz'.repeat(2_400)));
    assertAboutLinear('docs ranking, many words', ranked(words(500)), ranked(words(8_000)));
    await Promise.all(reads);
  });
});
