/**
 * `understudy jobs`: what the job queue holds (team alerts, reply emails, form notifications): how
 * many jobs are queued, running, failed and done, and the latest of them. Times are UTC, ISO 8601.
 */
import { JOB_STATUSES, JobRow } from '../jobs/queue';
import { countJobs, latestJobs } from '../jobs/store';
import { loadSiteConfig } from '../wp/config';
import { CliError, choiceFlag, parseCommandArgs, stringFlag } from './args';
import { CliContext, line, withSite } from './context';
import { Row, asciiTable } from './format';

export const JOBS_HELP = `usage: understudy jobs [--format=table|json] [--status=<status>] [--limit=<n>]

Shows the job queue: how many jobs are queued, running, failed and done, then the latest
jobs, newest first (default 20). --status shows only queued, running, failed or done jobs.
The table cuts each payload at 80 characters. --format=json prints {"counts": {...},
"jobs": [...]} with whole payloads, times as ISO 8601 UTC.
`;

const TABLE_FIELDS = ['id', 'kind', 'status', 'attempts', 'run_at', 'last_error', 'payload'];
/** A table cell shows this much of a payload (a queued form notification carries a whole email); JSON shows it all. */
const TABLE_PAYLOAD_CHARS = 80;

/** Runs `jobs ...`; returns the exit status. */
export async function jobsCommand(ctx: CliContext, argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, { format: 'string', status: 'string', limit: 'string' });
  if (args.positional.length) throw new CliError('Too many arguments. Usage: understudy jobs [--format=table|json] [--status=<status>] [--limit=<n>]');
  const format = choiceFlag(args, 'format', ['table', 'json'], 'table');
  const status = args.flags.status === undefined ? undefined : choiceFlag(args, 'status', JOB_STATUSES, 'queued');
  const limit = Number(stringFlag(args, 'limit', '20'));
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new CliError('--limit must be a whole number from 1 to 1000.');
  return withSite(ctx, loadSiteConfig(ctx.env, ctx.cwd), async ({ site }) => {
    const counts = await countJobs(site.db);
    const jobs = (await latestJobs(site.db, { status, limit })).map(presentJob);
    if (format === 'json') {
      line(ctx, JSON.stringify({ counts, jobs }));
      return 0;
    }
    line(ctx, JOB_STATUSES.map((s) => `${s}: ${counts[s]}`).join(', '));
    if (jobs.length) {
      const rows: Row[] = jobs.map((job) => ({
        id: job.id, kind: job.kind, status: job.status, attempts: job.attempts, run_at: job.run_at, last_error: job.last_error ?? '', payload: cut(JSON.stringify(job.payload), TABLE_PAYLOAD_CHARS),
      }));
      for (const text of asciiTable(TABLE_FIELDS, rows)) line(ctx, text);
    }
    return 0;
  });
}

/** A job as the command shows it: times as ISO 8601 UTC, the payload decoded. */
function presentJob(row: JobRow) {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    attempts: row.attempts,
    run_at: iso(row.run_at),
    locked_by: row.locked_by,
    locked_until: row.locked_until === null ? null : iso(row.locked_until),
    last_error: row.last_error,
    payload: parsed(row.payload),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** At most `max` characters (code points), the last one `…` when cut. */
function cut(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

function iso(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}

function parsed(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    return payload;
  }
}
