/**
 * What a server process does around its serving: the start-up checks, and handing back jobs at
 * shutdown.
 */
import { jobsTable } from '../jobs/queue';
import { JobWorker } from '../jobs/worker';
import { Logger } from '../logger';
import { checkSupportDeskAtStartup } from '../support/startup';
import { reportObjectCache } from '../wp/object-cache/startup';
import { Site } from '../wp/site';

/**
 * The opt-in svc_* indexes matter on a large desk only (docs/performance.md): below this many tickets
 * (the demo has a handful) the start-up notice that they are missing is left out.
 */
const MANY_TICKETS = 20_000;

/**
 * The start-up checks: the object cache PHP reads through (one line, and whether it answers), then the
 * support desk's (storage, the opt-in indexes), whose notice about missing indexes is kept for a site
 * with many tickets; everything else it says is passed on.
 */
export async function checkAtStartup(site: Site, logger: Logger): Promise<void> {
  await reportObjectCache(site.objectCache, logger);
  const tickets = Number(((await site.db.knex(site.db.tables.posts).where({ post_type: 'svc_ticket' }).count({ n: '*' }))[0] as { n: number | string }).n);
  const told = tickets >= MANY_TICKETS ? logger : {
    ...logger,
    info: (message: string, fields?: Record<string, unknown>) => { if (!message.startsWith('Optional svc_* indexes are missing')) logger.info(message, fields); },
  };
  await checkSupportDeskAtStartup(site, told);
}

/**
 * Stops the job worker: running jobs get the shutdown timeout to finish; a job still running after
 * that is handed back to the queue at once (queued, unclaimed) rather than left claimed by a process
 * about to exit until its lease runs out. It runs again on another worker: at least once, never lost.
 */
export async function stopWorker(site: Site, worker: JobWorker, logger: Logger): Promise<void> {
  await worker.stop();
  const released = await site.db.knex(jobsTable(site.db.tables)).where({ status: 'running', locked_by: worker.id })
    .update({ status: 'queued', locked_by: null, locked_until: null });
  if (released) logger.warn(`shutdown: ${released} running job(s) did not finish in time and were handed back to the queue`);
}

