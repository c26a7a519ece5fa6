/**
 * Automattic's Memcached Object Cache drop-in (wp-memcached 4.0.0, over PECL memcache) kept coherent:
 * WordPress core's deletes (core-invalidation.ts) under the drop-in's key scheme.
 *
 * Its key (WP_Object_Cache::key()): `<WP_CACHE_KEY_SALT>:` when a salt is set, then the flush
 * number of the group's kind and `:`, then the table prefix (single site) or the blog ID (multisite;
 * global groups: the table prefix on a single site, nothing on a network or with custom user tables),
 * then `:<group>:<key>`, with all whitespace removed; PECL memcache then turns each remaining byte at
 * or below a space into `_` and cuts the key at 250 bytes. A flush does not empty memcached: it moves
 * the flush number, so keys built with the old one are never read again. The two flush numbers (site
 * groups, global groups) are themselves stored under the flush prefix `_`; the drop-in keeps a copy
 * on each server of its `default` bucket and trusts the largest. They are read fresh at every
 * invalidation: a remembered one would send the deletes to keys nobody reads after a flush.
 *
 * `$memcached_servers` may name several servers, and buckets of servers by group. PECL memcache
 * spreads keys over a bucket's servers by a hash (consistent crc32 by default, both set in php.ini);
 * rather than reproduce that, each delete goes to every server of the bucket, which is correct
 * whatever the hashing and costs nothing more in round trips. Two round trips per invalidation
 * (read the flush numbers, then delete), each to all servers in parallel.
 */
import { WordPressChanges } from '../changes';
import { CORE_GLOBAL_GROUPS, CORE_NON_PERSISTENT_GROUPS, CacheKey, coreInvalidation } from './core-invalidation';
import type { ObjectCacheInvalidator } from './invalidator';
import { MemcacheConnection, MemcacheServer, MemcacheValue } from './memcache-text';

export interface MemcachedCacheConfig {
  /** `$memcached_servers`: a list of servers, or buckets of them by group name (`default` for the rest). */
  servers: MemcacheServer[] | Record<string, MemcacheServer[]>;
  /** WP_CACHE_KEY_SALT ('' when undefined). */
  salt?: string;
  /** `$table_prefix` from wp-config.php, e.g. `wp_`. */
  tablePrefix: string;
  multisite?: boolean;
  /** The site's blog ID on a multisite network (1 for the main site). */
  blogId?: number;
  /** CUSTOM_USER_TABLE and CUSTOM_USER_META_TABLE both defined: global groups lose the table prefix. */
  customUserTables?: boolean;
  /** Groups plugins add with wp_cache_add_global_groups(), beyond core's. */
  globalGroups?: string[];
  /** Groups plugins add with wp_cache_add_non_persistent_groups(), beyond core's: never in memcached. */
  nonPersistentGroups?: string[];
  /** Taxonomies plugins register for post types, added to CORE_POST_TYPE_TAXONOMIES. */
  postTypeTaxonomies?: Record<string, string[]>;
  /** Deadline of each request, connecting included (the drop-in gives PECL memcache 1 s). */
  timeoutMs?: number;
}

const SITE_FLUSH_GROUP = 'WP_Object_Cache';
const GLOBAL_FLUSH_GROUP = 'WP_Object_Cache_global';
/** The flush number's key since 4.0, and the one before it, which the drop-in still upgrades from. */
const FLUSH_KEYS = ['flush_number_v4', 'flush_number'];
const MAX_KEY_BYTES = 250;

interface FlushNumbers {
  site?: string;
  global?: string;
}

export function memcachedInvalidator(config: MemcachedCacheConfig): ObjectCacheInvalidator {
  return new MemcachedInvalidator(config);
}

class MemcachedInvalidator implements ObjectCacheInvalidator {
  readonly kind = 'memcached';
  private readonly scheme: MemcachedKeyScheme;
  private readonly buckets: Record<string, MemcacheServer[]>;
  private readonly connections = new Map<MemcacheServer, MemcacheConnection>();

  constructor(private readonly config: MemcachedCacheConfig) {
    this.scheme = new MemcachedKeyScheme(config);
    this.buckets = Array.isArray(config.servers) ? { default: config.servers } : config.servers;
    if (!this.buckets.default?.length) throw new Error('memcached: no server in the default bucket');
  }

  async invalidate(changes: WordPressChanges): Promise<void> {
    const { keys, lastChanged } = coreInvalidation(changes, this.config.postTypeTaxonomies);
    const entries = [...keys, ...lastChanged.map((group) => ({ group, key: 'last_changed' }))]
      .filter((entry) => this.scheme.persistent(entry.group));
    if (!entries.length) return;
    const flush = await this.flushNumbers();
    const byServer = new Map<MemcacheServer, string[]>();
    for (const entry of entries) {
      const number = this.scheme.isGlobal(entry.group) ? flush.global : flush.site;
      // No flush number: PHP makes a new one on its next request, so no key of this kind is read again.
      if (number === undefined) continue;
      for (const server of this.buckets[entry.group] ?? this.buckets.default) {
        const list = byServer.get(server) ?? [];
        list.push(this.scheme.key(entry, number));
        byServer.set(server, list);
      }
    }
    await Promise.all([...byServer].map(([server, list]) => this.connection(server).delete(list)));
  }

  async close(): Promise<void> {
    for (const connection of this.connections.values()) connection.close();
    this.connections.clear();
  }

  /** The largest of each flush number over the default bucket's servers, as the drop-in trusts. */
  private async flushNumbers(): Promise<FlushNumbers> {
    const [siteV4, siteV3] = FLUSH_KEYS.map((name) => this.scheme.flushKey(SITE_FLUSH_GROUP, name));
    const [globalV4, globalV3] = FLUSH_KEYS.map((name) => this.scheme.flushKey(GLOBAL_FLUSH_GROUP, name));
    const answers = await Promise.all(this.buckets.default.map((server) =>
      this.connection(server).get([siteV4, globalV4, siteV3, globalV3])));
    return {
      site: largest(answers, siteV4) ?? largest(answers, siteV3),
      global: largest(answers, globalV4) ?? largest(answers, globalV3),
    };
  }

  private connection(server: MemcacheServer): MemcacheConnection {
    let connection = this.connections.get(server);
    if (!connection) {
      connection = new MemcacheConnection(server, this.config.timeoutMs ?? 1000);
      this.connections.set(server, connection);
    }
    return connection;
  }
}

/** The drop-in's key for a WordPress cache entry, given the flush number of its kind. */
export class MemcachedKeyScheme {
  private readonly salt: string;
  private readonly blogPrefix: string;
  private readonly globalPrefix: string;
  private readonly globalGroups: Set<string>;
  private readonly nonPersistent: Set<string>;

  constructor(config: MemcachedCacheConfig) {
    this.salt = config.salt ? `${config.salt}:` : '';
    this.blogPrefix = config.multisite ? String(config.blogId ?? 1) : config.tablePrefix;
    this.globalPrefix = config.multisite || config.customUserTables ? '' : config.tablePrefix;
    this.globalGroups = new Set([GLOBAL_FLUSH_GROUP, ...CORE_GLOBAL_GROUPS, ...config.globalGroups ?? []]);
    this.nonPersistent = new Set([...CORE_NON_PERSISTENT_GROUPS, ...config.nonPersistentGroups ?? []]);
  }

  isGlobal(group: string): boolean {
    return this.globalGroups.has(group);
  }

  persistent(group: string): boolean {
    return !this.nonPersistent.has(group);
  }

  key(entry: CacheKey, flushNumber: string): string {
    const prefix = this.isGlobal(entry.group) ? this.globalPrefix : this.blogPrefix;
    return asPeclKey(`${this.salt}${flushNumber}:${prefix}:${entry.group}:${entry.key}`.replace(/[ \t\n\v\f\r]+/g, ''));
  }

  /** Where a flush number is kept: under the flush prefix `_`, never itself flushed. */
  flushKey(group: string, name: string): string {
    return this.key({ group, key: name }, '_');
  }
}

/** As PECL memcache sends a key: bytes at or below a space become `_`, at most 250 bytes. */
function asPeclKey(key: string): string {
  const bytes = Buffer.from(key, 'utf8').subarray(0, MAX_KEY_BYTES);
  for (let i = 0; i < bytes.length; i++) if (bytes[i] <= 0x20) bytes[i] = 0x5f;
  return bytes.toString('latin1');
}

/**
 * The largest positive flush number any server holds under `key`. PECL memcache stores PHP's integer
 * as its decimal digits; compared as BigInt, since a microsecond timestamp is near 2^53.
 */
function largest(answers: Map<string, MemcacheValue>[], key: string): string | undefined {
  let max = 0n;
  for (const values of answers) {
    const digits = /^\d+/.exec(values.get(key)?.data.toString('latin1') ?? '')?.[0];
    if (digits && BigInt(digits) > max) max = BigInt(digits);
  }
  return max > 0n ? String(max) : undefined;
}
