/**
 * Request counters in the database, so that every Understudy process sharing it shares the limits.
 * Fixed windows: a bucket allows `limit` requests per `windowSeconds`, counted atomically by an
 * upsert inside a transaction (InnoDB holds the row lock until commit; SQLite has one writer).
 */
import { Clock, unixSeconds } from './clock';
import { Database } from './db/database';

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the window resets (for Retry-After). */
  retryAfter: number;
  remaining: number;
}

/** Expired windows are swept on roughly one hit in this many. */
const SWEEP_EVERY = 200;

export class RateLimiter {
  private hitsSinceSweep = 0;

  constructor(private readonly db: Database, private readonly clock: Clock) {}

  /** Counts one request against `bucket` and says whether it is within the limit. */
  async hit(bucket: string, limit: number, windowSeconds: number): Promise<RateDecision> {
    const now = unixSeconds(this.clock);
    const windowStart = now - (now % windowSeconds);
    const table = this.db.tables.svc('rate_limits');
    const key = bucket.slice(0, 191);
    const hits = await this.db.knex.transaction(async (trx) => {
      await trx(table)
        .insert({ bucket: key, window_start: windowStart, hits: 1, expires_at: windowStart + windowSeconds })
        .onConflict(['bucket', 'window_start'])
        .merge({ hits: trx.raw('?? + 1', [`${table}.hits`]) });
      const row = await trx(table).where({ bucket: key, window_start: windowStart }).first('hits');
      return Number(row?.hits ?? 1);
    });
    await this.maybeSweep(table, now);
    return { allowed: hits <= limit, retryAfter: windowStart + windowSeconds - now, remaining: Math.max(0, limit - hits) };
  }

  private async maybeSweep(table: string, now: number): Promise<void> {
    this.hitsSinceSweep += 1;
    if (this.hitsSinceSweep < SWEEP_EVERY) return;
    this.hitsSinceSweep = 0;
    await this.db.knex(table).where('expires_at', '<', now).del();
  }
}
