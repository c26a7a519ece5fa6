/**
 * A cache whose entries live at most `ttlMs` of real elapsed time, so that a change a live PHP site
 * makes to the shared database is seen within that bound. Concurrent misses for one key share a
 * single load. Expiry reads the monotonic clock, not the site's Clock: tests pin the site clock to
 * check nonces and cookies, and that must not make cached rows immortal.
 */
import { performance } from 'node:perf_hooks';
import { countCacheReload } from './cache-stats';

/** How long cached WordPress state may lag the database: within the 2-second bound, with room for the load itself. */
export const FRESHNESS_MS = 1000;

interface Entry<V> {
  value: Promise<V>;
  expires: number;
}

export class FreshCache<K, V> {
  private readonly entries = new Map<K, Entry<V>>();

  /** `name`: how the metrics call this cache's reloads. */
  constructor(private readonly ttlMs = FRESHNESS_MS, private readonly maxEntries = 10_000, private readonly name = 'other') {}

  /** The cached value of `key`, loading it when absent or stale. A failed load is not cached. */
  get(key: K, load: () => Promise<V>): Promise<V> {
    const now = performance.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return hit.value;
    countCacheReload(this.name);
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

/**
 * A cache for values that are costly to load (list pages, counts): a value younger than `softMs` is
 * served as is; between `softMs` and `hardMs` it is still served while it is checked in the background;
 * older, the caller waits for the check. A value's age counts from the moment its load STARTED (what it
 * reflects), so `hardMs` just under the 2-second bound keeps every answer within it.
 *
 * The check is cheap when a change token is given (see lib/wp/db/change-token.ts): a token read before a
 * load that still reads the same later proves nothing was written since, and the value counts as fresh
 * from the moment of the check; only a changed or unknown token makes it load again.
 */
export class RevalidatingCache<K, V> {
  private readonly entries = new Map<K, { value: V; loadedAt: number; token: string | null; checking: Promise<V> | null }>();
  private readonly pending = new Map<K, Promise<V>>();
  private readonly softMs: number;
  private readonly hardMs: number;
  private readonly token: () => Promise<string | null>;
  private readonly maxEntries: number;
  private readonly name: string;

  /** `name`: how the metrics call this cache's reloads. */
  constructor(options: { softMs?: number; hardMs?: number; token?: () => Promise<string | null>; maxEntries?: number; name?: string } = {}) {
    this.softMs = options.softMs ?? 250;
    this.hardMs = options.hardMs ?? 1900;
    this.token = options.token ?? (async () => null);
    this.maxEntries = options.maxEntries ?? 1000;
    this.name = options.name ?? 'other';
  }

  async get(key: K, load: () => Promise<V>): Promise<V> {
    const entry = this.entries.get(key);
    const age = entry ? performance.now() - entry.loadedAt : Infinity;
    if (entry && age < this.softMs) return entry.value;
    if (entry && age < this.hardMs) {
      entry.checking ??= this.check(key, load).catch(() => entry.value).finally(() => { entry.checking = null; });
      return entry.value;
    }
    return this.check(key, load);
  }

  /** Forgets everything (after this process changed what the values are computed from). */
  invalidate(): void {
    this.entries.clear();
    this.pending.clear();
  }

  /** Confirms the cached value with the change token, or loads it again. */
  private check(key: K, load: () => Promise<V>): Promise<V> {
    const running = this.pending.get(key);
    if (running) return running;
    const started = performance.now();
    const checking = this.token().then(async (token) => {
      const entry = this.entries.get(key);
      if (entry && token !== null && token === entry.token) {
        entry.loadedAt = started;
        return entry.value;
      }
      countCacheReload(this.name);
      const value = await load();
      // A load that began before an invalidation must not put its stale result back.
      if (this.pending.get(key) === checking) this.store(key, { value, loadedAt: started, token, checking: null });
      return value;
    }).finally(() => {
      if (this.pending.get(key) === checking) this.pending.delete(key);
    });
    this.pending.set(key, checking);
    return checking;
  }

  private store(key: K, entry: { value: V; loadedAt: number; token: string | null; checking: Promise<V> | null }): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, entry);
  }
}
