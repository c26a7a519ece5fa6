/**
 * GET /docs/search (docs/docs.md, "Ranking"): up to 8 published docs, best first. MiniSearch scores
 * each doc by BM25 over its fields, the title counting most, then the excerpt, then the body; words
 * match whole, as prefixes (`instal` → `installing`) and, on longer words, with typos (`pasword` →
 * `password`); a doc scores more for each query word it matches. The best candidates are then re-ranked:
 * a doc holding the query as an exact phrase (its title most of all) moves up.
 *
 * A query's cost is bounded before anything is scored (docs/docs.md, "Bounds"): at most 8 different
 * words, and a budget of (doc, field) matches read from the index itself, so that neither many words,
 * nor a short prefix standing for a thousand words, nor typos of a common word make one search costly.
 *
 * Until the index has loaded (a server loads it at start, in the background), searches are answered
 * from SQL instead (./store.ts docsHoldingWords()): the same docs may be shown, ranked more plainly.
 */
import { changeToken } from '../../wp/db/change-token';
import { FRESHNESS_MS, FreshCache, RevalidatingCache } from '../../wp/fresh-cache';
import { Site } from '../../wp/site';
import { DeskPart, deskOf } from '../desk';
import { findSite } from '../sites/store';
import { textBytes } from './answer-cache';
import { DocIndex, IndexedDoc, docSearchIndex, shownDoc } from './search-index';
import { docCollectionPairs, docsHoldingWords } from './store';
import { foldForMatching, foldTerm, searchTerm, tokenizeText } from './text';

export const MAX_RESULTS = 8;
/** Docs the SQL search (while the index loads) reads before checking each against its text. */
const SQL_CANDIDATES = 50;

/** Candidates re-ranked by the phrase bonus. */
const RERANKED = 50;
/** Field weights: a word in the title counts 3 times one in the body; in the excerpt 1.5 times. */
const FIELD_BOOST = { title: 3, excerpt: 1.5, body: 1 };
/** Multipliers for docs holding the whole query (2 words or more) as typed. */
const PHRASE_IN_TITLE = 3;
const PHRASE_IN_TEXT = 1.6;
/** A kept answer's array, and each hit in it (V8's object and array slot; its excerpt counted apart), in bytes. */
const ARRAY_BYTES = 48;
const HIT_BYTES = 48;

/** Different words a query searches at most: the first ones typed (WordPress's own search takes 9). */
export const MAX_QUERY_WORDS = 8;
/**
 * (doc, field) matches one search may score, whole words and expansions together (a few microseconds
 * each). The first word is searched whatever it costs: at most one match per doc and field.
 */
export const MAX_MATCHES = 12_000;
/** Index words one word's prefix, or its typos, may stand for; a word with more is not expanded that way. */
export const MAX_EXPANSIONS = 50;
/** Longer words are matched without typos: the edit-distance table grows with the square of the length. */
const MAX_TYPO_WORD = 40;

/** Words that say little about what a reader wants: left out of the query when it has others. */
export const STOP_WORDS = new Set((
  'a an and are as at be but by can do does for from how i if in into is it its me my no not of on or our so ' +
  'that the their then there these this to was we what when where which who why will with you your'
).split(' '));

export interface DocSearchQuery {
  q: string;
  /** A collection's term slug. */
  collection?: string;
  /** A connected site's site-id: only the collections that site may show. */
  site?: string;
}

export interface DocHit {
  doc: IndexedDoc;
  /** The collection the doc is shown in: the first (by slug) that the filters allow; null when it has none. */
  collection: string | null;
  /** Plain text: the doc's own excerpt, else the start of its body, as read when the query was first asked. */
  excerpt: string;
}

export async function searchDocs(site: Site, query: DocSearchQuery): Promise<DocHit[]> {
  const allowed = await allowedCollections(site, query);
  if (allowed?.size === 0) return [];
  const desk = deskOf(site);
  // The index's load is started (or joined); nothing waits for it.
  if (desk.warmUp([docSearchIndex]).length) return searchInSql(site, query.q, allowed);
  const index = desk.get(docSearchIndex);
  await index.ready();
  return rankDocs(index, query.q, allowed);
}

/**
 * The words the index would search, in SQL: docs holding them in their text (not by typos), those with
 * them in the title first. SQL matches the stored HTML, so each candidate is checked against its text
 * as the index reads it (markup never finds a doc).
 */
async function searchInSql(site: Site, q: string, allowed: Set<string> | null): Promise<DocHit[]> {
  // A word's stem, so that `policy` also finds `policies` as the index does.
  const stems = queryTerms(tokenizeText(foldTerm(q))).map((term) => (term.length > 3 ? term.replace(/y$/, '') : term));
  if (!stems.length) return [];
  // Kept while the docs and their collections stay as they are: the first seconds repeat the same questions.
  const key = JSON.stringify([stems, allowed === null ? null : [...allowed].sort()]);
  return deskOf(site).get(sqlAnswers).get(key, () => readSqlAnswer(site, stems, allowed));
}

/** Answers from SQL, confirmed by the change tokens of the posts and term tables (lib/wp/fresh-cache.ts). */
const sqlAnswers: DeskPart<RevalidatingCache<string, DocHit[]>> = {
  name: 'docs search answers from SQL',
  make: (site) => {
    const { tables } = site.db;
    const token = changeToken(site.db, [tables.posts, tables.terms, tables.termTaxonomy, tables.termRelationships]);
    // Checked once a second: while a token is unknown (after a restart of MariaDB) each check searches again.
    return new RevalidatingCache<string, DocHit[]>({ token, softMs: 1000, name: 'docs_search_sql' });
  },
  afterWrite: (answers, written) => {
    if (written.docs?.size) answers.invalidate();
  },
};

async function readSqlAnswer(site: Site, stems: string[], allowed: Set<string> | null): Promise<DocHit[]> {
  const read = async (inTitles: boolean) => (await docsHoldingWords(site.db, stems, allowed, SQL_CANDIDATES, { inTitles })).map(shownDoc)
    .filter(({ doc, text }) => stems.some((stem) => holdsWord(foldForMatching(doc.title), foldForMatching(text.text), stem)))
    .slice(0, MAX_RESULTS);
  // Docs with a word in the title come first: when they fill the answer, the bodies need no search.
  const titled = await read(true);
  const shown = titled.length === MAX_RESULTS ? titled : await read(false);
  const collections = new Map<number, string[]>();
  for (const [id, slug] of await docCollectionPairs(site.db, shown.map(({ doc }) => doc.id))) collections.set(id, [...(collections.get(id) ?? []), slug]);
  return shown.map(({ doc, text }) => ({
    doc, excerpt: text.excerpt, collection: (collections.get(doc.id) ?? []).find((slug) => allowed === null || allowed.has(slug)) ?? null,
  }));
}

/** Whether a doc's folded title or text holds a word starting with `stem` (the whole word, for a stem shorter than 3 characters), as the index matches it. */
function holdsWord(foldedTitle: string, foldedText: string, stem: string): boolean {
  const word = stem.length >= 3 ? ` ${stem}` : ` ${stem} `;
  return foldedTitle.includes(word) || foldedText.includes(word);
}

/** The collections a search may show: null for any; none (an empty set) for an unknown site. */
async function allowedCollections(site: Site, query: DocSearchQuery): Promise<Set<string> | null> {
  let allowed: Set<string> | null = query.collection === undefined ? null : new Set([query.collection]);
  if (query.site !== undefined) {
    const shown = new Set(await siteCollections(site, query.site));
    allowed = allowed === null ? shown : new Set([...allowed].filter((slug) => shown.has(slug)));
  }
  return allowed;
}

/**
 * The collections a connected site may show ([] for an unknown site), cached within the freshness
 * bound: a search with `site` costs no query while the answer is younger than a second.
 */
const collectionsBySite: DeskPart<FreshCache<string, string[]>> = {
  name: 'docs search site collections',
  make: () => new FreshCache<string, string[]>(FRESHNESS_MS, 1000),
};

function siteCollections(site: Site, siteId: string): Promise<string[]> {
  return deskOf(site).get(collectionsBySite).get(siteId, async () => (await findSite(site.db, siteId))?.docCollections ?? []);
}

/** The ranking itself, over an index that is ready. */
export async function rankDocs(index: DocIndex, q: string, allowed: Set<string> | null): Promise<DocHit[]> {
  const words = tokenizeText(foldTerm(q));
  const searched = queryTerms(words);
  if (!searched.length) return [];
  const key = JSON.stringify([searched, words, allowed === null ? null : [...allowed].sort()]);
  return index.answer(key, () => rank(index, planQuery(index, searched), words, allowed), answerBytes);
}

/** What a kept answer holds: its array, hits and excerpts (the docs and slugs are the index's own). */
function answerBytes(hits: readonly DocHit[]): number {
  return hits.reduce((bytes, hit) => bytes + HIT_BYTES + textBytes(hit.excerpt), ARRAY_BYTES);
}

/**
 * The words a query searches, as the index spells them (./text.ts searchTerm()): its meaningful words
 * (all of them when it has only stop words), each once, the first MAX_QUERY_WORDS.
 */
export function queryTerms(words: readonly string[]): string[] {
  const meaningful = words.filter((w) => !STOP_WORDS.has(w));
  const terms = new Set<string>();
  for (const word of meaningful.length ? meaningful : words) {
    const term = searchTerm(word);
    if (term) terms.add(term);
    if (terms.size === MAX_QUERY_WORDS) break;
  }
  return [...terms];
}

/** Typos forgiven in a word: 1 edit from 4 characters, 2 from 6; none in very long words. */
export function typoDistance(term: string): number | false {
  if (term.length > MAX_TYPO_WORD) return false;
  return term.length >= 6 ? 2 : term.length >= 4 ? 1 : false;
}

/** The words searched, and which of them are also matched by prefix and with typos. */
interface QueryPlan {
  terms: string[];
  prefixed: Set<string>;
  typos: Map<string, number>;
}

/**
 * Spends the query's MAX_MATCHES: whole words first, in the order typed (a word that does not fit is
 * left out: a word held by that many docs adds little to BM25), then, word by word, its prefix
 * expansions and its typos, each only when it stands for at most MAX_EXPANSIONS words and fits.
 */
function planQuery(index: DocIndex, searched: readonly string[]): QueryPlan {
  let left = MAX_MATCHES;
  const terms: string[] = [];
  for (const term of searched) {
    const { matches } = index.exactCost(term);
    if (terms.length && matches > left) continue;
    left -= matches;
    terms.push(term);
  }
  const prefixed = new Set<string>();
  const typos = new Map<string, number>();
  for (const term of terms) {
    if (term.length >= 3) {
      const cost = index.prefixCost(term, MAX_EXPANSIONS);
      if (cost.words <= MAX_EXPANSIONS && cost.matches <= left) {
        prefixed.add(term);
        left -= cost.matches;
      }
    }
    const distance = typoDistance(term);
    if (distance) {
      const cost = index.typoCost(term, distance, prefixed.has(term));
      if (cost.words <= MAX_EXPANSIONS && cost.matches <= left) {
        typos.set(term, distance);
        left -= cost.matches;
      }
    }
  }
  return { terms, prefixed, typos };
}

/**
 * The best candidates, re-ranked by the phrase bonus, the best MAX_RESULTS kept with their excerpts.
 * The index keeps no text: the candidates' text is read here, once per query (its answer is kept):
 * every candidate's for a query of two words or more (the phrase bonus), else the shown docs' alone.
 */
async function rank(index: DocIndex, plan: QueryPlan, words: string[], allowed: Set<string> | null): Promise<DocHit[]> {
  const shownIn = (id: number) => index.collectionsOf(id).find((slug) => allowed === null || allowed.has(slug)) ?? null;
  const hits = index.search(plan.terms.join(' '), {
    boost: FIELD_BOOST,
    prefix: (term) => plan.prefixed.has(term),
    fuzzy: (term) => plan.typos.get(term) ?? false,
    filter: (hit) => allowed === null || shownIn(Number(hit.id)) !== null,
  });
  const phrase = words.length >= 2 ? ` ${words.join(' ')} ` : null;
  let candidates = hits.slice(0, RERANKED).flatMap((hit) => {
    const doc = index.doc(Number(hit.id));
    return doc ? [{ doc, score: hit.score }] : [];
  });
  if (phrase === null) candidates = candidates.sort(bestFirst).slice(0, MAX_RESULTS);
  const texts = await index.texts(candidates.map(({ doc }) => doc.id));
  return candidates
    .flatMap(({ doc, score }) => {
      // A doc unpublished or protected since the index's last refresh is not shown.
      const text = texts.get(doc.id);
      return text ? [{ doc, text, score: score * phraseBonus(doc.title, text.text, phrase) }] : [];
    })
    .sort(bestFirst)
    .slice(0, MAX_RESULTS)
    .map(({ doc, text }) => ({ doc, collection: shownIn(doc.id), excerpt: text.excerpt }));
}

function bestFirst(a: { doc: IndexedDoc; score: number }, b: { doc: IndexedDoc; score: number }): number {
  return b.score - a.score || a.doc.id - b.doc.id;
}

function phraseBonus(title: string, text: string, phrase: string | null): number {
  if (phrase === null) return 1;
  if (foldForMatching(title).includes(phrase)) return PHRASE_IN_TITLE;
  return foldForMatching(text).includes(phrase) ? PHRASE_IN_TEXT : 1;
}
