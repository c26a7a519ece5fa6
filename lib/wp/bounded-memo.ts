/**
 * What a function gave for each key, kept for the last `bound` keys first asked (the oldest
 * forgotten first): for work every request repeats on a few recurring keys (a URL's REST route, a
 * login sanitized, a path's route match), where the keys come from clients and so must not grow
 * without end. The function must answer the same for the same key while it is kept.
 */
export class BoundedMemo<K, V> {
  private readonly kept = new Map<K, V>();

  constructor(private readonly bound: number) {}

  get(key: K, compute: (key: K) => V): V {
    if (this.kept.has(key)) return this.kept.get(key) as V;
    const value = compute(key);
    if (this.kept.size >= this.bound) this.kept.delete(this.kept.keys().next().value as K);
    this.kept.set(key, value);
    return value;
  }

  clear(): void {
    this.kept.clear();
  }
}
