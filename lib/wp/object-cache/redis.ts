/**
 * The Redis Object Cache drop-in (plugin `redis-cache` 2.x) kept coherent: WordPress core's deletes
 * (core-invalidation.ts) under the drop-in's key scheme, sent as one DEL of every key (one round trip).
 *
 * Its key (WP_Object_Cache::build_key()): WP_REDIS_PREFIX (or WP_CACHE_KEY_SALT when only that is
 * defined), trimmed of whitespace; then the table prefix trimmed of `_-:$` on a single site, or on a
 * multisite network the blog ID for site groups and nothing for global groups; then `:<group>:<key>`,
 * with `:` inside the group or the key replaced by `-`. Global groups are the drop-in's own list
 * (WP_REDIS_GLOBAL_GROUPS replaces it), plus `redis-cache` and whatever WordPress and plugins add at
 * run time. Ignored groups (WP_REDIS_IGNORED_GROUPS, and the non-persistent ones) never reach Redis.
 * A group the drop-in lists twice takes the last type it assigns: ignored over unflushable over
 * global, and an unflushable group is keyed with the blog prefix. WP_REDIS_SELECTIVE_FLUSH only
 * changes how the drop-in flushes, not its keys. Redis Cluster and replication setups are not
 * covered: one server (TCP, TLS or a unix socket), a database index, optional ACL user and password.
 */
import { lazyRequire } from '../../lazy-require';
import { WordPressChanges } from '../changes';
import { CORE_GLOBAL_GROUPS, CORE_NON_PERSISTENT_GROUPS, CacheKey, coreInvalidation } from './core-invalidation';
import type { ObjectCacheInvalidator } from './invalidator';

/** Required on the first invalidation: a site beside no Redis never loads the client (about 0.2 s at start). */
const redisClient = lazyRequire(() => require('@redis/client') as typeof import('@redis/client'));

export interface RedisCacheConfig {
  /** WP_REDIS_SCHEME: `tcp` (default), `tls` or `unix`. */
  scheme?: 'tcp' | 'tls' | 'unix';
  /** WP_REDIS_HOST, WP_REDIS_PORT (127.0.0.1:6379 by default). */
  host?: string;
  port?: number;
  /** WP_REDIS_PATH: the unix socket, with scheme `unix`. */
  path?: string;
  /** WP_REDIS_DATABASE. */
  database?: number;
  /** WP_REDIS_PASSWORD: a password, or `[username, password]` for an ACL user. */
  username?: string;
  password?: string;
  /** Deadline of connecting and of each invalidation, in ms (WP_REDIS_TIMEOUT / WP_REDIS_READ_TIMEOUT are seconds; 1 s by default, as the drop-in). */
  timeoutMs?: number;
  /** WP_REDIS_PREFIX, or WP_CACHE_KEY_SALT when WP_REDIS_PREFIX is not defined. */
  prefix?: string;
  /** `$table_prefix` from wp-config.php, e.g. `wp_`. */
  tablePrefix: string;
  multisite?: boolean;
  /** The site's blog ID on a multisite network (1 for the main site). */
  blogId?: number;
  /** WP_REDIS_GLOBAL_GROUPS, which replaces the drop-in's defaults; groups plugins add at run time too. */
  globalGroups?: string[];
  /** WP_REDIS_IGNORED_GROUPS, and groups plugins make non-persistent. */
  ignoredGroups?: string[];
  /** WP_REDIS_UNFLUSHABLE_GROUPS. */
  unflushableGroups?: string[];
  /** Taxonomies plugins register for post types, added to CORE_POST_TYPE_TAXONOMIES. */
  postTypeTaxonomies?: Record<string, string[]>;
}

/** The drop-in's own global groups, used unless WP_REDIS_GLOBAL_GROUPS replaces them. */
export const REDIS_DEFAULT_GLOBAL_GROUPS: readonly string[] = [
  'blog-details', 'blog-id-cache', 'blog-lookup', 'global-posts', 'networks', 'rss', 'sites', 'site-details',
  'site-lookup', 'site-options', 'site-transient', 'users', 'useremail', 'userlogins', 'usermeta', 'user_meta',
  'userslugs',
];

type Client = ReturnType<typeof newClient>;

function newClient(config: RedisCacheConfig) {
  const { scheme = 'tcp', host = '127.0.0.1', port = 6379, path, timeoutMs = 1000 } = config;
  const common = { connectTimeout: timeoutMs, reconnectStrategy: false as const };
  return redisClient().createClient({
    socket: scheme === 'unix' ? { ...common, path: path ?? '/var/run/redis/redis.sock', tls: false }
      : scheme === 'tls' ? { ...common, host, port, tls: true } : { ...common, host, port },
    database: config.database,
    username: config.username,
    password: config.password,
    // Fail at once while disconnected: a queued delete would land at some unknown later time.
    disableOfflineQueue: true,
  });
}

export function redisInvalidator(config: RedisCacheConfig): ObjectCacheInvalidator {
  return new RedisInvalidator(config);
}

class RedisInvalidator implements ObjectCacheInvalidator {
  readonly kind = 'redis';
  private readonly scheme: RedisKeyScheme;
  private client?: Client;
  private connecting?: Promise<Client>;

  constructor(private readonly config: RedisCacheConfig) {
    this.scheme = new RedisKeyScheme(config);
  }

  async invalidate(changes: WordPressChanges): Promise<void> {
    const keys = this.scheme.keysFor(changes);
    if (!keys.length) return;
    const timeoutMs = this.config.timeoutMs ?? 1000;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`redis: no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([this.delete(keys), deadline]);
    } catch (error) {
      this.drop();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.connecting = undefined;
    if (client?.isOpen) await client.close();
  }

  private async delete(keys: string[]): Promise<void> {
    const client = await this.connected();
    await client.del(keys);
  }

  /** The open connection, or the one being opened: concurrent invalidations share it. */
  private connected(): Promise<Client> {
    // isOpen holds from connect() until the client is closed or its socket is lost for good (no reconnection).
    if (this.connecting && this.client?.isOpen) return this.connecting;
    this.drop();
    const client = newClient(this.config);
    // Failures are thrown by invalidate(); the client's own error events would otherwise crash the process.
    client.on('error', () => undefined);
    this.client = client;
    this.connecting = client.connect().then(() => client);
    return this.connecting;
  }

  /** Forgets the connection after a failure: the next invalidation connects again. */
  private drop(): void {
    const client = this.client;
    this.client = undefined;
    this.connecting = undefined;
    if (client?.isOpen) client.destroy();
  }
}

/** The drop-in's key for each WordPress cache entry, and which entries it keeps in Redis at all. */
export class RedisKeyScheme {
  private readonly salt: string;
  private readonly blogPrefix: string;
  private readonly globalPrefix: string;
  private readonly types = new Map<string, 'global' | 'unflushable' | 'ignored'>();

  constructor(private readonly config: RedisCacheConfig) {
    this.salt = trimChars(config.prefix ?? '', ' \t\n\r\0\x0B');
    const tablePrefix = trimChars(config.tablePrefix, '_-:$');
    this.blogPrefix = config.multisite ? String(config.blogId ?? 1) : tablePrefix;
    this.globalPrefix = config.multisite ? '' : tablePrefix;
    const global = [...config.globalGroups ?? REDIS_DEFAULT_GLOBAL_GROUPS, 'redis-cache', ...CORE_GLOBAL_GROUPS];
    for (const group of global) this.types.set(sanitize(group), 'global');
    for (const group of config.unflushableGroups ?? []) this.types.set(sanitize(group), 'unflushable');
    for (const group of [...config.ignoredGroups ?? [], ...CORE_NON_PERSISTENT_GROUPS]) this.types.set(sanitize(group), 'ignored');
  }

  /** Every Redis key `changes` makes stale, `last_changed` of the groups that move included. */
  keysFor(changes: WordPressChanges): string[] {
    const { keys, lastChanged } = coreInvalidation(changes, this.config.postTypeTaxonomies);
    return [...keys, ...lastChanged.map((group) => ({ group, key: 'last_changed' }))]
      .filter((entry) => this.types.get(sanitize(entry.group)) !== 'ignored')
      .map((entry) => this.key(entry));
  }

  key(entry: CacheKey): string {
    const group = sanitize(entry.group || 'default');
    const prefix = this.types.get(group) === 'global' ? this.globalPrefix : this.blogPrefix;
    return `${this.salt}${prefix}:${group}:${sanitize(entry.key)}`;
  }
}

/** The drop-in keeps `:` as its separator: inside a group or a key it becomes `-`. */
function sanitize(part: string): string {
  return part.replaceAll(':', '-');
}

/** PHP's trim( $s, $chars ) for a list of single characters (PHP's trim() without it strips ` \t\n\r\0\x0B`). */
function trimChars(value: string, chars: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && chars.includes(value[start])) start++;
  while (end > start && chars.includes(value[end - 1])) end--;
  return value.slice(start, end);
}
