/**
 * Shadow evidence that outlives the proxy: counts per route and hour, and the latest redacted
 * differences per route, in `{p}svc_shadow_counts` and `{p}svc_shadow_diffs`. Counts are gathered in
 * memory and added to the rows every few seconds by atomic upserts (`n = n + delta`), so several
 * proxy processes on one database sum their traffic, and comparisons never wait for the database.
 */
import type { Logger } from '../logger';
import type { Difference } from '../replay/compare-rules';
import type { Database } from '../wp/db/database';
import type { ShadowEvidence } from './server';
import type { ShadowDifference } from './shadow-queue';
import { Counter, RouteCounters } from './stats';

export interface ShadowStoreOptions {
  /** Days counts and differences are kept (30). */
  keepDays?: number;
  /** Latest differences kept per route (50). */
  keepDifferences?: number;
  /** How often gathered counts are written (5 s). */
  flushMs?: number;
  logger: Logger;
  /** Milliseconds since the epoch (tests move it). */
  now?: () => number;
}

/** Column of each counter. */
const COLUMNS: Record<Counter, string> = {
  matched: 'matched', differed: 'differed', noiseCancelled: 'noise_cancelled', failed: 'failed', dropped: 'dropped', skipped: 'skipped',
};

/** Differences waiting for a write at most; beyond, they are dropped (their count is not). */
const PENDING_DIFFERENCES = 500;
const HOUR = 3600;

/** Counts gathered for one route and hour since the last write. */
interface Delta {
  route: string;
  hour: number;
  counts: Partial<Record<Counter, number>>;
}
const PRUNE_EVERY_MS = 3600_000;

export class ShadowStore implements ShadowEvidence {
  private deltas = new Map<string, Delta>();
  private differences: Array<ShadowDifference & { seenAt: number }> = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private lastPrune = 0;
  private readonly now: () => number;

  constructor(private readonly db: Database, private readonly options: ShadowStoreOptions) {
    this.now = options.now ?? Date.now;
  }

  count(route: string, counter: Counter): void {
    const hour = Math.floor(this.now() / 1000 / HOUR) * HOUR;
    this.gather({ route: route.slice(0, 191), hour, counts: { [counter]: 1 } });
  }

  difference(difference: ShadowDifference): void {
    if (this.differences.length < PENDING_DIFFERENCES) this.differences.push({ ...difference, seenAt: Math.floor(this.now() / 1000) });
  }

  /** Writes every flushMs until close(). */
  start(): void {
    this.timer = setInterval(() => void this.flush(), this.options.flushMs ?? 5_000);
    this.timer.unref();
  }

  /** Writes what was gathered; one write at a time. A failed write keeps its counts for the next. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  private async write(): Promise<void> {
    const deltas = [...this.deltas.values()];
    let differences = this.differences;
    const routesWithNewDifferences = [...new Set(differences.map((d) => d.route))];
    this.deltas = new Map();
    this.differences = [];
    try {
      // One upsert per route and hour, each atomic alone: no transaction holds SQLite's write lock across awaits.
      while (deltas.length) {
        await this.add(deltas[0] as Delta);
        deltas.shift();
      }
      if (differences.length) await this.db.knex(this.table('diffs')).insert(differences.map(diffRow));
      differences = [];
    } catch (err) {
      for (const delta of deltas) this.gather(delta);
      this.differences.unshift(...differences.slice(0, PENDING_DIFFERENCES - this.differences.length));
      this.options.logger.warn('shadow: evidence not written to the database; retrying', { error: err instanceof Error ? err.message : String(err) });
      return;
    }
    try {
      await this.trimDifferences(routesWithNewDifferences);
      await this.pruneOld();
    } catch (err) {
      this.options.logger.warn('shadow: old evidence not pruned', { error: err instanceof Error ? err.message : String(err) });
    }
  }

  private gather(delta: Delta): void {
    const key = `${delta.hour} ${delta.route}`;
    const kept = this.deltas.get(key) ?? { route: delta.route, hour: delta.hour, counts: {} };
    for (const [counter, n] of Object.entries(delta.counts) as Array<[Counter, number]>) kept.counts[counter] = (kept.counts[counter] ?? 0) + n;
    this.deltas.set(key, kept);
  }

  /** `n = n + delta` in one statement: concurrent adds from several processes all count. */
  private async add(delta: Delta): Promise<void> {
    const knex = this.db.knex;
    const table = this.table('counts');
    const row: Record<string, unknown> = { route: delta.route, hour_start: delta.hour };
    const merge: Record<string, unknown> = {};
    for (const [counter, n] of Object.entries(delta.counts) as Array<[Counter, number]>) {
      const column = COLUMNS[counter];
      row[column] = n;
      merge[column] = knex.raw('?? + ?', [`${table}.${column}`, n]);
    }
    await knex(table).insert(row).onConflict(['route', 'hour_start']).merge(merge);
  }

  /** Keeps the latest keepDifferences rows of each route just written to. */
  private async trimDifferences(routes: string[]): Promise<void> {
    const table = this.table('diffs');
    const keep = this.options.keepDifferences ?? 50;
    for (const route of routes) {
      const oldestKept = await this.db.knex(table).where({ route }).orderBy('id', 'desc').offset(keep - 1).first('id');
      if (oldestKept) await this.db.knex(table).where({ route }).andWhere('id', '<', oldestKept.id).del();
    }
  }

  private async pruneOld(): Promise<void> {
    if (this.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = this.now();
    const cutoff = Math.floor(this.now() / 1000) - (this.options.keepDays ?? 30) * 86_400;
    await this.db.knex(this.table('counts')).where('hour_start', '<', cutoff - (cutoff % HOUR)).del();
    await this.db.knex(this.table('diffs')).where('seen_at', '<', cutoff).del();
  }

  private table(name: 'counts' | 'diffs'): string {
    return this.db.tables.plugin('svc', `shadow_${name}`);
  }
}

function diffRow(d: ShadowDifference & { seenAt: number }) {
  return { route: d.route.slice(0, 191), seen_at: d.seenAt, method: d.method.slice(0, 16), url: d.url, diff_count: d.count, diffs: JSON.stringify(d.diffs) };
}

/** Counts and kept differences per route since a time, as the report reads them. */
export interface StoredEvidence {
  route: string;
  counters: RouteCounters;
  differences: Array<{ seenAt: number; method: string; url: string; count: number; diffs: Difference[] }>;
}

/** Evidence of every route with counts or differences since `sinceSeconds` (unix time). */
export async function readEvidence(db: Database, sinceSeconds: number): Promise<StoredEvidence[]> {
  const counts = db.tables.plugin('svc', 'shadow_counts');
  const diffs = db.tables.plugin('svc', 'shadow_diffs');
  const sums = Object.values(COLUMNS).map((c) => db.knex.raw('SUM(??) AS ??', [c, c]));
  const rows = await db.knex(counts).where('hour_start', '>=', sinceSeconds - (sinceSeconds % HOUR)).groupBy('route').select('route', ...sums);
  const byRoute = new Map<string, StoredEvidence>();
  for (const row of rows as Array<Record<string, unknown>>) {
    const c = Object.fromEntries((Object.entries(COLUMNS) as Array<[Counter, string]>).map(([counter, column]) => [counter, Number(row[column] ?? 0)])) as Record<Counter, number>;
    byRoute.set(String(row.route), { route: String(row.route), counters: { ...c, compared: c.matched + c.differed + c.noiseCancelled }, differences: [] });
  }
  const kept = await db.knex(diffs).where('seen_at', '>=', sinceSeconds).orderBy('id', 'desc').select('route', 'seen_at', 'method', 'url', 'diff_count', 'diffs');
  for (const row of kept as Array<Record<string, unknown>>) {
    const route = String(row.route);
    const evidence = byRoute.get(route) ?? { route, counters: emptyCounters(), differences: [] };
    evidence.differences.push({ seenAt: Number(row.seen_at), method: String(row.method), url: String(row.url), count: Number(row.diff_count), diffs: JSON.parse(String(row.diffs)) });
    byRoute.set(route, evidence);
  }
  return [...byRoute.values()].sort((a, b) => a.route.localeCompare(b.route));
}

function emptyCounters(): RouteCounters {
  return { compared: 0, matched: 0, differed: 0, noiseCancelled: 0, failed: 0, dropped: 0, skipped: 0 };
}
