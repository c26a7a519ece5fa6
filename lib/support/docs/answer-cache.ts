/**
 * The docs search's kept answers (./search-index.ts answer()), bounded by the bytes they hold rather
 * than by their number: an answer to a long query with eight hits holds several times what one to a
 * short word with one hit does. The least recently asked go first, so a question asked again and
 * again stays however many others pass through. Every answer computed rather than found is counted
 * in the metrics (`understudy_cache_reloads_total{cache="docs_search_answer"}`).
 */
import { countCacheReload } from '../../wp/cache-stats';

/** What the kept answers of one site may hold: about 2,000 answers of eight hits to a two-word query. */
export const ANSWER_BYTES = 1024 * 1024;

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

  /** The answer kept for `key`, else `compute()`'s, kept when it fits; `bytes` estimates what a value holds (shared objects left out). */
  get<T>(key: string, compute: () => T, bytes: (value: T) => number): T {
    const kept = this.entries.get(key);
    if (kept) {
      // Asked again: last out.
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept.value as T;
    }
    countCacheReload('docs_search_answer');
    const value = compute();
    const size = ENTRY_BYTES + stringBytes(key) + bytes(value);
    if (size > this.budget) return value;
    this.entries.set(key, { value, bytes: size });
    this.held += size;
    for (const [oldest, { bytes: freed }] of this.entries) {
      if (this.held <= this.budget) break;
      this.entries.delete(oldest);
      this.held -= freed;
    }
    return value;
  }

  clear(): void {
    this.entries.clear();
    this.held = 0;
  }
}

/** A string's bytes in V8: one a character when all are Latin-1, else two. */
function stringBytes(text: string): number {
  return STRING_BYTES + text.length * (/[^\u0000-\u00ff]/.test(text) ? 2 : 1);
}
