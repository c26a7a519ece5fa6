/**
 * Per-route counters of shadow traffic, kept in memory for the life of the proxy and served as JSON
 * at GET /_understudy/shadow (read by `understudy shadow status`).
 */

export interface RouteCounters {
  /** Comparisons that ran to the end (matched + differed + noiseCancelled). */
  compared: number;
  matched: number;
  differed: number;
  /** Every difference also appeared between two upstream answers to the same request. */
  noiseCancelled: number;
  /** Understudy or the second upstream request failed or timed out, or the upstream went silent past --upstream-timeout. */
  failed: number;
  /** Not compared because the queue was full. */
  dropped: number;
  /** Not compared by design: a write without shadow.writes, or a body over the size bound. */
  skipped: number;
}

export type Counter = Exclude<keyof RouteCounters, 'compared'>;

export interface RouteStatus extends RouteCounters {
  route: string;
  /** Behind a proxy in front of a network: the site these counts are of. */
  blogId?: number;
  /** (matched + noiseCancelled) / compared, or null before the first comparison. */
  matchRate: number | null;
}

export interface ShadowStatus {
  since: string;
  /** Comparisons queued or running now. */
  pending: number;
  totals: RouteCounters;
  routes: RouteStatus[];
}

const COMPARED: readonly Counter[] = ['matched', 'differed', 'noiseCancelled'];

export class ShadowStats {
  /** By site (on a network) and route. */
  private readonly routes = new Map<string, { route: string; blogId?: number; counters: RouteCounters }>();
  private readonly since = new Date().toISOString();

  /** @param onCount also told of every count (the shadow store keeps them in the database) */
  constructor(private readonly onCount?: (route: string, counter: Counter, blogId?: number) => void) {}

  /** `blogId`: on a network, the site the exchange was for; each site's routes are counted apart. */
  count(route: string, counter: Counter, blogId?: number): void {
    this.onCount?.(route, counter, blogId);
    const key = `${blogId ?? ''} ${route}`;
    const entry = this.routes.get(key) ?? { route, ...(blogId !== undefined ? { blogId } : {}), counters: empty() };
    entry.counters[counter]++;
    if (COMPARED.includes(counter)) entry.counters.compared++;
    this.routes.set(key, entry);
  }

  /** A copy of the counters, by site, then route name. */
  snapshot(pending: number): ShadowStatus {
    const totals = empty();
    const routes = [...this.routes.values()].sort((a, b) => (a.blogId ?? 0) - (b.blogId ?? 0) || a.route.localeCompare(b.route)).map(({ route, blogId, counters: c }) => {
      for (const key of Object.keys(totals) as Array<keyof RouteCounters>) totals[key] += c[key];
      return { route, ...(blogId !== undefined ? { blogId } : {}), ...c, matchRate: matchRate(c) };
    });
    return { since: this.since, pending, totals, routes };
  }
}

/** (matched + noiseCancelled) / compared, or null before the first comparison. */
export function matchRate(c: RouteCounters): number | null {
  return c.compared ? (c.matched + c.noiseCancelled) / c.compared : null;
}

function empty(): RouteCounters {
  return { compared: 0, matched: 0, differed: 0, noiseCancelled: 0, failed: 0, dropped: 0, skipped: 0 };
}
