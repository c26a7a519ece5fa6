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
import { DeskPart, loadGate } from '../desk';
import { ANSWER_BYTES, AnswerCache } from './answer-cache';
import { CompactMiniSearch } from './compact-postings';
import { DocRow, docCollectionPairs, docsModifiedSince, publicDocIds, readDocs } from './store';
import { EXCERPT_WORDS, plainText, searchTerm, tokenizeText, trimWords } from './text';

/** Answers are served without a check while the index was confirmed this recently. */
const SOFT_MS = 250;
/** Beyond this (within the 2-second bound, with room for the refresh itself) a search waits for a refresh. */
const FRESH_MS = 1900;
/** Edits dated up to this far before the newest seen are still found (another server's clock may lag). */
const CLOCK_MARGIN_SECONDS = 60;
/** Docs indexed between two turns of the event loop (about a millisecond each): a start-up load stalls no request. */
const YIELD_EVERY = 10;
/** Docs read from the database at a time: a first load holds one batch of rows, not every doc's HTML. */
export const READ_BATCH = 900;

/**
 * A public doc as searches show and re-rank it: no text (docs/performance.md, "What the docs indexes
 * hold"). A query asked for the first time reads its best candidates' text (texts()), and its answer
 * keeps the excerpts it shows.
 */
export class IndexedDoc {
  constructor(
    readonly id: number,
    /** Plain text (no tags, entities decoded). */
    readonly title: string,
    readonly slug: string,
    /** `post_modified_gmt`. */
    readonly modified: string,
  ) {}
}

/** A doc's text as a search reads it. */
export interface DocText {
  /** Plain text: the doc's own excerpt, when it has one, a space, then its body (the phrase bonus reads it). */
  text: string;
  /** Plain text: the doc's own excerpt, else the start of its body (trimWords()). */
  excerpt: string;
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
  private collections = new Map<number, readonly string[]>();
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
  private readonly answers = new AnswerCache(ANSWER_BYTES);
  private changes = 0;

  constructor(private readonly site: Site) {
    const { tables } = site.db;
    this.postsToken = changeToken(site.db, [tables.posts]);
    this.termsToken = changeToken(site.db, [tables.terms, tables.termTaxonomy, tables.termRelationships]);
  }

  /** Whether the first read of every doc has completed (until then searches go to SQL: ./search.ts). */
  get loaded(): boolean {
    return this.confirmedAt > -Infinity;
  }

  /** Starts the first read of every doc, or joins the refresh under way; one that failed starts again. */
  load(): Promise<void> {
    return this.loaded ? Promise.resolve() : this.refresh();
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
   * part. Answers are kept within ANSWER_BYTES (`bytes` estimates what one holds; the least recently
   * asked go first); any change to a doc or a collection drops them all.
   */
  answer<T>(key: string, compute: () => Promise<T>, bytes: (value: T) => number): Promise<T> {
    return this.answers.get(key, compute, bytes);
  }

  /** These docs' text as stored now, public ones only (a doc unpublished or protected since is left out). */
  async texts(ids: readonly number[]): Promise<Map<number, DocText>> {
    const texts = new Map<number, DocText>();
    for (const row of await readDocs(this.site.db, ids)) texts.set(row.id, docText(row));
    return texts;
  }

  /** What the kept answers hold, as estimated (docs/performance.md). */
  get answerBytes(): number {
    return this.answers.bytes;
  }

  /** Moves on every change to what the index holds (the chat passages follow it: lib/support/chat/retrieval.ts). */
  get version(): number {
    return this.changes;
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
    if (!this.loaded) await loadGate.wait('docs search index');
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
    const toRead = [...wanted];
    let done = 0;
    for (let start = 0; start < toRead.length; start += READ_BATCH) {
      for (const row of await readDocs(this.site.db, toRead.slice(start, start + READ_BATCH))) {
        this.put(row);
        if (this.newest === null || row.modified > this.newest) this.newest = row.modified;
        // Indexing thousands of docs takes seconds: other requests are served in between.
        if (++done % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    }
    if (done >= YIELD_EVERY) this.engine.compact();
  }

  private setCollections(collections: Map<number, readonly string[]>): void {
    if (sameCollections(this.collections, collections)) return;
    this.collections = collections;
    this.changed();
  }

  private put(row: DocRow): void {
    const title = plainText(row.title);
    const body = plainText(row.content);
    const ownExcerpt = plainText(row.excerpt);
    const fields: Fields = { id: row.id, title, excerpt: ownExcerpt, body };
    if (this.engine.has(row.id)) this.engine.replace(fields);
    else this.engine.add(fields);
    this.docs.set(row.id, new IndexedDoc(row.id, title, row.slug, row.modified));
    this.changed();
  }

  private remove(id: number): void {
    if (this.engine.has(id)) this.engine.discard(id);
    this.docs.delete(id);
    this.changed();
  }

  private changed(): void {
    this.answers.clear();
    this.changes += 1;
  }
}

/** A doc as searches show it, and its text, from its row (the SQL search while the index loads reads rows: ./search.ts). */
export function shownDoc(row: DocRow): { doc: IndexedDoc; text: DocText } {
  return { doc: new IndexedDoc(row.id, plainText(row.title), row.slug, row.modified), text: docText(row) };
}

/** A doc's text as a search reads it: its own excerpt and its body, without markup. */
function docText(row: DocRow): DocText {
  const body = plainText(row.content);
  const ownExcerpt = plainText(row.excerpt);
  return { text: ownExcerpt ? `${ownExcerpt} ${body}` : body, excerpt: ownExcerpt || trimWords(body, EXCERPT_WORDS) };
}

/** The site's index on its support desk (loaded at start by a server, else by its first search); this process's doc writes mark it stale. */
export const docSearchIndex: DeskPart<DocIndex> = {
  name: 'docs search index',
  make: (site) => new DocIndex(site),
  load: (index) => index.load(),
  loaded: (index) => index.loaded,
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

function sameCollections(a: Map<number, readonly string[]>, b: Map<number, readonly string[]>): boolean {
  if (a.size !== b.size) return false;
  for (const [id, slugs] of a) if (b.get(id)?.join('\n') !== slugs.join('\n')) return false;
  return true;
}

/** Each doc's collection slugs; docs in the same collections share one list (a help center has a few dozen, not one a doc). */
function groupPairs(pairs: Array<[number, string]>): Map<number, readonly string[]> {
  const grouped = new Map<number, string[]>();
  for (const [id, slug] of pairs) {
    const slugs = grouped.get(id);
    if (slugs) slugs.push(slug);
    else grouped.set(id, [slug]);
  }
  const shared = new Map<string, readonly string[]>();
  for (const [id, slugs] of grouped) {
    const key = slugs.join('\n');
    const same = shared.get(key);
    if (same) grouped.set(id, same as string[]);
    else shared.set(key, slugs);
  }
  return grouped;
}

/** A UTC `YYYY-MM-DD HH:MM:SS` moved back by `seconds` (the same format, for comparing in SQL). */
function secondsBefore(datetime: string, seconds: number): string {
  const ms = Date.parse(`${datetime.replace(' ', 'T')}Z`);
  return Number.isFinite(ms) ? mysqlDateTime(ms - seconds * 1000) : '1970-01-01 00:00:00';
}
