/**
 * Which persistent object cache PHP runs beside this site, and what Understudy needs to keep it
 * coherent: the connection and the key-scheme inputs each drop-in reads from wp-config.php (or the
 * `OBJECT_CACHE` setting), plus the site's table prefix, blog ID and multisite flag, from which the
 * drop-ins build their blog and global key prefixes. Detection is detect.ts; the setting syntax url.ts.
 */

/** What every key scheme also needs from the site (`$table_prefix`, `$blog_id`, is_multisite()). */
export interface SiteKeyInputs {
  tablePrefix: string;
  blogId: number;
  multisite: boolean;
}

/** The Redis Object Cache drop-in (rhubarbgroup/redis-cache), with its defaults filled in. */
export interface RedisCacheSetting extends SiteKeyInputs {
  kind: 'redis';
  /** WP_REDIS_SCHEME: `tcp`, `tls` (also spelled `ssl`, `rediss`) or `unix` (then `path` is the socket). */
  scheme: 'tcp' | 'tls' | 'unix';
  /** WP_REDIS_HOST, default 127.0.0.1. */
  host: string;
  /** WP_REDIS_PORT, default 6379. */
  port: number;
  /** WP_REDIS_PATH: the Unix socket, when the scheme is `unix`. */
  path?: string;
  /** WP_REDIS_DATABASE, default 0. */
  database: number;
  /** WP_REDIS_USERNAME, or the first of a two-element WP_REDIS_PASSWORD array. */
  username?: string;
  /** WP_REDIS_PASSWORD (an empty one means none, as in the drop-in). */
  password?: string;
  /** WP_REDIS_TIMEOUT and WP_REDIS_READ_TIMEOUT, seconds, default 1. */
  timeoutSeconds: number;
  readTimeoutSeconds: number;
  /**
   * The key prefix as the drop-in defines it: WP_REDIS_PREFIX, else WP_CACHE_KEY_SALT (the drop-in maps
   * one onto the other), else ''. Untrimmed: the drop-in trims it when building a key.
   */
  prefix: string;
  /** WP_REDIS_SELECTIVE_FLUSH truthy. */
  selectiveFlush: boolean;
  /** WP_REDIS_GLOBAL_GROUPS and WP_REDIS_IGNORED_GROUPS as written (the drop-in adds its own to these). */
  globalGroups: string[];
  ignoredGroups: string[];
  /** WP_REDIS_UNFLUSHABLE_GROUPS: keyed with the blog prefix, even a global group's. */
  unflushableGroups: string[];
}

/** Automattic's memcached drop-in (wp-memcached, PECL memcache). */
export interface MemcachedCacheSetting extends SiteKeyInputs {
  kind: 'memcached';
  /** The `default` bucket of `$memcached_servers` (`host:port` or `unix:///path`), default 127.0.0.1:11211. */
  servers: string[];
  /** WP_CACHE_KEY_SALT, default ''. */
  salt: string;
  /** CUSTOM_USER_TABLE and CUSTOM_USER_META_TABLE both defined: the drop-in's global prefix is then empty. */
  customUserTables: boolean;
  /** The drop-in's `Version:` header (its key scheme changed over versions), when read from the file. */
  version?: string;
}

/** The project's PHP companion (a must-use plugin), which runs WordPress's own invalidation. */
export interface CompanionCacheSetting {
  kind: 'companion';
  /** Where to reach it; absent: the site's own address (siteurl). */
  url?: string;
}

export type ObjectCacheSetting =
  | RedisCacheSetting
  | MemcachedCacheSetting
  | CompanionCacheSetting
  | { kind: 'none' }
  /** A cache none of the above can keep coherent; `reason` says which and why. */
  | { kind: 'unknown'; reason: string };

/** What to do beside a cache Understudy cannot keep coherent (OBJECT_CACHE_UNKNOWN). */
export type UncoveredCachePolicy = 'degrade' | 'refuse-writes';

/** The setting and how it was arrived at, decided once at start. */
export interface ObjectCacheChoice {
  setting: ObjectCacheSetting;
  /** How it was found, for the start-up line: `named by OBJECT_CACHE`, `read from the drop-in /…/object-cache.php (…)`, … */
  foundBy: string;
  onUncovered: UncoveredCachePolicy;
}

/** A one-line description without secrets, for logs: `redis tcp://127.0.0.1:6379 db 0 prefix "x:"`. */
export function describeSetting(setting: ObjectCacheSetting): string {
  switch (setting.kind) {
    case 'redis': {
      const where = setting.scheme === 'unix' ? `unix://${setting.path}` : `${setting.scheme}://${setting.host}:${setting.port}`;
      return `Redis Object Cache at ${where} db ${setting.database}, prefix ${JSON.stringify(setting.prefix)}`;
    }
    case 'memcached':
      return `memcached (Automattic's drop-in${setting.version ? ` ${setting.version}` : ''}) at ${setting.servers.join(', ')}, salt ${JSON.stringify(setting.salt)}`;
    case 'companion':
      return `the PHP companion at ${setting.url ?? 'the site\'s own address'}`;
    case 'none':
      return 'no persistent object cache';
    case 'unknown':
      return `an object cache Understudy cannot keep coherent: ${setting.reason}`;
  }
}
