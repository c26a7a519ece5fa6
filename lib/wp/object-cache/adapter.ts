/**
 * The invalidator for the cache a site's PHP runs (./setting.ts, chosen at start): the Redis drop-in's
 * key scheme, Automattic's memcached drop-in's, or the PHP companion; none when PHP keeps no persistent
 * cache or when nothing can keep it coherent. The configs are exported for bench/real-drop-ins.ts, which
 * checks the keys they give against the real drop-ins.
 */
import { Site } from '../site';
import { companionInvalidator } from './companion';
import { ObjectCacheInvalidator } from './invalidator';
import { MemcachedCacheConfig, memcachedInvalidator } from './memcached';
import { REDIS_DEFAULT_GLOBAL_GROUPS, RedisCacheConfig, redisInvalidator } from './redis';
import { MemcachedCacheSetting, ObjectCacheSetting, RedisCacheSetting } from './setting';

export interface AdapterOptions {
  /** The taxonomies plugins register for post types (added to core's), whose term relationships WordPress caches per post. */
  postTypeTaxonomies?: Record<string, string[]>;
}

export async function invalidatorFor(site: Site, setting: ObjectCacheSetting, options: AdapterOptions = {}): Promise<ObjectCacheInvalidator | null> {
  switch (setting.kind) {
    case 'redis':
      return redisInvalidator(redisConfigOf(setting, options));
    case 'memcached':
      return memcachedInvalidator(memcachedConfigOf(setting, options));
    case 'companion':
      return companionInvalidator({ siteUrl: setting.url ?? await site.siteUrl(), authSalt: await site.salts.salt('auth') });
    case 'none':
    case 'unknown':
      return null;
  }
}

export function redisConfigOf(setting: RedisCacheSetting, { postTypeTaxonomies }: AdapterOptions = {}): RedisCacheConfig {
  return {
    scheme: setting.scheme, host: setting.host, port: setting.port, path: setting.path, database: setting.database,
    username: setting.username, password: setting.password,
    // The drop-in bounds connecting and each reply by its own second each; one deadline here covers both.
    timeoutMs: 1000 * Math.max(setting.timeoutSeconds, setting.readTimeoutSeconds),
    prefix: setting.prefix.trim(), tablePrefix: setting.tablePrefix, multisite: setting.multisite, blogId: setting.blogId,
    // WordPress adds core's global groups at start (wp_start_object_cache()) to whatever the constant names.
    globalGroups: [...new Set([...REDIS_DEFAULT_GLOBAL_GROUPS, ...setting.globalGroups])],
    ignoredGroups: setting.ignoredGroups, unflushableGroups: setting.unflushableGroups, postTypeTaxonomies,
  };
}

export function memcachedConfigOf(setting: MemcachedCacheSetting, { postTypeTaxonomies }: AdapterOptions = {}): MemcachedCacheConfig {
  return {
    servers: setting.servers, salt: setting.salt, tablePrefix: setting.tablePrefix, multisite: setting.multisite,
    blogId: setting.blogId, customUserTables: setting.customUserTables, postTypeTaxonomies,
  };
}
