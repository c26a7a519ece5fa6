/**
 * The durable job queue over `{p}svc_jobs`: claiming a due job, renewing its lease, and recording how
 * it ended. It knows no plugin: each kind of job is a handler (handler.ts) that a plugin brings, and
 * the support desk and the form service share the table and the worker. Several server processes may share the table, so every state change is a compare-and-set:
 * an UPDATE by ID whose WHERE clause repeats the status and attempt count the caller saw, and the
 * affected-row count says whether it won. A claim always adds one to `attempts`, which makes the
 * attempt count a version: of two workers that saw the same row, exactly one claims it, and a worker
 * whose lease was taken over can no longer complete or fail the job.
 */
import { Clock, unixSeconds } from '../wp/clock';
import { Database } from '../wp/db/database';
import { Tables } from '../wp/db/tables';

export type JobStatus = 'queued' | 'running' | 'done' | 'failed';
export const JOB_STATUSES: readonly JobStatus[] = ['queued', 'running', 'failed', 'done'];

/** A job as stored. Times are Unix seconds. */
export interface JobRow {
  id: number;
  kind: string;
  payload: string;
  status: JobStatus;
  run_at: number;
  attempts: number;
  locked_by: string | null;
  locked_until: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

/** A job this worker holds: it may run it until `lockedUntil`, unless it renews the lease. */
export interface ClaimedJob {
  id: number;
  kind: string;
  payload: unknown;
  /** This attempt's number, starting at 1 (a crashed attempt counts). */
  attempts: number;
  lockedBy: string;
  lockedUntil: number;
}

/**
 * The job table. It keeps the name the support desk gave it (`svc_` like the other plugin-owned tables
 * of the storage map) now that the form service queues its jobs there too: existing sites have it.
 */
export function jobsTable(tables: Tables): string {
  return tables.plugin('svc', 'jobs');
}

/** How many due rows one claim looks at; losing a race on one moves on to the next. */
const CLAIM_CANDIDATES = 10;

export class JobQueue {
  constructor(private readonly db: Database, private readonly clock: Clock) {}

  private get table(): string {
    return jobsTable(this.db.tables);
  }

  /**
   * Takes one due job of the given kinds: a `queued` one whose `run_at` has come, or a `running` one
   * whose lease has run out (its worker crashed or hung). Null when there is none, or every candidate
   * went to another worker first.
   */
  async claim(workerId: string, kinds: readonly string[], leaseSeconds: number): Promise<ClaimedJob | null> {
    if (!kinds.length) return null;
    const now = unixSeconds(this.clock);
    const candidates: JobRow[] = await this.db.knex(this.table)
      .select('id', 'kind', 'status', 'attempts')
      .whereIn('kind', kinds)
      .where((q) => q.where((d) => d.where('status', 'queued').andWhere('run_at', '<=', now))
        .orWhere((r) => r.where('status', 'running').andWhere('locked_until', '<', now)))
      .orderBy('run_at').orderBy('id')
      .limit(CLAIM_CANDIDATES);
    for (const row of candidates) {
      const attempts = Number(row.attempts) + 1;
      const lockedUntil = now + leaseSeconds;
      const won = await this.db.knex(this.table)
        .where({ id: row.id, status: row.status, attempts: row.attempts })
        .update({ status: 'running', attempts, locked_by: workerId, locked_until: lockedUntil, updated_at: now });
      if (won) return { id: Number(row.id), kind: row.kind, payload: await this.payload(row.id), attempts, lockedBy: workerId, lockedUntil };
    }
    return null;
  }

  /** Moves the lease forward while a long job runs; false when the job is no longer this worker's. */
  async renew(job: ClaimedJob, leaseSeconds: number): Promise<boolean> {
    const now = unixSeconds(this.clock);
    const lockedUntil = now + leaseSeconds;
    const renewed = await this.held(job).update({ locked_until: lockedUntil, updated_at: now });
    if (renewed) job.lockedUntil = lockedUntil;
    return renewed > 0;
  }

  /**
   * Marks the job done, replacing its payload with `payload` when one is given; false when its lease
   * had been taken over (the new holder finishes it).
   */
  async complete(job: ClaimedJob, payload?: unknown): Promise<boolean> {
    const now = unixSeconds(this.clock);
    const update: Partial<JobRow> = { status: 'done', locked_by: null, locked_until: null, last_error: null, updated_at: now };
    if (payload !== undefined) update.payload = JSON.stringify(payload);
    const changed = await this.held(job).update(update);
    return changed > 0;
  }

  /**
   * Records a failed attempt: back to `queued` for `retryAt` (Unix seconds), or `failed` for good when
   * `retryAt` is null. False when the lease had been taken over.
   */
  async fail(job: ClaimedJob, error: string, retryAt: number | null): Promise<boolean> {
    const now = unixSeconds(this.clock);
    const update: Partial<JobRow> = { status: retryAt === null ? 'failed' : 'queued', locked_by: null, locked_until: null, last_error: error.slice(0, 2000), updated_at: now };
    if (retryAt !== null) update.run_at = retryAt;
    const changed = await this.held(job).update(update);
    return changed > 0;
  }

  /** Deletes `done` jobs last touched before `before` (Unix seconds); failed ones stay for people to see. */
  async pruneDone(before: number): Promise<number> {
    return this.db.knex(this.table).where('status', 'done').andWhere('updated_at', '<', before).del();
  }

  /**
   * A claimed job's payload, read once the claim is won: until then a queued job's payload may grow
   * (mergeIntoQueuedJob(), enqueue.ts), and a copy read before the claim could miss what was added.
   */
  private async payload(id: number): Promise<unknown> {
    const row: Pick<JobRow, 'payload'> | undefined = await this.db.knex(this.table).first('payload').where({ id });
    return row ? parsePayload(row.payload) : null;
  }

  /** The row as long as this worker still holds it: same attempt, same owner, still running. */
  private held(job: ClaimedJob) {
    return this.db.knex(this.table).where({ id: job.id, status: 'running', attempts: job.attempts, locked_by: job.lockedBy });
  }
}

function parsePayload(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // A payload that is not JSON reaches the handler as null, and the handler refuses it.
    return null;
  }
}
