/**
 * A site's persistent object cache while Understudy serves it: the setting chosen at start, whether
 * the cache answered last time it was contacted, the invalidations' outcomes (for the metrics), and
 * the two consequences of a cache Understudy cannot keep coherent: degraded readiness, and, when
 * OBJECT_CACHE_UNKNOWN=refuse-writes, writes refused.
 */
import { WordPressChanges } from '../changes';
import { WpError } from '../errors';
import { ObjectCacheInvalidator } from './invalidator';
import { ObjectCacheChoice, ObjectCacheSetting } from './setting';

/** off: no persistent cache; ok: kept coherent; unreachable: the cache did not answer last time; uncovered: nothing can keep it coherent. */
export type ObjectCacheState = 'off' | 'ok' | 'unreachable' | 'uncovered';

/**
 * What became of one write's invalidation: done; failed (left to the retries); or uncovered (a write
 * committed beside a cache that nothing invalidates).
 */
export type InvalidationResult = 'ok' | 'failed' | 'uncovered';

/** The reason codes readiness shows (the details go to the log: they name files and hosts). */
export type ObjectCacheDegradation = 'object_cache_uncovered' | 'object_cache_unreachable';

/**
 * What keeps the cache coherent after each write (ObjectCacheCoherence, ./coherence.ts), as the status
 * holds it for the retry job and for closing: named by what it does, since coherence.ts reads the site,
 * whose writes read this status.
 */
export interface KeptCoherence {
  readonly invalidator: ObjectCacheInvalidator | null;
  /** One invalidation, counted; false when the cache could not be reached. */
  invalidate(changes: WordPressChanges): Promise<boolean>;
  close(): Promise<void>;
}

const NO_CACHE: ObjectCacheChoice = { setting: { kind: 'none' }, foundBy: 'no setting', onUncovered: 'degrade' };

export class ObjectCacheStatus {
  readonly choice: ObjectCacheChoice;
  private answered = true;
  private readonly counts = new Map<InvalidationResult, number>();
  private kept: KeptCoherence | null = null;

  constructor(choice: ObjectCacheChoice | undefined) {
    this.choice = choice ?? NO_CACHE;
  }

  get setting(): ObjectCacheSetting {
    return this.choice.setting;
  }

  get state(): ObjectCacheState {
    const { kind } = this.choice.setting;
    if (kind === 'none') return 'off';
    if (kind === 'unknown') return 'uncovered';
    return this.answered ? 'ok' : 'unreachable';
  }

  /** What invalidates the cache after each write (./coherence.ts), once the site is opened; null before, or in a bare site. */
  get coherence(): KeptCoherence | null {
    return this.kept;
  }

  keep(coherence: KeptCoherence): void {
    this.kept = coherence;
  }

  /** Lets go of the cache's connections (with the site). */
  async close(): Promise<void> {
    await this.kept?.close();
    this.kept = null;
  }

  /** Records whether the cache answered (the start-up probe, each invalidation). */
  reached(answered: boolean): void {
    this.answered = answered;
  }

  countInvalidation(result: InvalidationResult): void {
    this.counts.set(result, (this.counts.get(result) ?? 0) + 1);
    if (result !== 'uncovered') this.reached(result === 'ok');
  }

  invalidations(): ReadonlyMap<InvalidationResult, number> {
    return this.counts;
  }

  /** Why readiness is degraded, or null. */
  degradation(): ObjectCacheDegradation | null {
    const state = this.state;
    if (state === 'uncovered') return 'object_cache_uncovered';
    return state === 'unreachable' ? 'object_cache_unreachable' : null;
  }

  /**
   * The error every write answers while writes are refused (OBJECT_CACHE_UNKNOWN=refuse-writes beside a
   * cache nothing keeps coherent), or null. Call it before a write's transaction opens.
   */
  writesRefused(): WpError | null {
    if (this.state !== 'uncovered' || this.choice.onUncovered !== 'refuse-writes') return null;
    return new WpError(
      'understudy_writes_refused',
      'Understudy does not write to this site: PHP reads through a persistent object cache that Understudy cannot keep up to date, and OBJECT_CACHE_UNKNOWN is refuse-writes.',
      503,
    );
  }
}

/** Throws the refusal when writes are refused; the one check every write path makes before its transaction. */
export function assertWritesAllowed(status: ObjectCacheStatus): void {
  const refusal = status.writesRefused();
  if (refusal) throw refusal;
}
