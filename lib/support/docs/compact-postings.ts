/**
 * MiniSearch with compact postings (docs/performance.md, "What the docs indexes hold"). MiniSearch
 * keeps, for each word, a Map of fields to a Map of documents to counts: about 45 bytes a (word,
 * field, document) and two Maps a word, 60 MB of the heap at 10,000 docs. Here every word's postings
 * of every field are runs of one Uint32Array of the engine (a document's short ID and its count in one
 * number), each run behind the few Map methods MiniSearch calls, so its search, scoring and clean-up
 * run unchanged. The postings are kept in the order its Maps would keep them (ascending short IDs:
 * MiniSearch gives each added document the next one), so every score is summed in the same order and
 * comes out the same. Its word tree's nodes that hold a word and nothing else become small objects
 * too (WordNode), in the same order.
 */
import MiniSearch, { Options } from 'minisearch';
import SearchableMap from 'minisearch/SearchableMap';

/** Postings a run starts with; it then grows by half. */
const FIRST_ROOM = 2;
/** Wasted postings (moved runs, removed documents) below which the pool is never compacted on its own. */
const COMPACT_AT = 1 << 16;
/** A posting is `id * COUNTS + count` while every ID and count fits; beyond, the pool keeps (ID, count) pairs. */
const COUNT_BITS = 10;
const COUNTS = 1 << COUNT_BITS;
const NARROW_IDS = 2 ** (32 - COUNT_BITS);
/** The fields a word has postings in at most (the docs and the passages have three). */
const MAX_FIELDS = 3;

/**
 * One engine's postings, and where each run is: runs are cut from the end; a run that grows moves to
 * the end, its old room wasted until compaction. Runs are numbered; their place, room, postings used
 * (removed ones included) and live postings are kept in typed columns, not an object each.
 */
class PostingPool {
  data = new Uint32Array(1 << 14);
  /** 1 while each posting is one number; 2 once an ID or count did not fit (pairs). */
  stride = 1;
  /** Postings in use, wasted ones included; and wasted. */
  top = 0;
  wasted = 0;
  /** Iterations under way: runs may not move meanwhile. */
  walking = 0;
  /** The posting last iterated over: MiniSearch reads a document's count right after its ID. */
  hint = -1;
  start = new Int32Array(1024);
  room = new Int32Array(1024);
  used = new Int32Array(1024);
  live = new Int32Array(1024);
  private runs = 0;
  private readonly freeRuns: number[] = [];

  id(at: number): number {
    return this.stride === 1 ? (this.data[at] as number) >>> COUNT_BITS : (this.data[at * 2] as number);
  }

  count(at: number): number {
    return this.stride === 1 ? (this.data[at] as number) & (COUNTS - 1) : (this.data[at * 2 + 1] as number);
  }

  put(at: number, id: number, count: number): void {
    if (this.stride === 1 && (id >= NARROW_IDS || count >= COUNTS)) this.widen();
    if (this.stride === 1) this.data[at] = id * COUNTS + count;
    else {
      this.data[at * 2] = id;
      this.data[at * 2 + 1] = count;
    }
  }

  /** Moves `n` postings from `from` to `to` (either way). */
  move(to: number, from: number, n: number): void {
    this.data.copyWithin(to * this.stride, from * this.stride, (from + n) * this.stride);
  }

  /** Room for `n` more postings at the end; where it starts. */
  reserve(n: number): number {
    if ((this.top + n) * this.stride > this.data.length) {
      const grown = new Uint32Array(Math.max((this.top + n) * this.stride, Math.ceil(this.data.length * 1.5)));
      grown.set(this.data.subarray(0, this.top * this.stride));
      this.data = grown;
    }
    const at = this.top;
    this.top += n;
    return at;
  }

  newRun(): number {
    const run = this.freeRuns.pop() ?? this.runs++;
    if (run >= this.start.length) {
      for (const column of ['start', 'room', 'used', 'live'] as const) {
        const grown = new Int32Array(this.start.length * 2);
        grown.set(this[column]);
        this[column] = grown;
      }
    }
    this.start[run] = 0;
    this.room[run] = 0;
    this.used[run] = 0;
    this.live[run] = 0;
    return run;
  }

  /** A run its word dropped: all its room is wasted, and its number free (its columns stay readable until reused). */
  freeRun(run: number): void {
    this.wasted += (this.room[run] as number) - ((this.used[run] as number) - (this.live[run] as number));
    this.freeRuns.push(run);
  }

  /** Copies the live postings of `runs` into a pool of just them, in order. */
  compact(runs: Iterable<number>, live: number): void {
    const data = new Uint32Array(Math.max(live * this.stride, 1 << 14));
    let to = 0;
    for (const run of runs) {
      const start = to;
      for (let at = this.start[run] as number, end = at + (this.used[run] as number); at < end; at++) {
        if (this.count(at) === 0) continue;
        for (let k = 0; k < this.stride; k++) data[to * this.stride + k] = this.data[at * this.stride + k] as number;
        to += 1;
      }
      this.start[run] = start;
      this.room[run] = this.live[run] as number;
      this.used[run] = this.live[run] as number;
    }
    Object.assign(this, { data, top: to, wasted: 0, hint: -1 });
  }

  /**
   * Moves the live postings of `runs` down within the pool, in place: while documents are being added
   * the pool's array only ever grows, so no array of megabytes is freed for a smaller one. (glibc
   * raises its mmap threshold to the size of each large block freed; the smaller arrays then allocated
   * and freed went to its heap, which kept about 10 MB of them free but resident: docs/performance.md.)
   */
  compactInPlace(runs: number[]): void {
    // By place, so a run only ever moves down onto room already copied from.
    runs.sort((a, b) => (this.start[a] as number) - (this.start[b] as number));
    let to = 0;
    for (const run of runs) {
      const start = to;
      for (let at = this.start[run] as number, end = at + (this.used[run] as number); at < end; at++) {
        if (this.count(at) === 0) continue;
        if (to !== at) this.move(to, at, 1);
        to += 1;
      }
      this.start[run] = start;
      this.room[run] = this.live[run] as number;
      this.used[run] = this.live[run] as number;
    }
    Object.assign(this, { top: to, wasted: 0, hint: -1 });
  }

  /** From one number a posting to (ID, count) pairs, once for good. */
  private widen(): void {
    const data = new Uint32Array(Math.max(this.data.length * 2, this.top * 2));
    for (let at = 0; at < this.top; at++) {
      data[at * 2] = this.id(at);
      data[at * 2 + 1] = this.count(at);
    }
    this.data = data;
    this.stride = 2;
  }
}

/**
 * One word's documents and counts in one field, as MiniSearch sees it: a view of a run of the pool.
 * A removed document's count becomes 0 (MiniSearch's counts are never 0) and the posting stays until
 * the engine is compacted: MiniSearch removes documents while it iterates over the run, which must
 * neither skip nor repeat one.
 */
export class Postings {
  constructor(private readonly pool: PostingPool, private readonly run: number) {}

  get size(): number {
    return this.pool.live[this.run] as number;
  }

  get(id: number): number | undefined {
    const at = this.find(id);
    const count = at < 0 ? 0 : this.pool.count(at);
    return count > 0 ? count : undefined;
  }

  has(id: number): boolean {
    return this.get(id) !== undefined;
  }

  set(id: number, count: number): this {
    const { pool, run } = this;
    const at = this.find(id);
    if (at < 0) this.insert(id, count);
    else {
      if (pool.count(at) === 0) {
        pool.live[run] += 1;
        pool.wasted -= 1;
      }
      pool.put(at, id, count);
    }
    return this;
  }

  delete(id: number): boolean {
    const { pool, run } = this;
    const at = this.find(id);
    if (at < 0 || pool.count(at) === 0) return false;
    pool.put(at, id, 0);
    pool.live[run] -= 1;
    pool.wasted += 1;
    return true;
  }

  *entries(): IterableIterator<[number, number]> {
    for (const at of this.walk()) yield [this.pool.id(at), this.pool.count(at)];
  }

  /** The IDs: what a search iterates over, reading each count right after. */
  *keys(): IterableIterator<number> {
    for (const at of this.walk()) yield this.pool.id(at);
  }

  *values(): IterableIterator<number> {
    for (const at of this.walk()) yield this.pool.count(at);
  }

  [Symbol.iterator](): IterableIterator<[number, number]> {
    return this.entries();
  }

  /** Where each live posting is in the pool, in order; the pool notes the last one given. */
  private *walk(): IterableIterator<number> {
    const { pool, run } = this;
    pool.walking += 1;
    try {
      // Read again at every step: a set() of a new document may move the run.
      for (let i = 0; i < (pool.used[run] as number); i++) {
        const at = (pool.start[run] as number) + i;
        if (pool.count(at) === 0) continue;
        pool.hint = at;
        yield at;
      }
    } finally {
      pool.walking -= 1;
    }
  }

  /** Where the posting of `id` is in the pool (IDs ascend), or -1. */
  private find(id: number): number {
    const { pool, run } = this;
    const first = pool.start[run] as number;
    const used = pool.used[run] as number;
    if (pool.hint >= first && pool.hint < first + used && pool.id(pool.hint) === id) return pool.hint;
    let low = 0;
    let high = used - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const at = pool.id(first + mid);
      if (at === id) return first + mid;
      if (at < id) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }

  /** A new ID in its place: at the end, as MiniSearch adds them; anywhere else for any other caller. */
  private insert(id: number, count: number): void {
    const { pool, run } = this;
    if (pool.used[run] === pool.room[run]) this.grow();
    const first = pool.start[run] as number;
    const used = pool.used[run] as number;
    let at = used;
    while (at > 0 && pool.id(first + at - 1) > id) at -= 1;
    pool.move(first + at + 1, first + at, used - at);
    pool.put(first + at, id, count);
    pool.used[run] += 1;
    pool.live[run] += 1;
  }

  private grow(): void {
    const { pool, run } = this;
    const old = pool.room[run] as number;
    const room = Math.max(FIRST_ROOM, Math.ceil(old * 1.5));
    if (old && (pool.start[run] as number) + old === pool.top) {
      // The last run grows where it is.
      pool.reserve(room - old);
    } else {
      const start = pool.reserve(room);
      pool.move(start, pool.start[run] as number, pool.used[run] as number);
      pool.wasted += old;
      pool.start[run] = start;
    }
    pool.room[run] = room;
  }
}

/** One word's runs by field ID, where MiniSearch keeps a Map: a field's run number, or -1. */
export class WordPostings {
  private field0 = -1;
  private field1 = -1;
  private field2 = -1;

  constructor(private readonly pool: PostingPool) {}

  get size(): number {
    return Number(this.field0 >= 0) + Number(this.field1 >= 0) + Number(this.field2 >= 0);
  }

  get(field: number): Postings | undefined {
    const run = this.runOf(field);
    return run < 0 ? undefined : new Postings(this.pool, run);
  }

  has(field: number): boolean {
    return this.runOf(field) >= 0;
  }

  /** MiniSearch passes a new Map of one document: it is kept as a run. */
  set(field: number, postings: Map<number, number>): this {
    if (this.runOf(field) >= 0) this.pool.freeRun(this.runOf(field));
    const run = this.pool.newRun();
    this.setRun(field, run);
    const kept = new Postings(this.pool, run);
    for (const [id, count] of postings) kept.set(id, count);
    return this;
  }

  delete(field: number): boolean {
    const run = this.runOf(field);
    if (run < 0) return false;
    this.pool.freeRun(run);
    this.setRun(field, -1);
    return true;
  }

  *entries(): IterableIterator<[number, Postings]> {
    for (let field = 0; field < MAX_FIELDS; field++) {
      const run = this.runOf(field);
      if (run >= 0) yield [field, new Postings(this.pool, run)];
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

  /** Its runs (the engine's compaction). */
  runs(): number[] {
    return [this.field0, this.field1, this.field2].filter((run) => run >= 0);
  }

  private runOf(field: number): number {
    return field === 0 ? this.field0 : field === 1 ? this.field1 : field === 2 ? this.field2 : -1;
  }

  private setRun(field: number, run: number): void {
    if (field === 0) this.field0 = run;
    else if (field === 1) this.field1 = run;
    else this.field2 = run;
  }
}

/** The key of a word's own value in a node of MiniSearch's tree (its children are keyed by their suffixes). */
const LEAF = '';

type TreeNode = Map<string, TreeNode | WordPostings>;

/**
 * A node of the tree that holds only a word (two thirds of them: no longer word continues it), where
 * MiniSearch keeps a Map of one entry. It answers the Map methods the tree calls; given a child, it
 * keeps a Map after all, the word first, as the Map it stands for would.
 */
class WordNode {
  private children: TreeNode | null = null;

  constructor(private word: WordPostings | undefined) {}

  get size(): number {
    return this.children ? this.children.size : Number(this.word !== undefined);
  }

  get(key: string): TreeNode | WordPostings | undefined {
    return this.children ? this.children.get(key) : key === LEAF ? this.word : undefined;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  set(key: string, value: TreeNode | WordPostings): this {
    if (!this.children && key === LEAF) this.word = value as WordPostings;
    else {
      this.children ??= new Map(this.word === undefined ? [] : [[LEAF, this.word]]);
      this.children.set(key, value);
    }
    return this;
  }

  delete(key: string): boolean {
    if (this.children) return this.children.delete(key);
    const had = key === LEAF && this.word !== undefined;
    if (had) this.word = undefined;
    return had;
  }

  keys(): IterableIterator<string> {
    return this.children ? this.children.keys() : [...(this.word === undefined ? [] : [LEAF])][Symbol.iterator]();
  }

  entries(): IterableIterator<[string, TreeNode | WordPostings]> {
    return this.children ? this.children.entries() : [...(this.word === undefined ? [] : [[LEAF, this.word] as [string, WordPostings]])][Symbol.iterator]();
  }

  [Symbol.iterator](): IterableIterator<[string, TreeNode | WordPostings]> {
    return this.entries();
  }
}

/** MiniSearch's word tree, making WordPostings where MiniSearch would make a Map. */
class CompactWordTree extends SearchableMap<WordPostings> {
  readonly pool = new PostingPool();

  override fetch(key: string): WordPostings {
    return super.fetch(key, () => new WordPostings(this.pool));
  }

  /** Every node holding only a word becomes a WordNode (in its place: a Map's set() of a key it has keeps the order). */
  compactNodes(node: TreeNode = this._tree as unknown as TreeNode): void {
    for (const [key, child] of node) {
      if (key === LEAF) continue;
      const sub = child as TreeNode;
      if (sub instanceof Map && sub.size === 1 && sub.has(LEAF)) node.set(key, new WordNode(sub.get(LEAF) as WordPostings) as unknown as TreeNode);
      else this.compactNodes(sub);
    }
  }
}

/** MiniSearch over compact postings: the same options, searches and results. */
export class CompactMiniSearch<T> extends MiniSearch<T> {
  private readonly words = new CompactWordTree();

  constructor(options: Options<T>) {
    if (options.fields.length > MAX_FIELDS) throw new Error(`compact postings take ${MAX_FIELDS} fields at most`);
    super(options);
    // MiniSearch calls only get, set, delete, size and iteration on a word's Map and its field's Map.
    this._index = this.words as unknown as typeof this._index;
  }

  /** Adds a document (replace() too); compacts, in place, once more than half the pool is wasted. */
  override add(document: T): void {
    super.add(document);
    const { pool } = this.words;
    if (pool.wasted > COMPACT_AT && pool.wasted * 2 > pool.top) this.compact({ inPlace: true });
  }

  /**
   * After many documents were added or removed: every run moves into a pool of just the postings in
   * use (`inPlace`: down within the pool's array, which keeps its size), removed ones left out, word
   * nodes become WordNodes, and documents with the same field lengths share one array of them.
   */
  compact({ inPlace = false } = {}): void {
    const { pool } = this.words;
    if (pool.walking) return;
    const runs: number[] = [];
    let live = 0;
    for (const word of this.words.values()) {
      for (const run of word.runs()) {
        runs.push(run);
        live += pool.live[run] as number;
      }
    }
    if (inPlace) pool.compactInPlace(runs);
    else pool.compact(runs, live);
    this.words.compactNodes();
    // Docs with the same field lengths share one array (MiniSearch never changes a doc's once added).
    const shared = new Map<string, number[]>();
    for (const [id, lengths] of this._fieldLength) {
      const key = lengths.join();
      const same = shared.get(key) ?? lengths.slice();
      shared.set(key, same);
      this._fieldLength.set(id, same);
    }
  }
}
