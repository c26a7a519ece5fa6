/**
 * What health and metrics read of the shared job queue ({p}svc_jobs): read-only, one small query
 * each, over the whole site (every process sees the same numbers).
 */
import { unixSeconds } from '../wp/clock';
import { Site } from '../wp/site';
import { jobsTable } from '../jobs/queue';

export interface JobFacts {
  /** Jobs waiting whose time has come (queued, run_at <= now), and running ones whose lease ran out. */
  due: number;
  /** Age in seconds of the oldest of those (0 when none). */
  oldestDueSeconds: number;
  /** Jobs by status. */
  byStatus: Record<string, number>;
  /** Jobs that gave up (status failed) by kind: deliveries that failed for good. */
  failedByKind: Record<string, number>;
}

export async function readJobFacts(site: Site): Promise<JobFacts> {
  const now = unixSeconds(site.clock);
  const table = jobsTable(site.db.tables);
  const knex = site.db.knex;
  const dueQuery = () => knex(table).where((q) => q.where('status', 'queued').andWhere('run_at', '<=', now))
    .orWhere((q) => q.where('status', 'running').andWhere('locked_until', '<', now));
  const [dueRow, byStatusRows, failedRows] = await Promise.all([
    dueQuery().count({ n: '*' }).min({ oldest: 'run_at' }).first(),
    knex(table).select('status').count({ n: '*' }).groupBy('status'),
    knex(table).where('status', 'failed').select('kind').count({ n: '*' }).groupBy('kind'),
  ]);
  const due = Number((dueRow as { n?: number | string } | undefined)?.n ?? 0);
  const oldest = (dueRow as { oldest?: number | string | null } | undefined)?.oldest;
  return {
    due,
    oldestDueSeconds: due && oldest !== null && oldest !== undefined ? Math.max(0, now - Number(oldest)) : 0,
    byStatus: Object.fromEntries((byStatusRows as Array<{ status: string; n: number | string }>).map((r) => [r.status, Number(r.n)])),
    failedByKind: Object.fromEntries((failedRows as Array<{ kind: string; n: number | string }>).map((r) => [r.kind, Number(r.n)])),
  };
}
