/**
 * PHP's persistent object cache, as Understudy keeps it coherent: after each committed write, what
 * the write changed is removed from the cache the way WordPress's own cache-cleaning functions would
 * remove it, so that PHP reads the rows again. One implementation per kind of cache.
 */
import { WordPressChanges } from '../changes';

export interface InvalidateOptions {
  /**
   * The changes were sent before (a second pass): only the PHP companion reads it, to clean without
   * firing `understudy_cache_invalidated` again. The caches' own adapters just delete again.
   */
  repeat?: boolean;
}

export interface ObjectCacheInvalidator {
  readonly kind: 'redis' | 'memcached' | 'companion';
  /**
   * Removes what `changes` made stale, in one round trip where the cache allows, within the
   * invalidator's deadline; throws when it cannot be reached.
   */
  invalidate(changes: WordPressChanges, options?: InvalidateOptions): Promise<void>;
  close(): Promise<void>;
}
