/**
 * Request counters in the database, so that every Understudy process sharing it shares the limits.
 * Fixed windows: a bucket allows `limit` requests per `windowSeconds`.
 * - Exact counting (`hit`): each request is counted by one atomic upsert that returns the new count
 *   (InnoDB locks the row for the statement; SQLite has one writer) before it is answered.
 * - Batched counting (`hitBatched`), for limits where being a fraction of a second late across
 *   processes is harmless: each process decides from the last total it read plus its own uncounted
 *   hits, and adds those to the table every FLUSH_MS in one transaction (multi-row upserts), reading
 *   the totals back. The limit can then be exceeded by at most processes × request rate × FLUSH_MS.
 */
import { Clock, unixSeconds } from './clock';
import { Database } from './db/database';
import { WpError } from './errors';
import { Logger } from '../logger';

export interface RateDecision {
  allowed: boolean;
  /** Seconds until the window resets (for Retry-After). */
  retryAfter: number;
  remaining: number;
}

/**
 * The answer to a request over a limit, whoever counts it (the REST server's rate stage, a domain
 * rule such as the portal's 60 s between codes): 429 `rest_too_many_requests`, `retry_after` in its
 * data, which the REST server also sends as Retry-After.
 */
export function tooManyRequests(retryAfter: number): WpError {
  return new WpError('rest_too_many_requests', `Too many requests. Try again in ${retryAfter} seconds.`, 429, { retry_after: retryAfter });
}

/** Expired windows are swept on roughly one hit (or one batched flush) in this many. */
const SWEEP_EVERY = 200;

/** How often batched hits are added to the table, and the shared totals read back. */
export const FLUSH_MS = 250;

/** Batched buckets held in memory at most; past this the held ones are flushed and let go. */
const MAX_TALLIES = 10_000;

/** Rows written or read per statement when flushing (below SQLite's oldest bound-parameter limit, 999). */
const CHUNK = 200;

/** One bucket's window as this process knows it in batched counting. */
interface Tally {
  bucket: string;
  windowStart: number;
  windowEnd: number;
  /** The table's total when last read (it includes this process's flushed hits). */
  known: number;
  /** Hits being written by the flush under way. */
  inFlight: number;
  /** Hits not yet written. */
  pending: number;
}

export class RateLimiter {
  private hitsSinceSweep = 0;
  private readonly tallies = new Map<string, Tally>();
  private timer: NodeJS.Timeout | null = null;
  /** Flushes run one after another: each sees the counts the previous one wrote. */
  private flushQueue: Promise<void> = Promise.resolve();
  /** The flush started because too many buckets are held, while it runs. */
  private capFlush: Promise<void> | null = null;

  constructor(private readonly db: Database, private readonly clock: Clock, private readonly logger?: Logger) {}

  /** Counts one request against `bucket` and says whether it is within the limit. */
  async hit(bucket: string, limit: number, windowSeconds: number): Promise<RateDecision> {
    const now = unixSeconds(this.clock);
    const windowStart = now - (now % windowSeconds);
    const table = this.db.tables.plugin('svc', 'rate_limits');
    const hits = await this.countOne(table, bucket.slice(0, 191), windowStart, windowStart + windowSeconds);
    await this.maybeSweep(table, now);
    return { allowed: hits <= limit, retryAfter: windowStart + windowSeconds - now, remaining: Math.max(0, limit - hits) };
  }

  /**
   * Adds one hit to the bucket's row and returns its new count, in one statement (atomic on its own:
   * no transaction, one round trip). MySQL hands the updated count back as the statement's insert ID
   * (`LAST_INSERT_ID(expr)`; a row just inserted, in a table without an AUTO_INCREMENT column, reports
   * 0: its count is 1); SQLite returns it (`RETURNING`).
   */
  private async countOne(table: string, bucket: string, windowStart: number, expiresAt: number): Promise<number> {
    const { knex } = this.db;
    const upsert = knex(table).insert({ bucket, window_start: windowStart, hits: 1, expires_at: expiresAt }).onConflict(['bucket', 'window_start']);
    if (this.db.dialect === 'mysql') {
      const [insertId] = await upsert.merge({ hits: knex.raw('LAST_INSERT_ID(?? + 1)', [`${table}.hits`]) });
      return Number(insertId) || 1;
    }
    const [row] = await upsert.merge({ hits: knex.raw('?? + 1', [`${table}.hits`]) }).returning('hits');
    return Number((row as { hits: number }).hits);
  }

  /** Counts one request against `bucket` in memory and decides at once; the table learns of it within FLUSH_MS. */
  hitBatched(bucket: string, limit: number, windowSeconds: number): RateDecision {
    const now = unixSeconds(this.clock);
    const windowStart = now - (now % windowSeconds);
    const tally = this.tally(bucket.slice(0, 191), windowStart, windowSeconds);
    // Refused requests are counted too, as in exact counting.
    tally.pending += 1;
    const hits = tally.known + tally.inFlight + tally.pending;
    if (this.tallies.size > MAX_TALLIES) this.flushOverCap();
    else this.scheduleFlush();
    return { allowed: hits <= limit, retryAfter: tally.windowEnd - now, remaining: Math.max(0, limit - hits) };
  }

  /** Adds every batched hit not yet written to the table and reads back the shared totals of the buckets held. */
  flush(): Promise<void> {
    const run = this.flushQueue.then(() => this.writeTallies());
    this.flushQueue = run.catch(() => undefined);
    return run;
  }

  /** Writes what is pending and stops the timer; for a site being closed. */
  async close(): Promise<void> {
    await this.flush();
    this.clearTimer();
  }

  private tally(bucket: string, windowStart: number, windowSeconds: number): Tally {
    const id = `${windowStart}:${bucket}`;
    let tally = this.tallies.get(id);
    if (!tally) {
      tally = { bucket, windowStart, windowEnd: windowStart + windowSeconds, known: 0, inFlight: 0, pending: 0 };
      this.tallies.set(id, tally);
    }
    return tally;
  }

  private scheduleFlush(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flushInBackground();
    }, FLUSH_MS);
    // A pending flush never keeps the process alive; close() writes what is left.
    this.timer.unref();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private flushOverCap(): void {
    this.capFlush ??= this.flushInBackground().finally(() => { this.capFlush = null; });
  }

  private flushInBackground(): Promise<void> {
    return this.flush().catch((err: unknown) => {
      // The counts were put back; the next flush retries them.
      this.logger?.warn('rate limit counts could not be written', { error: String(err) });
    });
  }

  private async writeTallies(): Promise<void> {
    this.clearTimer();
    const now = unixSeconds(this.clock);
    for (const [id, tally] of this.tallies) if (tally.windowEnd <= now) this.tallies.delete(id);
    const held = [...this.tallies.values()];
    if (held.length === 0) return;
    for (const tally of held) {
      tally.inFlight = tally.pending;
      tally.pending = 0;
    }
    const table = this.db.tables.plugin('svc', 'rate_limits');
    try {
      const totals = await this.db.knex.transaction(async (trx) => {
        const written = held.filter((t) => t.inFlight > 0);
        for (let i = 0; i < written.length; i += CHUNK) {
          const rows = written.slice(i, i + CHUNK).map((t) => ({ bucket: t.bucket, window_start: t.windowStart, hits: t.inFlight, expires_at: t.windowEnd }));
          await trx(table).insert(rows).onConflict(['bucket', 'window_start']).merge({ hits: trx.raw(this.addedHits(), [`${table}.hits`]) });
        }
        const read = new Map<string, number>();
        for (let i = 0; i < held.length; i += CHUNK) {
          const chunk = held.slice(i, i + CHUNK);
          const rows = await trx(table).whereIn('bucket', [...new Set(chunk.map((t) => t.bucket))])
            .whereIn('window_start', [...new Set(chunk.map((t) => t.windowStart))]).select('bucket', 'window_start', 'hits');
          for (const row of rows) read.set(`${row.window_start}:${row.bucket}`, Number(row.hits));
        }
        return read;
      });
      for (const tally of held) {
        tally.known = totals.get(`${tally.windowStart}:${tally.bucket}`) ?? tally.known + tally.inFlight;
        tally.inFlight = 0;
      }
    } catch (err) {
      for (const tally of held) {
        tally.pending += tally.inFlight;
        tally.inFlight = 0;
      }
      this.scheduleFlush();
      throw err;
    }
    // Hits that came in while this flush ran scheduled the next one.
    this.letGoOverCap();
    await this.maybeSweep(table, now);
  }

  /** In a multi-row upsert, the stored count plus the row's own. */
  private addedHits(): string {
    return this.db.dialect === 'mysql' ? '?? + VALUES(hits)' : '?? + excluded.hits';
  }

  /** Past the cap, buckets whose counts are all in the table are let go (a later hit reads the total again). */
  private letGoOverCap(): void {
    if (this.tallies.size <= MAX_TALLIES) return;
    for (const [id, tally] of this.tallies) if (tally.pending === 0) this.tallies.delete(id);
  }

  private async maybeSweep(table: string, now: number): Promise<void> {
    this.hitsSinceSweep += 1;
    if (this.hitsSinceSweep < SWEEP_EVERY) return;
    this.hitsSinceSweep = 0;
    await this.db.knex(table).where('expires_at', '<', now).del();
  }
}
