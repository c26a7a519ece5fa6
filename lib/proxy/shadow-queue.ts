/**
 * The background half of shadow mode: comparisons wait in a bounded queue (a full queue drops and
 * counts), run a few at a time, and never touch a client. Each one asks Understudy for its answer
 * and compares it with the upstream's as replay does; when they differ, the upstream is asked a
 * second time and what differs between its own two answers is noise, not reported.
 */
import type { Logger } from '../logger';
import { ActualResponse, compareResponses } from '../replay/compare';
import type { Difference } from '../replay/compare-rules';
import { Redactor } from '../replay/redact';
import { ReplayRules, rulesFor } from '../replay/rules';
import { ShadowStats } from './stats';

export interface ShadowJob {
  route: string;
  /** On a network: the site the exchange was for. */
  blogId?: number;
  method: string;
  /** Path and query, as the client sent them. */
  url: string;
  /** The upstream's answer, as the client got it. */
  primary: ActualResponse;
  /** Only requests that are safe to send twice (GET, HEAD) get the noise check. */
  repeatable: boolean;
  /** Secrets the request carried, kept out of the log. */
  secrets: string[];
  understudy(): Promise<ActualResponse>;
  upstreamAgain(): Promise<ActualResponse>;
}

/** A comparison that differed, redacted, as the shadow store keeps it. */
export interface ShadowDifference {
  route: string;
  /** On a network: the site the exchange was for. */
  blogId?: number;
  method: string;
  url: string;
  /** How many differences there were; `diffs` holds the first LOGGED_DIFFS. */
  count: number;
  diffs: Difference[];
}

export interface ShadowQueueOptions {
  rules: ReplayRules;
  stats: ShadowStats;
  logger: Logger;
  concurrency: number;
  queueLimit: number;
  timeoutMs: number;
  /** Told of each comparison that differed (after noise), already redacted. */
  onDifference?(difference: ShadowDifference): void;
}

/** Differences logged per request at most; the count says how many there were. */
const LOGGED_DIFFS = 20;

export class ShadowQueue {
  private readonly waiting: ShadowJob[] = [];
  private running = 0;
  private idleWaiters: Array<() => void> = [];
  private readonly secretPatterns: RegExp[];

  constructor(private readonly options: ShadowQueueOptions) {
    this.secretPatterns = options.rules.volatile.filter((v) => v.secret).map((v) => v.pattern);
  }

  /** Queued and running comparisons. */
  get pending(): number {
    return this.waiting.length + this.running;
  }

  /** Queues a comparison; false (and counted as dropped) when the queue is full. */
  enqueue(job: ShadowJob): boolean {
    if (this.waiting.length >= this.options.queueLimit && this.running >= this.options.concurrency) {
      this.options.stats.count(job.route, 'dropped', job.blogId);
      return false;
    }
    this.waiting.push(job);
    this.pump();
    return true;
  }

  /** Resolves once nothing is queued or running (tests, shutdown). */
  idle(): Promise<void> {
    if (!this.pending) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    while (this.running < this.options.concurrency && this.waiting.length) {
      const job = this.waiting.shift() as ShadowJob;
      this.running++;
      // setImmediate: the comparison starts after the current I/O turn, never inside a client's.
      setImmediate(() => void this.compare(job).finally(() => this.settle()));
    }
  }

  private settle(): void {
    this.running--;
    this.pump();
    if (!this.pending) for (const wake of this.idleWaiters.splice(0)) wake();
  }

  private async compare(job: ShadowJob): Promise<void> {
    const { stats, logger } = this.options;
    const redactor = new Redactor(job.secrets, this.secretPatterns);
    try {
      const rules = rulesFor(this.options.rules, job.method, job.route);
      const diffs = compareResponses(job.primary, await this.timed(job.understudy()), rules);
      if (!diffs.length) return stats.count(job.route, 'matched', job.blogId);
      const noise = job.repeatable ? compareResponses(job.primary, await this.timed(job.upstreamAgain()), rules).map((d) => d.where) : [];
      const real = diffs.filter((d) => !isNoise(d, noise));
      if (!real.length) return stats.count(job.route, 'noiseCancelled', job.blogId);
      stats.count(job.route, 'differed', job.blogId);
      const difference = {
        route: job.route, method: job.method, url: redactor.text(job.url), count: real.length,
        diffs: real.slice(0, LOGGED_DIFFS).map((d) => redactor.difference(d)),
      };
      logger.warn('shadow: Understudy answered differently', { ...difference, ...logBlog(job) });
      this.options.onDifference?.({ ...difference, ...blogOf(job) });
    } catch (err) {
      stats.count(job.route, 'failed', job.blogId);
      logger.warn('shadow: comparison failed', { route: job.route, ...logBlog(job), method: job.method, error: redactor.text(err instanceof Error ? err.message : String(err)) });
    }
  }

  /** CASE: a hung Understudy handler must not hold a worker forever; it is left to finish on its own. */
  private timed<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${this.options.timeoutMs} ms`)), this.options.timeoutMs);
    });
    return Promise.race([work, limit]).finally(() => clearTimeout(timer));
  }
}

/**
 * A difference is noise when the upstream disagreed with itself at the same place, or above it (a
 * whole text body, a list whose length changed).
 */
function isNoise(d: Difference, noise: readonly string[]): boolean {
  return noise.some((n) => {
    const parent = n.endsWith('.length') ? n.slice(0, -'.length'.length) : n;
    return d.where === n || d.where.startsWith(`${parent}.`) || d.where.startsWith(`${parent}[`);
  });
}

function blogOf(job: ShadowJob): { blogId?: number } {
  return job.blogId !== undefined ? { blogId: job.blogId } : {};
}

/** The blog as request logs name it (`blog_id`). */
function logBlog(job: ShadowJob): { blog_id?: number } {
  return job.blogId !== undefined ? { blog_id: job.blogId } : {};
}
