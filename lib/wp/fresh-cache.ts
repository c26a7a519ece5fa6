/**
 * A cache whose entries live at most `ttlMs` of real elapsed time, so that a change a live PHP site
 * makes to the shared database is seen within that bound. Concurrent misses for one key share a
 * single load. Expiry reads the monotonic clock, not the site's Clock: tests pin the site clock to
 * check nonces and cookies, and that must not make cached rows immortal.
 */
import { performance } from 'node:perf_hooks';

/** How long cached WordPress state may lag the database: within the 2-second bound, with room for the load itself. */
export const FRESHNESS_MS = 1000;

interface Entry<V> {
  value: Promise<V>;
  expires: number;
}

export class FreshCache<K, V> {
  private readonly entries = new Map<K, Entry<V>>();

  constructor(private readonly ttlMs = FRESHNESS_MS, private readonly maxEntries = 10_000) {}

  /** The cached value of `key`, loading it when absent or stale. A failed load is not cached. */
  get(key: K, load: () => Promise<V>): Promise<V> {
    const now = performance.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return hit.value;
    const value = load();
    const entry = { value, expires: now + this.ttlMs };
    this.set(key, entry);
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return value;
  }

  /** Stores a value just loaded elsewhere (e.g. a user found by login, cached by ID too). */
  prime(key: K, value: V): void {
    this.set(key, { value: Promise.resolve(value), expires: performance.now() + this.ttlMs });
  }

  /** Forgets one key (after this process wrote it) or everything. */
  invalidate(key?: K): void {
    if (key === undefined) this.entries.clear();
    else this.entries.delete(key);
  }

  private set(key: K, entry: Entry<V>): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: the first key is the least recently stored.
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, entry);
  }
}
