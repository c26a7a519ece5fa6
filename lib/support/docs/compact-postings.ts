/**
 * MiniSearch with compact postings (docs/performance.md, "What the docs indexes hold"). MiniSearch
 * keeps, for each word, a Map of fields to a Map of documents to counts: about 45 bytes a (word,
 * field, document) and two Maps a word, 60 MB of the heap at 10,000 docs. Here every word's postings
 * of every field are runs of (short ID, count) pairs in one Int32Array of the engine, each run behind
 * the few Map methods MiniSearch calls, so its search, scoring and clean-up run unchanged. The pairs
 * are kept in the order its Maps would keep them (ascending short IDs: MiniSearch gives each added
 * document the next one), so every score is summed in the same order and comes out the same.
 */
import MiniSearch, { Options } from 'minisearch';
import SearchableMap from 'minisearch/SearchableMap';

/** Pairs a run starts with; it then grows by half. */
const FIRST_PAIRS = 2;
/** Wasted Int32s (moved runs, removed pairs) below which the pool is never compacted on its own. */
const COMPACT_AT = 1 << 16;

/** One engine's pairs: runs are cut from the end; a run that grows moves to the end, its old room wasted until compaction. */
class PairPool {
  data = new Int32Array(1 << 14);
  /** The engine's fields, each word's postings at most. */
  fields = 0;
  /** Int32s in use, wasted ones included. */
  top = 0;
  wasted = 0;
  /** Iterations under way: runs may not move meanwhile. */
  walking = 0;
  /** Where the pair last iterated over starts: MiniSearch reads a document's count right after its ID. */
  hint = -1;

  /** Room for `ints` more at the end. */
  reserve(ints: number): number {
    if (this.top + ints > this.data.length) {
      const grown = new Int32Array(Math.max(this.top + ints, Math.ceil(this.data.length * 1.5)));
      grown.set(this.data.subarray(0, this.top));
      this.data = grown;
    }
    const at = this.top;
    this.top += ints;
    return at;
  }
}

/**
 * One word's documents and counts in one field: a run of the pool. A removed document's count becomes
 * 0 (MiniSearch's counts are never 0) and its pair stays until the engine is compacted: MiniSearch
 * removes documents while it iterates over the list, which must neither skip nor repeat one.
 */
export class Postings {
  /** Where the run starts in the pool, and its room, in pairs. */
  private start = 0;
  private room = 0;
  /** Pairs in use, removed ones included. */
  private used = 0;
  private live = 0;

  constructor(private readonly pool: PairPool) {}

  get size(): number {
    return this.live;
  }

  get(id: number): number | undefined {
    const at = this.find(id);
    const count = at < 0 ? 0 : (this.pool.data[at + 1] as number);
    return count > 0 ? count : undefined;
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  set(id: number, count: number): this {
    const at = this.find(id);
    if (at < 0) this.insert(id, count);
    else {
      if (this.pool.data[at + 1] === 0) {
        this.live += 1;
        this.pool.wasted -= 2;
      }
      this.pool.data[at + 1] = count;
    }
    return this;
  }

  delete(id: number): boolean {
    const at = this.find(id);
    if (at < 0 || this.pool.data[at + 1] === 0) return false;
    this.pool.data[at + 1] = 0;
    this.live -= 1;
    this.pool.wasted += 2;
    return true;
  }

  /** Dropped from its word: its whole run is wasted. */
  release(): void {
    this.pool.wasted += (this.room - (this.used - this.live)) * 2;
  }

  *entries(): IterableIterator<[number, number]> {
    for (const at of this.walk()) yield [this.pool.data[at] as number, this.pool.data[at + 1] as number];
  }

  /** The IDs: what a search iterates over, reading each count right after. */
  *keys(): IterableIterator<number> {
    for (const at of this.walk()) yield this.pool.data[at] as number;
  }

  *values(): IterableIterator<number> {
    for (const at of this.walk()) yield this.pool.data[at + 1] as number;
  }

  [Symbol.iterator](): IterableIterator<[number, number]> {
    return this.entries();
  }

  /** Copies the live pairs to `into` at `to` (the engine's compaction); returns where the next run goes. */
  moveTo(into: Int32Array, to: number): number {
    const { data } = this.pool;
    const start = to;
    for (let at = this.start * 2, end = (this.start + this.used) * 2; at < end; at += 2) {
      if (data[at + 1] === 0) continue;
      into[to++] = data[at] as number;
      into[to++] = data[at + 1] as number;
    }
    this.start = start / 2;
    this.room = this.live;
    this.used = this.live;
    return to;
  }

  /** Where each live pair starts in the pool, in order; the pool notes the last one given. */
  private *walk(): IterableIterator<number> {
    const { pool } = this;
    pool.walking += 1;
    try {
      // Read again at every step: a set() of a new document may move the run.
      for (let i = 0; i < this.used; i++) {
        const at = (this.start + i) * 2;
        if (pool.data[at + 1] === 0) continue;
        pool.hint = at;
        yield at;
      }
    } finally {
      pool.walking -= 1;
    }
  }

  /** Where the pair of `id` starts in the pool (IDs ascend), or -1. */
  private find(id: number): number {
    const { data, hint } = this.pool;
    const first = this.start * 2;
    if (hint >= first && hint < first + this.used * 2 && data[hint] === id) return hint;
    let low = 0;
    let high = this.used - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const at = data[first + mid * 2] as number;
      if (at === id) return first + mid * 2;
      if (at < id) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }

  /** A new ID in its place: at the end, as MiniSearch adds them; anywhere else for any other caller. */
  private insert(id: number, count: number): void {
    if (this.used === this.room) this.grow();
    const { data } = this.pool;
    const first = this.start * 2;
    let at = this.used;
    while (at > 0 && (data[first + (at - 1) * 2] as number) > id) at -= 1;
    data.copyWithin(first + at * 2 + 2, first + at * 2, first + this.used * 2);
    data[first + at * 2] = id;
    data[first + at * 2 + 1] = count;
    this.used += 1;
    this.live += 1;
  }

  private grow(): void {
    const { pool } = this;
    const room = Math.max(FIRST_PAIRS, Math.ceil(this.room * 1.5));
    if (this.room && (this.start + this.room) * 2 === pool.top) {
      // The last run grows where it is.
      pool.reserve((room - this.room) * 2);
    } else {
      const start = pool.reserve(room * 2) / 2;
      pool.data.copyWithin(start * 2, this.start * 2, (this.start + this.used) * 2);
      pool.wasted += this.room * 2;
      this.start = start;
    }
    this.room = room;
  }
}

/** One word's postings by field ID, where MiniSearch keeps a Map. */
export class WordPostings {
  /** Exactly one slot a field (an array grown slot by slot would take room for 17). */
  private readonly byField: Array<Postings | undefined>;

  constructor(private readonly pool: PairPool) {
    this.byField = new Array<Postings | undefined>(pool.fields).fill(undefined);
  }

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
    if (postings instanceof Postings) this.byField[field] = postings;
    else {
      const kept = new Postings(this.pool);
      for (const [id, count] of postings) kept.set(id, count);
      this.byField[field] = kept;
    }
    return this;
  }

  delete(field: number): boolean {
    const postings = this.byField[field];
    postings?.release();
    this.byField[field] = undefined;
    return postings !== undefined;
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
  readonly pool = new PairPool();

  override fetch(key: string): WordPostings {
    return super.fetch(key, () => new WordPostings(this.pool));
  }
}

/** MiniSearch over compact postings: the same options, searches and results. */
export class CompactMiniSearch<T> extends MiniSearch<T> {
  private readonly words = new CompactWordTree();

  constructor(options: Options<T>) {
    super(options);
    // MiniSearch calls only get, set, delete, size and iteration on a word's Map and its field's Map.
    this._index = this.words as unknown as typeof this._index;
    this.words.pool.fields = options.fields.length;
  }

  /** Adds a document (replace() too); compacts once more than half the pool is wasted. */
  override add(document: T): void {
    super.add(document);
    const { pool } = this.words;
    if (pool.wasted > COMPACT_AT && pool.wasted * 2 > pool.top) this.compact();
  }

  /**
   * After many documents were added or removed: every run moves into a pool of just the pairs in
   * use, removed ones left out, and each document's field lengths into an array of just its fields.
   */
  compact(): void {
    const { pool } = this.words;
    if (pool.walking) return;
    let live = 0;
    for (const word of this.words.values()) for (const postings of word.values()) live += postings.size;
    const data = new Int32Array(Math.max(live * 2, 1 << 14));
    let to = 0;
    for (const word of this.words.values()) for (const postings of word.values()) to = postings.moveTo(data, to);
    Object.assign(pool, { data, top: to, wasted: 0, hint: -1 });
    for (const [id, lengths] of this._fieldLength) this._fieldLength.set(id, lengths.slice());
  }
}
