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
  private readonly routes = new Map<string, RouteCounters>();
  private readonly since = new Date().toISOString();

  /** @param onCount also told of every count (the shadow store keeps them in the database) */
  constructor(private readonly onCount?: (route: string, counter: Counter) => void) {}

  count(route: string, counter: Counter): void {
    this.onCount?.(route, counter);
    const counters = this.routes.get(route) ?? empty();
    counters[counter]++;
    if (COMPARED.includes(counter)) counters.compared++;
    this.routes.set(route, counters);
  }

  /** A copy of the counters, routes sorted by name. */
  snapshot(pending: number): ShadowStatus {
    const totals = empty();
    const routes = [...this.routes.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([route, c]) => {
      for (const key of Object.keys(totals) as Array<keyof RouteCounters>) totals[key] += c[key];
      return { route, ...c, matchRate: matchRate(c) };
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
