/**
 * MiniSearch with compact postings (docs/performance.md, "What the docs indexes hold"). MiniSearch
 * keeps, for each word, a Map of fields to a Map of documents to counts: about 45 bytes a (word,
 * field, document) and two Maps a word, 60 MB of the heap at 10,000 docs. Here a word's postings of
 * one field are one Int32Array of (short ID, count) pairs behind the few Map methods MiniSearch
 * calls, so its search, scoring and clean-up run unchanged: the pairs are kept in the order its Maps
 * would keep them (ascending short IDs, as MiniSearch gives each added document the next one), so
 * every score is summed in the same order and comes out the same.
 */
import MiniSearch, { Options } from 'minisearch';
import SearchableMap from 'minisearch/SearchableMap';

/** Pairs a list starts with; it then grows by half. */
const FIRST_PAIRS = 2;

/**
 * One word's documents and counts in one field. A removed document's count becomes 0 (MiniSearch's
 * counts are never 0) and the pair stays until the list is compacted: MiniSearch removes documents
 * while it iterates over the list, which must neither skip nor repeat one.
 */
export class Postings {
  private pairs = new Int32Array(FIRST_PAIRS * 2);
  /** Pairs in use, removed ones included. */
  private used = 0;
  private live = 0;
  /** Iterations under way: no compaction meanwhile. */
  private walking = 0;
  /** The pair last iterated over: MiniSearch reads a document's count right after its ID. */
  private hint = 0;

  static from(entries: Iterable<[number, number]>): Postings {
    const postings = new Postings();
    for (const [id, count] of entries) postings.set(id, count);
    return postings;
  }

  get size(): number {
    return this.live;
  }

  get(id: number): number | undefined {
    const at = this.find(id);
    const count = at < 0 ? 0 : (this.pairs[at * 2 + 1] as number);
    return count > 0 ? count : undefined;
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  set(id: number, count: number): this {
    const at = this.find(id);
    if (at >= 0) {
      if (this.pairs[at * 2 + 1] === 0) this.live += 1;
      this.pairs[at * 2 + 1] = count;
      return this;
    }
    this.insert(id, count);
    return this;
  }

  delete(id: number): boolean {
    const at = this.find(id);
    if (at < 0 || this.pairs[at * 2 + 1] === 0) return false;
    this.pairs[at * 2 + 1] = 0;
    this.live -= 1;
    if (this.live < this.used - this.live) this.compact();
    return true;
  }

  *entries(): IterableIterator<[number, number]> {
    this.walking += 1;
    try {
      for (let at = 0; at < this.used; at++) {
        const count = this.pairs[at * 2 + 1] as number;
        if (count === 0) continue;
        this.hint = at;
        yield [this.pairs[at * 2] as number, count];
      }
    } finally {
      this.walking -= 1;
    }
  }

  /** As entries(), IDs only: what a search iterates over, reading each count right after. */
  *keys(): IterableIterator<number> {
    this.walking += 1;
    try {
      for (let at = 0; at < this.used; at++) {
        if (this.pairs[at * 2 + 1] === 0) continue;
        this.hint = at;
        yield this.pairs[at * 2] as number;
      }
    } finally {
      this.walking -= 1;
    }
  }

  *values(): IterableIterator<number> {
    for (const [, count] of this.entries()) yield count;
  }

  [Symbol.iterator](): IterableIterator<[number, number]> {
    return this.entries();
  }

  /** Drops removed pairs and unused room (not while an iteration is under way). */
  compact(): void {
    if (this.walking || this.pairs.length === this.live * 2) return;
    const pairs = new Int32Array(this.live * 2);
    let to = 0;
    for (let at = 0; at < this.used; at++) {
      if (this.pairs[at * 2 + 1] === 0) continue;
      pairs[to++] = this.pairs[at * 2] as number;
      pairs[to++] = this.pairs[at * 2 + 1] as number;
    }
    this.pairs = pairs;
    this.used = this.live;
    this.hint = 0;
  }

  /** The pair of `id` (IDs ascend), or -1. */
  private find(id: number): number {
    const { pairs } = this;
    if (this.hint < this.used && pairs[this.hint * 2] === id) return this.hint;
    let low = 0;
    let high = this.used - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const at = pairs[mid * 2] as number;
      if (at === id) return mid;
      if (at < id) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }

  /** A new ID in its place: at the end, as MiniSearch adds them; anywhere else for any other caller. */
  private insert(id: number, count: number): void {
    if (this.used * 2 === this.pairs.length) {
      const grown = new Int32Array(Math.max(FIRST_PAIRS, Math.ceil(this.used * 1.5)) * 2);
      grown.set(this.pairs);
      this.pairs = grown;
    }
    let at = this.used;
    while (at > 0 && (this.pairs[(at - 1) * 2] as number) > id) at -= 1;
    this.pairs.copyWithin(at * 2 + 2, at * 2, this.used * 2);
    this.pairs[at * 2] = id;
    this.pairs[at * 2 + 1] = count;
    this.used += 1;
    this.live += 1;
  }
}

/** One word's postings by field ID, where MiniSearch keeps a Map. */
export class WordPostings {
  private readonly byField: Array<Postings | undefined> = [];

  get size(): number {
    let n = 0;
    for (const postings of this.byField) if (postings) n += 1;
    return n;
  }

  get(field: number): Postings | undefined {
    return this.byField[field];
  }

  has(field: number): boolean {
    return this.byField[field] !== undefined;
  }

  /** MiniSearch passes a new Map of one document: it is kept as Postings. */
  set(field: number, postings: Postings | Map<number, number>): this {
    this.byField[field] = postings instanceof Postings ? postings : Postings.from(postings);
    return this;
  }

  delete(field: number): boolean {
    const had = this.byField[field] !== undefined;
    this.byField[field] = undefined;
    return had;
  }

  *entries(): IterableIterator<[number, Postings]> {
    for (let field = 0; field < this.byField.length; field++) {
      const postings = this.byField[field];
      if (postings) yield [field, postings];
    }
  }

  *keys(): IterableIterator<number> {
    for (const [field] of this.entries()) yield field;
  }

  *values(): IterableIterator<Postings> {
    for (const [, postings] of this.entries()) yield postings;
  }

  [Symbol.iterator](): IterableIterator<[number, Postings]> {
    return this.entries();
  }
}

/** MiniSearch's word tree, making WordPostings where MiniSearch would make a Map. */
class CompactWordTree extends SearchableMap<WordPostings> {
  override fetch(key: string): WordPostings {
    return super.fetch(key, () => new WordPostings());
  }
}

/** MiniSearch over compact postings: the same options, searches and results. */
export class CompactMiniSearch<T> extends MiniSearch<T> {
  constructor(options: Options<T>) {
    super(options);
    // MiniSearch calls only get, set, delete, size and iteration on a word's Map and its field's Map.
    this._index = new CompactWordTree() as unknown as typeof this._index;
  }

  /** After many documents were added: each list gives back the room it grew into. */
  compact(): void {
    for (const word of this._index.values() as Iterable<unknown> as Iterable<WordPostings>) {
      for (const postings of word.values()) postings.compact();
    }
  }
}
