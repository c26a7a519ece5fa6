/**
 * How many times each of this process's caches of WordPress data loaded again from the database
 * (a value expired or proved changed), by cache name: what the metrics report as cache reloads.
 */
const reloads = new Map<string, number>();

export function countCacheReload(cache: string): void {
  reloads.set(cache, (reloads.get(cache) ?? 0) + 1);
}

export function cacheReloads(): ReadonlyMap<string, number> {
  return reloads;
}
