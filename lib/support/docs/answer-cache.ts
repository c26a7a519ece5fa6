/**
 * The docs search's kept answers (./search-index.ts answer()), bounded by the bytes they hold rather
 * than by their number: an answer to a long query with eight hits holds several times what one to a
 * short word with one hit does. The least recently asked go first, so a question asked again and
 * again stays however many others pass through. Every answer computed rather than found is counted
 * in the metrics (`understudy_cache_reloads_total{cache="docs_search_answer"}`).
 */
import { countCacheReload } from '../../wp/cache-stats';

/** What the kept answers of one site may hold: each keeps its excerpts, so about 500 answers of eight hits (more of fewer). */
export const ANSWER_BYTES = 2 * 1024 * 1024;

/** An entry beside its key and value: the Map's slots, the entry itself. */
const ENTRY_BYTES = 64;
/** A string's header. */
const STRING_BYTES = 16;

interface Kept {
  value: unknown;
  bytes: number;
}

export class AnswerCache {
  private readonly entries = new Map<string, Kept>();
  private held = 0;

  constructor(private readonly budget: number) {}

  /** What the kept answers hold, as estimated. */
  get bytes(): number {
    return this.held;
  }

  /**
   * The answer kept for `key` (or under way: one computation for everyone asking at once), else
   * `compute()`'s, kept once it is known and fits; `bytes` estimates what an answer holds (shared
   * objects left out). A failed computation is not kept.
   */
  get<T>(key: string, compute: () => Promise<T>, bytes: (value: T) => number): Promise<T> {
    const kept = this.entries.get(key);
    if (kept) {
      // Asked again: last out.
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept.value as Promise<T>;
    }
    countCacheReload('docs_search_answer');
    const value = compute();
    const entry: Kept = { value, bytes: ENTRY_BYTES + textBytes(key) };
    this.keep(key, entry);
    value.then((answer) => {
      if (this.entries.get(key) !== entry) return;
      const size = bytes(answer);
      entry.bytes += size;
      this.held += size;
      this.evict();
    }, () => {
      if (this.entries.get(key) !== entry) return;
      this.entries.delete(key);
      this.held -= entry.bytes;
    });
    return value;
  }

  private keep(key: string, entry: Kept): void {
    this.entries.set(key, entry);
    this.held += entry.bytes;
    this.evict();
  }

  /** The least recently asked go until the rest fit (an answer larger than the budget goes too). */
  private evict(): void {
    for (const [oldest, { bytes: freed }] of this.entries) {
      if (this.held <= this.budget) break;
      this.entries.delete(oldest);
      this.held -= freed;
    }
  }

  clear(): void {
    this.entries.clear();
    this.held = 0;
  }
}

/** A string's bytes in V8: one a character when all are Latin-1, else two. */
export function textBytes(text: string): number {
  return STRING_BYTES + text.length * (/[^\u0000-\u00ff]/.test(text) ? 2 : 1);
}
