/**
 * What a server process does around its serving: the start-up checks, waiting for the stop, handing
 * back jobs and closing servers at shutdown. `serve`, its cluster's primary and `proxy` share it.
 */
import http from 'node:http';
import { jobsTable } from '../jobs/queue';
import { JobWorker } from '../jobs/worker';
import { Logger } from '../logger';
import { checkSupportDeskAtStartup } from '../support/startup';
import { reportObjectCache } from '../wp/object-cache/startup';
import { Site } from '../wp/site';
import { CliContext } from './context';

export interface RunningServer {
  /** Where the server answers, e.g. `http://127.0.0.1:8080`. */
  url: string;
  site: Site;
  /** Stops the server, then closes the database. */
  close(): Promise<void>;
}

/** What `serve` adds to the runtime options it shares with `proxy`. */
export interface ServeOptions {
  /** Readiness waits for the caches loaded at start. */
  readyWhenWarm?: boolean;
}

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

/** Closes a server and every connection to it at once (the metrics port, a start that failed). */
export function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/**
 * After a shutdown asked for by a signal, the process ends even if a released job's handler is
 * still waiting on the network (its job is back in the queue; its late result would be refused).
 */
export function exitPromptly(ctx: CliContext): void {
  if (!ctx.signal) setTimeout(() => process.exit(process.exitCode ?? 0), 200).unref();
}

/** Resolves with what asked the server to stop: the context's abort signal, or SIGINT/SIGTERM. */
export function stopRequested(ctx: CliContext): Promise<string> {
  const { signal } = ctx;
  if (signal) {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve('stop requested');
      signal.addEventListener('abort', () => resolve('stop requested'), { once: true });
    });
  }
  return new Promise((resolve) => {
    const stop = (name: string) => () => {
      // Handlers go after the first signal, so a second Ctrl-C ends the process at once.
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(name);
    };
    const onInt = stop('SIGINT');
    const onTerm = stop('SIGTERM');
    process.once('SIGINT', onInt);
    process.once('SIGTERM', onTerm);
  });
}
