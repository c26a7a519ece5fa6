/**
 * The worker inside each server process: it claims due jobs and runs their handlers, at most
 * `concurrency` at a time. It looks for work on a tick every second (so a retry starts
 * within about a second of its time, and jobs enqueued by another process are found), and at once
 * when this process enqueues a job or a job finishes. Stopping lets running jobs finish.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { unixSeconds } from '../wp/clock';
import { Site } from '../wp/site';
import { JobHandler, errorText, nextRunAt } from './handler';
import { ClaimedJob, JobQueue, jobsTable } from './queue';
import { StopTick, everyMs } from './ticks';
import { onJobEnqueued } from './wake';

export interface WorkerOptions {
  /** Handlers by job kind; the worker claims only these kinds. */
  handlers: Readonly<Record<string, JobHandler>>;
  /** Jobs run at the same time (default 4). */
  concurrency?: number;
  /** How long a claim holds before another worker may take the job over (default 60 s); renewed while running. */
  leaseSeconds?: number;
  /** Names this worker in `locked_by` (default host, process and a random part). */
  id?: string;
  /** How long stop() waits for running jobs (default 15 s); jobs still running are taken over after their lease. */
  stopTimeoutMs?: number;
}

/** `done` jobs are kept this long for `understudy jobs`, then deleted. */
const KEEP_DONE_SECONDS = 14 * 86_400;
const PRUNE_EVERY_SECONDS = 3_600;

export class JobWorker {
  readonly id: string;
  private readonly queue: JobQueue;
  private readonly concurrency: number;
  private readonly leaseSeconds: number;
  private readonly running = new Set<Promise<void>>();
  private stopTick: StopTick | null = null;
  private unsubscribe: (() => void) | null = null;
  private filling: Promise<void> | null = null;
  private refill = false;
  private stopping = false;
  private lastPrune = 0;
  private launched = 0;
  /** Set while claims fail, so an outage is logged once rather than every second. */
  private claimsFailing = false;

  constructor(private readonly site: Site, private readonly options: WorkerOptions) {
    this.id = options.id ?? `${os.hostname().slice(0, 40)}:${process.pid}:${randomBytes(3).toString('hex')}`;
    this.queue = new JobQueue(site.db, site.clock);
    this.concurrency = options.concurrency ?? 4;
    this.leaseSeconds = options.leaseSeconds ?? 60;
  }

  /** Starts ticking every second and listening for jobs enqueued here. */
  start(): void {
    if (this.stopTick || this.stopping) return;
    this.stopTick = everyMs(1000, () => this.wake());
    const table = jobsTable(this.site.db.tables);
    this.unsubscribe = onJobEnqueued((queue, kind) => {
      if (queue === table && Object.hasOwn(this.options.handlers, kind)) this.wake();
    });
    this.wake();
  }

  /** Looks for due jobs now (coalesced: a look already under way looks once more when it ends). */
  wake(): void {
    if (!this.stopTick || this.stopping) return;
    void this.fill();
  }

  /**
   * Runs every job that is due by the site's clock, and waits for them: the deterministic way to
   * drive the queue (tests, one-shot commands). Returns how many jobs ran.
   */
  async runDueJobs(): Promise<number> {
    const before = this.launched;
    for (;;) {
      await this.fill();
      if (!this.running.size) return this.launched - before;
      await Promise.race(this.running);
    }
  }

  /** Whether a job is running now (a site of a network is not let go while one is). */
  get busy(): boolean {
    return this.running.size > 0;
  }

  /** Stops claiming, waits for running jobs (up to stopTimeoutMs), and stops the tick. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.unsubscribe?.();
    this.stopTick?.();
    this.stopTick = null;
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, this.options.stopTimeoutMs ?? 15_000).unref());
    // A claim already under way may still win a job: it runs, and is waited for like the others.
    const drained = (async () => {
      await this.filling;
      await Promise.allSettled([...this.running]);
    })();
    await Promise.race([drained, timeout]);
  }

  /** Claims jobs until the concurrency limit is reached or nothing is due. */
  private fill(): Promise<void> {
    if (this.filling) {
      this.refill = true;
      return this.filling;
    }
    this.filling = this.claimLoop().finally(() => {
      this.filling = null;
    });
    return this.filling;
  }

  private async claimLoop(): Promise<void> {
    const kinds = Object.keys(this.options.handlers);
    try {
      // A wake that arrives while this looks (or prunes) looks once more: none is lost to the next tick.
      do {
        this.refill = false;
        while (!this.stopping && this.running.size < this.concurrency) {
          const job = await this.queue.claim(this.id, kinds, this.leaseSeconds);
          if (!job) break;
          this.launch(job);
        }
        await this.pruneNowAndThen();
      } while (this.refill && !this.stopping);
      if (this.claimsFailing) this.site.logger.info('job queue: claiming again', { worker: this.id });
      this.claimsFailing = false;
    } catch (err) {
      // CASE: the database is away; the next tick tries again.
      if (!this.claimsFailing) this.site.logger.warn('job queue: could not claim jobs', { worker: this.id, error: errorText(err) });
      this.claimsFailing = true;
    }
  }

  private launch(job: ClaimedJob): void {
    const run: Promise<void> = this.execute(job).finally(() => {
      this.running.delete(run);
      this.wake();
    });
    this.running.add(run);
    this.launched++;
  }

  /** Runs one claimed job and records how it ended; the lease is renewed while the handler works. */
  private async execute(job: ClaimedJob): Promise<void> {
    const handler = this.options.handlers[job.kind] as JobHandler;
    const renew = setInterval(() => {
      this.queue.renew(job, this.leaseSeconds).catch(() => undefined);
    }, Math.max(1, this.leaseSeconds / 3) * 1000);
    renew.unref();
    let failure: { err: unknown } | null = null;
    try {
      await handler.run(this.site, job);
    } catch (err) {
      failure = { err };
    } finally {
      clearInterval(renew);
    }
    try {
      const recorded = failure ? await this.recordFailure(handler, job, failure.err) : await this.queue.complete(job, handler.donePayload?.(job.payload));
      if (!recorded) this.lostLease(job);
    } catch (writeErr) {
      // The lease runs out and the job is tried again: at least once, never silently dropped.
      this.site.logger.error('job queue: could not record the end of a job', { job: job.id, error: errorText(writeErr) });
    }
  }

  private async recordFailure(handler: JobHandler, job: ClaimedJob, err: unknown): Promise<boolean> {
    const retryAt = nextRunAt(handler, job, err, unixSeconds(this.site.clock));
    const error = errorText(err);
    const recorded = await this.queue.fail(job, error, retryAt);
    if (recorded) {
      this.site.logger.warn(retryAt === null ? 'job failed' : 'job failed; will retry', { job: job.id, kind: job.kind, attempt: job.attempts, error, retry_at: retryAt });
    }
    return recorded;
  }

  private lostLease(job: ClaimedJob): void {
    this.site.logger.warn('job queue: lease lost to another worker; its result stands', { job: job.id, worker: this.id });
  }

  private async pruneNowAndThen(): Promise<void> {
    const now = unixSeconds(this.site.clock);
    if (now - this.lastPrune < PRUNE_EVERY_SECONDS) return;
    this.lastPrune = now;
    await this.queue.pruneDone(now - KEEP_DONE_SECONDS);
  }
}
