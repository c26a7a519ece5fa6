/**
 * Keeping PHP's persistent object cache coherent with Understudy's writes (docs/object-cache.md):
 * every committed write's changes (the site's ChangeFeed) are invalidated before the write is
 * answered, and once more SECOND_PASS_MS later (or when the process closes, sooner). The second pass
 * closes most of the race WordPress has between its own processes too: a PHP request that read a row
 * just before the commit can put the old row back into the cache just after the first delete.
 *
 * A cache that does not answer fails nothing: the write stands, the failure is counted and logged at
 * most once a minute per site, and the changes go to `retry` (a durable job, lib/worker.ts), which
 * tries again until the cache answers. Beside a cache nothing covers, each write is counted as such.
 */
import { WordPressChanges } from '../changes';
import { errorText } from '../errors';
import { Site } from '../site';
import { InvalidateOptions, ObjectCacheInvalidator } from './invalidator';
import type { KeptCoherence } from './status';

/** How long after a write its changes are invalidated a second time. */
export const SECOND_PASS_MS = 1_000;
const FAILURE_LOG_INTERVAL_MS = 60_000;

export interface CoherenceOptions {
  /** Hands the changes of a failed invalidation to something that tries again (a durable job). */
  retry(changes: WordPressChanges): Promise<void>;
  secondPassMs?: number;
}

export class ObjectCacheCoherence implements KeptCoherence {
  private lastFailureLog = -Infinity;
  /** Second passes waiting for their time, with their changes; and those under way. */
  private readonly secondPasses = new Map<NodeJS.Timeout, WordPressChanges>();
  private readonly runningPasses = new Set<Promise<void>>();
  private readonly unsubscribe: () => void;

  constructor(private readonly site: Site, readonly invalidator: ObjectCacheInvalidator | null, private readonly options: CoherenceOptions) {
    this.unsubscribe = site.changes.subscribe((changes) => this.afterWrite(changes));
  }

  /** Invalidates a committed write's changes; never throws (the write is stored). */
  async afterWrite(changes: WordPressChanges): Promise<void> {
    const status = this.site.objectCache;
    if (!this.invalidator) {
      if (status.state === 'uncovered') status.countInvalidation('uncovered');
      return;
    }
    if (!(await this.invalidate(changes))) {
      await this.options.retry(changes).catch((err: unknown) => this.site.logger.error('Object cache: a failed invalidation could not be queued for a retry', { error: errorText(err) }));
    }
    this.scheduleSecondPass(changes);
  }

  /** One invalidation, counted; false when the cache could not be reached. */
  async invalidate(changes: WordPressChanges, options?: InvalidateOptions): Promise<boolean> {
    const status = this.site.objectCache;
    try {
      await this.invalidator?.invalidate(changes, options);
      status.countInvalidation('ok');
      return true;
    } catch (err) {
      status.countInvalidation('failed');
      this.logFailure(err);
      return false;
    }
  }

  /**
   * Runs the pending second passes at once, as one call (a CLI command closes right after its write),
   * and waits for them within the invalidator's deadline before closing it.
   */
  async close(): Promise<void> {
    this.unsubscribe();
    const pending = new WordPressChanges();
    for (const [timer, changes] of this.secondPasses) {
      clearTimeout(timer);
      pending.merge(changes);
    }
    this.secondPasses.clear();
    if (!pending.empty) this.secondPass(pending);
    await Promise.all(this.runningPasses);
    await this.invalidator?.close();
  }

  private scheduleSecondPass(changes: WordPressChanges): void {
    const timer = setTimeout(() => {
      this.secondPasses.delete(timer);
      this.secondPass(changes);
    }, this.options.secondPassMs ?? SECOND_PASS_MS);
    timer.unref();
    this.secondPasses.set(timer, changes);
  }

  private secondPass(changes: WordPressChanges): void {
    // A missed second pass is only the race's window left open: the first pass, or its retry, stands.
    const pass = (this.invalidator?.invalidate(changes, { repeat: true }) ?? Promise.resolve()).catch(() => undefined);
    this.runningPasses.add(pass);
    void pass.finally(() => this.runningPasses.delete(pass));
  }

  private logFailure(err: unknown): void {
    const now = Date.now();
    if (now - this.lastFailureLog < FAILURE_LOG_INTERVAL_MS) return;
    this.lastFailureLog = now;
    this.site.logger.warn('Object cache: an invalidation failed; it is retried until the cache answers', { kind: this.invalidator?.kind, error: errorText(err) });
  }
}
