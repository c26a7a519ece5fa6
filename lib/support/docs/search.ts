/**
 * GET /docs/search (docs/docs.md, "Ranking"): up to 8 published docs, best first. MiniSearch scores
 * each doc by BM25 over its fields, the title counting most, then the excerpt, then the body; words
 * match whole, as prefixes (`instal` → `installing`) and, on longer words, with typos (`pasword` →
 * `password`); a doc scores more for each query word it matches. The best candidates are then re-ranked:
 * a doc holding the query as an exact phrase (its title most of all) moves up.
 */
import { FRESHNESS_MS, FreshCache } from '../../wp/fresh-cache';
import { Site } from '../../wp/site';
import { findSite } from '../sites/store';
import { DocIndex, IndexedDoc, docIndex } from './search-index';
import { foldTerm, tokenizeText } from './text';

export const MAX_RESULTS = 8;

/** Candidates re-ranked by the phrase bonus. */
const RERANKED = 50;
/** Field weights: a word in the title counts 3 times one in the body; in the excerpt 1.5 times. */
const FIELD_BOOST = { title: 3, excerpt: 1.5, body: 1 };
/** Multipliers for docs holding the whole query (2 words or more) as typed. */
const PHRASE_IN_TITLE = 3;
const PHRASE_IN_TEXT = 1.6;

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
}

export async function searchDocs(site: Site, query: DocSearchQuery): Promise<DocHit[]> {
  const allowed = await allowedCollections(site, query);
  if (allowed?.size === 0) return [];
  const index = docIndex(site);
  await index.ready();
  return rankDocs(index, query.q, allowed);
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
const shownBySite = new WeakMap<Site, FreshCache<string, string[]>>();

function siteCollections(site: Site, siteId: string): Promise<string[]> {
  let cache = shownBySite.get(site);
  if (!cache) {
    cache = new FreshCache<string, string[]>(FRESHNESS_MS, 1000);
    shownBySite.set(site, cache);
  }
  return cache.get(siteId, async () => (await findSite(site.db, siteId))?.docCollections ?? []);
}

/** The ranking itself, over an index that is ready. */
export function rankDocs(index: DocIndex, q: string, allowed: Set<string> | null): DocHit[] {
  const words = tokenizeText(foldTerm(q));
  const meaningful = words.filter((w) => !STOP_WORDS.has(w));
  const searched = meaningful.length ? meaningful : words;
  if (!searched.length) return [];
  const key = JSON.stringify([searched, words, allowed === null ? null : [...allowed].sort()]);
  return index.answer(key, () => rank(index, searched, words, allowed));
}

function rank(index: DocIndex, searched: string[], words: string[], allowed: Set<string> | null): DocHit[] {
  const shownIn = (id: number) => index.collectionsOf(id).find((slug) => allowed === null || allowed.has(slug)) ?? null;
  const hits = index.search(searched.join(' '), {
    boost: FIELD_BOOST,
    prefix: (term) => term.length >= 3,
    fuzzy: (term) => (term.length >= 6 ? 2 : term.length >= 4 ? 1 : false),
    filter: (hit) => allowed === null || shownIn(Number(hit.id)) !== null,
  });
  const phrase = words.length >= 2 ? ` ${words.join(' ')} ` : null;
  return hits.slice(0, RERANKED)
    .flatMap((hit) => {
      const doc = index.doc(Number(hit.id));
      return doc ? [{ doc, score: hit.score * phraseBonus(doc, phrase) }] : [];
    })
    .sort((a, b) => b.score - a.score || a.doc.id - b.doc.id)
    .slice(0, MAX_RESULTS)
    .map(({ doc }) => ({ doc, collection: shownIn(doc.id) }));
}

function phraseBonus(doc: IndexedDoc, phrase: string | null): number {
  if (phrase === null) return 1;
  if (doc.foldedTitle.includes(phrase)) return PHRASE_IN_TITLE;
  return doc.foldedText.includes(phrase) ? PHRASE_IN_TEXT : 1;
}
