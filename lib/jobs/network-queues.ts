/**
 * The job queues of a network's sites when one process serves them all (lib/cli/serve-network.ts). A
 * site's worker runs only while the site is open, so the network looks, every half minute, for sites
 * whose queue holds work that is due (a retry coming round, a job a CLI command or another process
 * queued) and opens them: their worker claims at once, and the pool keeps a site open while a job runs.
 * Once an hour, at the periodic schedules' minute, it runs those schedules (the changelog sync) for the
 * sites with a queue that are not open, as their own workers do for the open ones.
 *
 * A site has a queue once the support desk or the forms have run on it (their migrations made it);
 * sites that never used either are never opened by this.
 */
import { Logger } from '../logger';
import { Clock, unixSeconds } from '../wp/clock';
import { Database } from '../wp/db/database';
import { Tables } from '../wp/db/tables';
import { SitePool } from '../wp/multisite/site-pool';
import { MultisiteStore } from '../wp/multisite/store';
import { Site } from '../wp/site';
import { errorText } from './handler';
import { jobsTable } from './queue';
import { SiteQueue, existingQueues, queuesWithDueJobs } from './store';
import { everyMs, hourlyAt } from './ticks';

export interface NetworkQueueOptions<T extends { site: Site }> {
  /** The network's pool, naming the main site's tables. */
  db: Database;
  networkId: number;
  pool: SitePool<T>;
  clock: Clock;
  logger: Logger;
  /** The periodic schedules: the minute of every hour each runs at, and what it enqueues for one site. */
  schedules: ReadonlyArray<{ minute: number; enqueue(site: Site): Promise<unknown> }>;
  /** How often due work is looked for. */
  everyMs?: number;
}

export interface NetworkQueueWatch {
  /** Looks once now: opens the sites with due work; resolves with their blog IDs. */
  openSitesWithDueJobs(): Promise<number[]>;
  /** Runs a schedule for every site with a queue that is not open; resolves with their blog IDs. */
  runScheduleOfClosedSites(enqueue: (site: Site) => Promise<unknown>): Promise<number[]>;
  stop(): Promise<void>;
}

export function watchNetworkQueues<T extends { site: Site }>(options: NetworkQueueOptions<T>): NetworkQueueWatch {
  const { db, pool, logger } = options;
  const store = new MultisiteStore(db);
  const queues = async (): Promise<SiteQueue[]> => {
    const ids = await store.undeletedBlogIds(options.networkId);
    return existingQueues(db, ids.map((blogId) => ({ blogId, table: jobsTable(new Tables({ prefix: db.tables.basePrefix, blogId, multisite: true })) })));
  };
  const closed = (blogId: number) => !pool.openSites().some((open) => open.blogId === blogId);

  const watch: NetworkQueueWatch = {
    async openSitesWithDueJobs() {
      const due = (await queuesWithDueJobs(db, await queues(), unixSeconds(options.clock))).filter(closed);
      // Opening is enough: a site's worker looks for due jobs as it starts.
      for (const blogId of due) await pool.with(blogId, async () => undefined);
      return due;
    },
    async runScheduleOfClosedSites(enqueue) {
      const sites = (await queues()).map((q) => q.blogId).filter(closed);
      for (const blogId of sites) await pool.with(blogId, ({ site }) => enqueue(site));
      return sites;
    },
    async stop() {
      stopLooking();
      for (const stopSchedule of schedules) stopSchedule();
    },
  };
  const guarded = (what: string, work: () => Promise<unknown>) => async () => {
    try {
      await work();
    } catch (err) {
      // CASE: the database is away, or a site would not open; the next round tries again.
      logger.warn(`network jobs: ${what} failed`, { error: errorText(err) });
    }
  };
  const stopLooking = everyMs(options.everyMs ?? 30_000, guarded('looking for due jobs', watch.openSitesWithDueJobs));
  const schedules = options.schedules.map((schedule) => hourlyAt(schedule.minute, guarded('a periodic schedule', () => watch.runScheduleOfClosedSites(schedule.enqueue))));
  return watch;
}
