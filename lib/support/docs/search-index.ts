/**
 * The docs search index of one WordPress site: MiniSearch in this process over every public doc's
 * title, excerpt and body text (./text.ts), with each doc's collections beside it. No table of
 * WordPress is indexed by the database. A password-protected doc is never in it (./store.ts).
 *
 * Freshness (docs/docs.md, "Freshness"): what the index shows is confirmed against the database at
 * most FRESH_MS old; between SOFT_MS and FRESH_MS a request is answered at once while a refresh runs in
 * the background, so a steady stream of searches never waits. A refresh first reads two change tokens
 * (lib/wp/db/change-token.ts): posts, and the three term tables. When the posts token moved it reads
 * the public IDs (dropping docs unpublished, protected or deleted, finding new ones) and the docs modified
 * since the newest `post_modified_gmt` it had seen (less a margin for clocks of other servers), and
 * re-indexes only those whose date changed or that are new. When the term token moved it reads the
 * doc → collection pairs again (one query): a move to another collection changes no post date.
 * This process's own doc writes mark the index stale, and the next search waits for a refresh.
 */
import MiniSearch, { SearchResult } from 'minisearch';
import { performance } from 'node:perf_hooks';
import { changeToken, ChangeToken } from '../../wp/db/change-token';
import { mysqlDateTime } from '../../wp/dates';
import { Site } from '../../wp/site';
import { DeskPart } from '../desk';
import { CompactMiniSearch } from './compact-postings';
import { DocRow, docCollectionPairs, docsModifiedSince, publicDocIds, readDocs } from './store';
import { EXCERPT_WORDS, foldForMatching, plainText, searchTerm, tokenizeText, trimWords } from './text';

/** Answers are served without a check while the index was confirmed this recently. */
const SOFT_MS = 250;
/** Beyond this (within the 2-second bound, with room for the refresh itself) a search waits for a refresh. */
const FRESH_MS = 1900;
/** Edits dated up to this far before the newest seen are still found (another server's clock may lag). */
const CLOCK_MARGIN_SECONDS = 60;
/** Docs indexed between two turns of the event loop. */
const YIELD_EVERY = 100;
/** Answers kept per index (queries with their filters). */
const MAX_ANSWERS = 2000;

/** A public doc as searches show and re-rank it. */
export interface IndexedDoc {
  id: number;
  /** Plain text (no tags, entities decoded). */
  title: string;
  /** Plain text: the doc's own excerpt, else the start of its body. */
  excerpt: string;
  slug: string;
  modified: string;
  /** foldForMatching() of the title, and of the excerpt and body: for the phrase bonus. */
  foldedTitle: string;
  foldedText: string;
}

/** What MiniSearch indexes per doc. */
interface Fields {
  id: number;
  title: string;
  excerpt: string;
  body: string;
}

export type RawHit = SearchResult;

/** What scoring a word would cost: the (doc, field) matches it adds, and the index words it stands for. */
export interface WordCost {
  matches: number;
  words: number;
}

/**
 * MiniSearch with a look into its own term index (protected, for subclasses): how many matches a word
 * and its prefix or typo expansions would score, known before the search scores them (./search.ts).
 */
class DocEngine extends CompactMiniSearch<Fields> {
  /** The whole word's matches. */
  exactCost(term: string): WordCost {
    const data = this._index.get(term);
    return { matches: data ? matchesOf(data) : 0, words: data ? 1 : 0 };
  }

  /** The longer words starting with `term`: counting stops once more than `maxWords` are seen. */
  prefixCost(term: string, maxWords: number): WordCost {
    const cost = { matches: 0, words: 0 };
    for (const [word, data] of this._index.atPrefix(term)) {
      if (word === term) continue;
      cost.words += 1;
      cost.matches += matchesOf(data);
      if (cost.words > maxWords) break;
    }
    return cost;
  }

  /** The other words within `distance` edits of `term`, but for those starting with `term` when prefixes are counted already. */
  typoCost(term: string, distance: number, withoutPrefixed: boolean): WordCost {
    const cost = { matches: 0, words: 0 };
    for (const [word, [data]] of this._index.fuzzyGet(term, distance)) {
      if (word === term || (withoutPrefixed && word.startsWith(term))) continue;
      cost.words += 1;
      cost.matches += matchesOf(data);
    }
    return cost;
  }
}

function matchesOf(data: Map<number, Map<number, number>>): number {
  let matches = 0;
  for (const docs of data.values()) matches += docs.size;
  return matches;
}

export class DocIndex {
  private readonly engine = newEngine();
  private readonly docs = new Map<number, IndexedDoc>();
  private collections = new Map<number, string[]>();
  private readonly postsToken: ChangeToken;
  private readonly termsToken: ChangeToken;
  private seen: { posts: string | null; terms: string | null } = { posts: null, terms: null };
  /** The newest post_modified_gmt indexed (null before the first read). */
  private newest: string | null = null;
  private confirmedAt = -Infinity;
  /** Own writes ask for a refresh that starts after them: generations asked and confirmed. */
  private wanted = 0;
  private confirmed = 0;
  private running: Promise<void> | null = null;
  /** Answers by query and filter, dropped whenever what the index holds changes (see answer()). */
  private readonly answers = new Map<string, unknown>();

  constructor(private readonly site: Site) {
    const { tables } = site.db;
    this.postsToken = changeToken(site.db, [tables.posts]);
    this.termsToken = changeToken(site.db, [tables.terms, tables.termTaxonomy, tables.termRelationships]);
  }

  /** Resolves once the index may answer: confirmed within the bound and after this process's last doc write. */
  async ready(): Promise<void> {
    while (this.confirmed < this.wanted || performance.now() - this.confirmedAt >= FRESH_MS) await this.refresh();
    if (performance.now() - this.confirmedAt >= SOFT_MS) {
      this.refresh().catch((err) => this.site.logger.warn('docs search index refresh failed', { error: String(err) }));
    }
  }

  /** After this process wrote docs or collections: the next search reads them first. */
  markStale(): void {
    this.wanted += 1;
  }

  search(query: string, options: Parameters<MiniSearch<Fields>['search']>[1]): RawHit[] {
    return this.engine.search(query, options);
  }

  /** What scoring a processed query word would cost (./search.ts bounds a query by it). */
  exactCost(term: string): WordCost {
    return this.engine.exactCost(term);
  }

  prefixCost(term: string, maxWords: number): WordCost {
    return this.engine.prefixCost(term, maxWords);
  }

  typoCost(term: string, distance: number, withoutPrefixed: boolean): WordCost {
    return this.engine.typoCost(term, distance, withoutPrefixed);
  }

  /**
   * The answer to a search, computed once for the index as it stands: a help center is asked the same
   * few hundred questions again and again, and scoring every doc that holds a common word is the costly
   * part. At most MAX_ANSWERS are kept (the oldest go first); any change to a doc or a collection drops them all.
   */
  answer<T>(key: string, compute: () => T): T {
    if (this.answers.has(key)) return this.answers.get(key) as T;
    const value = compute();
    if (this.answers.size >= MAX_ANSWERS) this.answers.delete(this.answers.keys().next().value as string);
    this.answers.set(key, value);
    return value;
  }

  doc(id: number): IndexedDoc | undefined {
    return this.docs.get(id);
  }

  /** Every doc the index holds (the chat assistant's passage index follows them: lib/support/chat/retrieval.ts). */
  allDocs(): IterableIterator<IndexedDoc> {
    return this.docs.values();
  }

  collectionsOf(id: number): readonly string[] {
    return this.collections.get(id) ?? [];
  }

  /** One refresh at a time; a caller arriving during one shares it. */
  private refresh(): Promise<void> {
    this.running ??= this.sync().finally(() => { this.running = null; });
    return this.running;
  }

  private async sync(): Promise<void> {
    const started = performance.now();
    const generation = this.wanted;
    // Tokens first: a change made while the rows are read moves them again, and is read next time.
    const [posts, terms] = await Promise.all([this.postsToken(), this.termsToken()]);
    if (posts === null || posts !== this.seen.posts) await this.syncDocs();
    if (terms === null || terms !== this.seen.terms) this.setCollections(groupPairs(await docCollectionPairs(this.site.db)));
    this.seen = { posts, terms };
    this.confirmedAt = started;
    this.confirmed = Math.max(this.confirmed, generation);
  }

  private async syncDocs(): Promise<void> {
    const ids = await publicDocIds(this.site.db);
    const published = new Set(ids);
    for (const id of this.docs.keys()) if (!published.has(id)) this.remove(id);
    const wanted = new Set(ids.filter((id) => !this.docs.has(id)));
    // Until a doc has been seen, every published doc is in `wanted` already.
    if (this.newest !== null) {
      // Dates first, rows only for what changed: after a bulk import many docs share the newest date.
      for (const [id, modified] of await docsModifiedSince(this.site.db, secondsBefore(this.newest, CLOCK_MARGIN_SECONDS))) {
        if (this.docs.get(id)?.modified !== modified) wanted.add(id);
      }
    }
    let done = 0;
    for (const row of await readDocs(this.site.db, [...wanted])) {
      this.put(row);
      if (this.newest === null || row.modified > this.newest) this.newest = row.modified;
      // Indexing thousands of docs takes seconds: other requests are served in between.
      if (++done % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    if (done >= YIELD_EVERY) this.engine.compact();
  }

  private setCollections(collections: Map<number, string[]>): void {
    if (sameCollections(this.collections, collections)) return;
    this.collections = collections;
    this.answers.clear();
  }

  private put(row: DocRow): void {
    const title = plainText(row.title);
    const body = plainText(row.content);
    const ownExcerpt = plainText(row.excerpt);
    const doc: IndexedDoc = {
      id: row.id, title, excerpt: ownExcerpt || trimWords(body, EXCERPT_WORDS), slug: row.slug, modified: row.modified,
      foldedTitle: foldForMatching(title), foldedText: foldForMatching(`${ownExcerpt} ${body}`),
    };
    const fields: Fields = { id: row.id, title, excerpt: ownExcerpt, body };
    if (this.engine.has(row.id)) this.engine.replace(fields);
    else this.engine.add(fields);
    this.docs.set(row.id, doc);
    this.answers.clear();
  }

  private remove(id: number): void {
    if (this.engine.has(id)) this.engine.discard(id);
    this.docs.delete(id);
    this.answers.clear();
  }
}

/** The site's index on its support desk (built by its first search); this process's doc writes mark it stale. */
export const docSearchIndex: DeskPart<DocIndex> = {
  name: 'docs search index',
  make: (site) => new DocIndex(site),
  afterWrite: (index, written) => {
    if (written.docs?.size) index.markStale();
  },
};

function newEngine(): DocEngine {
  return new DocEngine({
    fields: ['title', 'excerpt', 'body'],
    storeFields: [],
    tokenize: tokenizeText,
    // Case, accents and plurals never matter: `Cafés` is found as `cafe` and the other way round.
    processTerm: (term) => searchTerm(term) || null,
  });
}

function sameCollections(a: Map<number, string[]>, b: Map<number, string[]>): boolean {
  if (a.size !== b.size) return false;
  for (const [id, slugs] of a) if (b.get(id)?.join('\n') !== slugs.join('\n')) return false;
  return true;
}

function groupPairs(pairs: Array<[number, string]>): Map<number, string[]> {
  const grouped = new Map<number, string[]>();
  for (const [id, slug] of pairs) grouped.set(id, [...(grouped.get(id) ?? []), slug]);
  return grouped;
}

/** A UTC `YYYY-MM-DD HH:MM:SS` moved back by `seconds` (the same format, for comparing in SQL). */
function secondsBefore(datetime: string, seconds: number): string {
  const ms = Date.parse(`${datetime.replace(' ', 'T')}Z`);
  return Number.isFinite(ms) ? mysqlDateTime(ms - seconds * 1000) : '1970-01-01 00:00:00';
}
