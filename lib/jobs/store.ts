/**
 * Reading job tables: for people (`understudy jobs`: counts per status and the latest jobs), and across
 * the sites of a network (which sites' queues exist, which hold work that is due).
 */
import { Database } from '../wp/db/database';
import { JOB_STATUSES, JobRow, JobStatus, jobsTable } from './queue';

export type JobCounts = Record<JobStatus, number>;

export async function countJobs(db: Database): Promise<JobCounts> {
  const rows: Array<{ status: string; total: number | string }> = await db.knex(jobsTable(db.tables))
    .select('status').count({ total: '*' }).groupBy('status');
  const counts = Object.fromEntries(JOB_STATUSES.map((s) => [s, 0])) as JobCounts;
  for (const row of rows) if (row.status in counts) counts[row.status as JobStatus] = Number(row.total);
  return counts;
}

/** The newest jobs first, optionally of one status. */
export async function latestJobs(db: Database, options: { status?: JobStatus; limit: number }): Promise<JobRow[]> {
  const query = db.knex(jobsTable(db.tables)).select('*').orderBy('id', 'desc').limit(options.limit);
  if (options.status) query.where('status', options.status);
  const rows: JobRow[] = await query;
  return rows.map((row) => ({
    ...row,
    id: Number(row.id),
    run_at: Number(row.run_at),
    attempts: Number(row.attempts),
    locked_until: row.locked_until === null ? null : Number(row.locked_until),
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
  }));
}

/** A site's job table on a network. */
export interface SiteQueue {
  blogId: number;
  table: string;
}

/** Tables a query names at most (a UNION of one SELECT each). */
const QUEUES_PER_QUERY = 50;

/** Of `queues`, those whose table exists: the sites where the support desk or the forms have ever run. */
export async function existingQueues(db: Database, queues: SiteQueue[]): Promise<SiteQueue[]> {
  const found = new Set<string>();
  for (let i = 0; i < queues.length; i += QUEUES_PER_QUERY * 10) {
    const names = queues.slice(i, i + QUEUES_PER_QUERY * 10).map((q) => q.table);
    const marks = names.map(() => '?').join(', ');
    const rows = db.dialect === 'mysql'
      ? ((await db.knex.raw(`SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (${marks})`, names)) as [Array<{ name: string }>])[0]
      : ((await db.knex.raw(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (${marks})`, names)) as Array<{ name: string }>);
    for (const row of rows) found.add(row.name);
  }
  return queues.filter((q) => found.has(q.table));
}

/**
 * The blog IDs among `queues` whose table holds a job a worker would claim at `now` (queued and due, or
 * running past its lease), one query per 50 tables.
 */
export async function queuesWithDueJobs(db: Database, queues: SiteQueue[], now: number): Promise<number[]> {
  const due: number[] = [];
  for (let i = 0; i < queues.length; i += QUEUES_PER_QUERY) {
    const chunk = queues.slice(i, i + QUEUES_PER_QUERY);
    const selects = chunk.map((q) => `SELECT * FROM (SELECT ${Number(q.blogId)} AS blog_id FROM ${q.table}
      WHERE (status = 'queued' AND run_at <= ?) OR (status = 'running' AND locked_until < ?) LIMIT 1) AS q${Number(q.blogId)}`);
    const result = await db.knex.raw(selects.join(' UNION ALL '), chunk.flatMap(() => [now, now]));
    const rows = (db.dialect === 'mysql' ? (result as unknown[])[0] : result) as Array<{ blog_id: number }>;
    due.push(...rows.map((row) => Number(row.blog_id)));
  }
  return due;
}
