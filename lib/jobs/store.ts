/** Reading the job table for people (`understudy jobs`): counts per status and the latest jobs. */
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
