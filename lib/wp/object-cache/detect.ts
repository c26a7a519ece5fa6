/**
 * Chooses the site's object-cache setting once, at start: the `OBJECT_CACHE` setting when given,
 * else what wp-config.php and the WordPress files beside it show. The content folder is
 * WP_CONTENT_DIR, else ABSPATH + `wp-content`, else the folder of wp-config.php + `wp-content`.
 * In it:
 * - `mu-plugins/understudy-cache-companion.php` (the project's companion; WPMU_PLUGIN_DIR if defined):
 *   the companion, whatever drop-in runs, since WordPress then does the invalidation itself;
 * - else `object-cache.php`, recognised by its header (drop-in.ts): the Redis Object Cache or
 *   Automattic's memcached drop-in, with the constants each reads; any other drop-in is `unknown`;
 * - no drop-in: `none`.
 * What cannot be known without running PHP (a constant computed at run time, a content folder that is
 * not there) makes the setting `unknown` with the reason, never a guess.
 */
import fs from 'node:fs';
import path from 'node:path';
import { WpConfigArray, WpConfigData, WpConfigFile, phpToString, phpTruthy } from '../wp-config';
import { readDropInHeader, knownDropIn } from './drop-in';
import { MemcachedCacheSetting, ObjectCacheChoice, ObjectCacheSetting, RedisCacheSetting, SiteKeyInputs, UncoveredCachePolicy } from './setting';
import { objectCacheFromSetting } from './url';

/** The companion's file name in mu-plugins (the must-use plugin the project ships). */
export const COMPANION_FILE = 'understudy-cache-companion.php';

/** Redis Object Cache connection layouts Understudy's single-server Redis client does not cover. */
const REDIS_TOPOLOGIES = ['WP_REDIS_SERVERS', 'WP_REDIS_SHARDS', 'WP_REDIS_CLUSTER', 'WP_REDIS_SENTINEL'];

export interface ObjectCacheInputs {
  /** The parsed wp-config.php, when the site is configured from one. */
  wpConfig?: WpConfigFile;
  site: SiteKeyInputs;
  /** OBJECT_CACHE. */
  setting?: string;
  /** OBJECT_CACHE_UNKNOWN: `degrade` (default) or `refuse-writes`. */
  onUncovered?: string;
}

export function chooseObjectCache(inputs: ObjectCacheInputs): ObjectCacheChoice {
  const onUncovered = uncoveredPolicy(inputs.onUncovered);
  const named = objectCacheFromSetting(inputs.setting, inputs.site);
  if (named) return { setting: named, foundBy: 'named by OBJECT_CACHE', onUncovered };
  if (!inputs.wpConfig) {
    return { setting: { kind: 'none' }, foundBy: 'no wp-config.php to look beside; OBJECT_CACHE can name one', onUncovered };
  }
  return { ...detectBeside(inputs.wpConfig, inputs.site), onUncovered };
}

function uncoveredPolicy(value: string | undefined): UncoveredCachePolicy {
  if (value === undefined || value === '' || value === 'degrade') return 'degrade';
  if (value === 'refuse-writes') return 'refuse-writes';
  throw new Error(`OBJECT_CACHE_UNKNOWN must be degrade or refuse-writes, got "${value}"`);
}

function detectBeside(cfg: WpConfigFile, site: SiteKeyInputs): Omit<ObjectCacheChoice, 'onUncovered'> {
  const read = new ConfigReader(cfg);
  const content = contentDir(read);
  if (typeof content !== 'string') return { setting: content, foundBy: `read from ${cfg.file}` };
  if (!isDirectory(content)) {
    const reason = `the content folder ${content} is not there, so its object-cache.php cannot be read (set OBJECT_CACHE, "none" if PHP runs no persistent object cache)`;
    return { setting: { kind: 'unknown', reason }, foundBy: `read from ${cfg.file}` };
  }
  const muPlugins = read.string('WPMU_PLUGIN_DIR');
  const companion = path.join(typeof muPlugins === 'string' ? muPlugins : path.join(content, 'mu-plugins'), COMPANION_FILE);
  if (fs.existsSync(companion)) return { setting: { kind: 'companion' }, foundBy: `the must-use plugin ${companion} is installed` };
  const dropIn = path.join(content, 'object-cache.php');
  if (!fs.existsSync(dropIn)) return { setting: { kind: 'none' }, foundBy: `no drop-in at ${dropIn}` };
  let header;
  try {
    header = readDropInHeader(dropIn);
  } catch (err) {
    return { setting: { kind: 'unknown', reason: `the drop-in ${dropIn} cannot be read: ${(err as Error).message}` }, foundBy: `read from ${cfg.file}` };
  }
  const foundBy = `read from the drop-in ${dropIn} (Plugin Name: ${header.name ?? 'none'}${header.version ? `, Version: ${header.version}` : ''})`;
  const known = knownDropIn(header);
  if (known === 'redis') return { setting: redisFromConfig(read, site), foundBy };
  if (known === 'memcached') return { setting: memcachedFromConfig(read, site, header.version), foundBy };
  const reason = `the object-cache.php drop-in "${header.name ?? 'without a Plugin Name header'}" is neither the Redis Object Cache nor Automattic's memcached drop-in (install the PHP companion)`;
  return { setting: { kind: 'unknown', reason }, foundBy };
}

/**
 * WP_CONTENT_DIR, else ABSPATH + wp-content, else beside wp-config.php; or why it cannot be known (a
 * relative folder is relative to the PHP process's working directory, which Understudy cannot see).
 */
function contentDir(read: ConfigReader): string | ObjectCacheSetting {
  const content = read.string('WP_CONTENT_DIR');
  const abspath = read.string('ABSPATH');
  const dir = content !== undefined ? content : abspath !== undefined ? joined(abspath, 'wp-content') : path.join(path.dirname(path.resolve(read.cfg.file)), 'wp-content');
  if (typeof dir === 'string' && !path.isAbsolute(dir)) return { kind: 'unknown', reason: `the content folder ${dir} is relative to PHP's working directory` };
  return dir;
}

function joined(dir: string | ObjectCacheSetting, name: string): string | ObjectCacheSetting {
  return typeof dir === 'string' ? path.join(dir, name) : dir;
}

function redisFromConfig(read: ConfigReader, site: SiteKeyInputs): ObjectCacheSetting {
  const disabled = read.truthy('WP_REDIS_DISABLED');
  if (isUnknown(disabled)) return disabled;
  if (disabled) return { kind: 'none' };
  const topology = REDIS_TOPOLOGIES.find((name) => read.defined(name));
  if (topology) return { kind: 'unknown', reason: `the Redis Object Cache uses ${topology}, which only a single Redis server setting covers (install the PHP companion)` };
  const values = {
    scheme: read.string('WP_REDIS_SCHEME') ?? 'tcp',
    host: read.string('WP_REDIS_HOST') ?? '127.0.0.1',
    path: read.string('WP_REDIS_PATH'),
    port: read.number('WP_REDIS_PORT') ?? 6379,
    database: read.number('WP_REDIS_DATABASE') ?? 0,
    credentials: redisCredentials(read),
    prefix: (read.defined('WP_REDIS_PREFIX') ? read.string('WP_REDIS_PREFIX') : read.string('WP_CACHE_KEY_SALT')) ?? '',
    timeoutSeconds: read.number('WP_REDIS_TIMEOUT') ?? 1,
    readTimeoutSeconds: read.number('WP_REDIS_READ_TIMEOUT') ?? 1,
    selectiveFlush: read.truthy('WP_REDIS_SELECTIVE_FLUSH'),
    globalGroups: read.list('WP_REDIS_GLOBAL_GROUPS'),
    ignoredGroups: read.list('WP_REDIS_IGNORED_GROUPS'),
    unflushableGroups: read.list('WP_REDIS_UNFLUSHABLE_GROUPS'),
  };
  const unknown = Object.values(values).find(isUnknown);
  if (unknown) return unknown;
  const known = values as Known<typeof values>;
  const scheme = redisScheme(known.scheme);
  if (!scheme) return { kind: 'unknown', reason: `WP_REDIS_SCHEME "${known.scheme}" is none of tcp, tls, unix` };
  if (scheme === 'unix' && known.path === undefined) return { kind: 'unknown', reason: 'WP_REDIS_SCHEME is unix but WP_REDIS_PATH is not defined' };
  const { path: socket, credentials, ...rest } = known;
  return { kind: 'redis', ...rest, scheme, ...(scheme === 'unix' ? { path: socket } : {}), ...credentials, ...site };
}

/** Each value with its unknowable case (already ruled out) removed. */
type Known<T> = { [K in keyof T]: Exclude<T[K], ObjectCacheSetting> };

function redisScheme(scheme: string): RedisCacheSetting['scheme'] | undefined {
  const lower = scheme.toLowerCase();
  if (lower === 'tcp' || lower === 'redis') return 'tcp';
  if (lower === 'tls' || lower === 'ssl' || lower === 'rediss') return 'tls';
  return lower === 'unix' ? 'unix' : undefined;
}

/** WP_REDIS_PASSWORD (a string, or `[user, password]`) and WP_REDIS_USERNAME; an empty password is none. */
function redisCredentials(read: ConfigReader): { username?: string; password?: string } | ObjectCacheSetting {
  const array = read.cfg.arrays?.WP_REDIS_PASSWORD;
  let username: string | undefined;
  let password: string | undefined;
  if (array) {
    const [user, ...rest] = [...array.values()];
    if (![user, ...rest].every((v) => typeof v === 'string')) return { kind: 'unknown', reason: 'WP_REDIS_PASSWORD is an array of other than strings' };
    username = user as string;
    password = rest.join('');
  } else {
    const value = read.string('WP_REDIS_PASSWORD');
    if (isUnknown(value)) return value;
    password = value === '' ? undefined : value;
  }
  const named = read.string('WP_REDIS_USERNAME');
  if (isUnknown(named)) return named;
  if (named !== undefined && password !== undefined) username = named;
  return { ...(username !== undefined ? { username } : {}), ...(password !== undefined ? { password } : {}) };
}

function memcachedFromConfig(read: ConfigReader, site: SiteKeyInputs, version: string | undefined): ObjectCacheSetting {
  const salt = read.string('WP_CACHE_KEY_SALT') ?? '';
  if (isUnknown(salt)) return salt;
  const servers = memcachedServers(read);
  if (isUnknown(servers)) return servers;
  const setting: MemcachedCacheSetting = {
    kind: 'memcached', servers, salt, customUserTables: read.defined('CUSTOM_USER_TABLE') && read.defined('CUSTOM_USER_META_TABLE'),
    ...(version ? { version } : {}), ...site,
  };
  return setting;
}

/** `$memcached_servers`: a list is the default bucket; other buckets hold groups of their own name. */
function memcachedServers(read: ConfigReader): string[] | ObjectCacheSetting {
  const cfg = read.cfg;
  if (cfg.dynamic?.$memcached_servers !== undefined) return computed('$memcached_servers', cfg.dynamic.$memcached_servers);
  const value = cfg.variables?.memcached_servers;
  if (value === undefined) return ['127.0.0.1:11211'];
  if (!(value instanceof Map) || value.size === 0) return { kind: 'unknown', reason: '$memcached_servers is not an array of servers' };
  const first = value.keys().next().value;
  const buckets: WpConfigArray = typeof first === 'number' ? new Map([['default', value]]) : value;
  const others = [...buckets.keys()].filter((name) => name !== 'default');
  if (others.length) return { kind: 'unknown', reason: `$memcached_servers sends groups to buckets of their own (${others.join(', ')}), which the memcached setting does not cover (install the PHP companion)` };
  const list = buckets.get('default');
  const servers = list instanceof Map ? [...list.values()] : [];
  if (servers.length === 0 || !servers.every((s): s is string => typeof s === 'string')) return { kind: 'unknown', reason: '$memcached_servers has no default list of servers' };
  return servers;
}

/** Constants as a drop-in reads them: absent (undefined), a value, or unknowable (an `unknown` setting). */
class ConfigReader {
  constructor(readonly cfg: WpConfigFile) {}

  defined(name: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.cfg.constants, name);
  }

  private scalar(name: string): WpConfigData | undefined | ObjectCacheSetting {
    if (!this.defined(name)) return undefined;
    const source = this.cfg.dynamic?.[name];
    if (source !== undefined && !this.cfg.arrays?.[name]) return computed(name, source);
    return this.cfg.arrays?.[name] ?? this.cfg.constants[name];
  }

  string(name: string): string | undefined | ObjectCacheSetting {
    const v = this.scalar(name);
    if (v === undefined || isUnknown(v)) return v;
    if (v instanceof Map) return { kind: 'unknown', reason: `${name} is an array, not a string` };
    return phpToString(v);
  }

  number(name: string): number | undefined | ObjectCacheSetting {
    const v = this.scalar(name);
    if (v === undefined || isUnknown(v)) return v;
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+(?:\.\d+)?\s*$/.test(v) ? Number(v) : NaN;
    return Number.isFinite(n) ? n : { kind: 'unknown', reason: `${name} is not a number` };
  }

  /** PHP truthiness (an array is true when not empty); undefined is false. */
  truthy(name: string): boolean | ObjectCacheSetting {
    const v = this.scalar(name);
    if (v === undefined) return false;
    if (isUnknown(v)) return v;
    return v instanceof Map ? v.size > 0 : phpTruthy(v);
  }

  /** An array constant of group names; absent or not an array: none (the drop-in checks is_array()). */
  list(name: string): string[] | ObjectCacheSetting {
    const v = this.scalar(name);
    if (isUnknown(v)) return v;
    if (!(v instanceof Map)) return [];
    const values = [...v.values()];
    return values.every((s): s is string => typeof s === 'string') ? values : { kind: 'unknown', reason: `${name} holds other than group names` };
  }
}

function computed(name: string, source: string): ObjectCacheSetting {
  const shown = name === 'WP_REDIS_PASSWORD' ? '' : ` (${source})`;
  return { kind: 'unknown', reason: `${name} is computed when PHP runs${shown}: set OBJECT_CACHE to name the cache` };
}

function isUnknown(v: unknown): v is ObjectCacheSetting {
  return typeof v === 'object' && v !== null && !(v instanceof Map) && !Array.isArray(v) && 'kind' in v;
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
