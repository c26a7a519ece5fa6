/**
 * The job worker every server process runs (`serve`, and `proxy` unless it shadows writes into a
 * copy): one worker over the shared job table (lib/jobs), with the handlers of every plugin's job
 * kinds, and the schedules that enqueue periodic work (the changelog sync) while it runs.
 * The plugins know nothing of each other, so their handlers meet here, above both.
 */
import { formJobHandlers } from './forms/notifications';
import { errorText, JobHandler } from './jobs/handler';
import { OBJECT_CACHE_JOB, objectCacheJobHandler } from './jobs/object-cache-retry';
import { StopTick, hourlyAt } from './jobs/ticks';
import { JobWorker, WorkerOptions } from './jobs/worker';
import { CHANGELOG_SYNC_JOB, SYNC_MINUTE, enqueueDueSyncs } from './support/changelogs/schedule';
import { changelogSyncHandler } from './support/jobs/handlers/changelog-sync';
import { HandlerOptions, supportJobHandlers } from './support/jobs/handlers';
import { Site } from './wp/site';

/** Every job kind this version runs, and its handler. */
export function jobHandlers(options: HandlerOptions = {}): Record<string, JobHandler> {
  return { ...supportJobHandlers(options), [CHANGELOG_SYNC_JOB]: changelogSyncHandler(), ...formJobHandlers(), [OBJECT_CACHE_JOB]: objectCacheJobHandler() };
}

/** Periodic work: the minute of every hour it runs at, and what enqueues the jobs of the kind it feeds. */
export interface JobSchedule {
  kind: string;
  minute: number;
  enqueue(site: Site): Promise<unknown>;
}

export const SCHEDULES: ReadonlyArray<JobSchedule> = [{ kind: CHANGELOG_SYNC_JOB, minute: SYNC_MINUTE, enqueue: enqueueDueSyncs }];

/** A worker that also runs the schedules of the kinds it handles, started and stopped with it. */
class ScheduledJobWorker extends JobWorker {
  private schedules: StopTick[] = [];

  constructor(private readonly scheduledSite: Site, private readonly kinds: ReadonlySet<string>, options: WorkerOptions) {
    super(scheduledSite, options);
  }

  override start(): void {
    super.start();
    if (this.schedules.length) return;
    this.schedules = SCHEDULES.filter((s) => this.kinds.has(s.kind)).map((s) => hourlyAt(s.minute, () => this.runSchedule(s)));
  }

  override async stop(): Promise<void> {
    for (const stopSchedule of this.schedules) stopSchedule();
    this.schedules = [];
    await super.stop();
  }

  private async runSchedule(schedule: JobSchedule): Promise<void> {
    try {
      await schedule.enqueue(this.scheduledSite);
    } catch (err) {
      // CASE: the database is away; the next tick tries again.
      this.scheduledSite.logger.warn('job schedule failed', { kind: schedule.kind, error: errorText(err) });
    }
  }
}

/** A started worker for `site`: every kind unless `handlers` says otherwise. */
export function startJobWorker(site: Site, options: Partial<WorkerOptions> & HandlerOptions = {}): JobWorker {
  const handlers = options.handlers ?? jobHandlers(options);
  const worker = new ScheduledJobWorker(site, new Set(Object.keys(handlers)), { ...options, handlers });
  worker.start();
  return worker;
}
