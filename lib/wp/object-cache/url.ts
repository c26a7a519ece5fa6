/**
 * The `OBJECT_CACHE` setting: names the cache and its connection where Understudy cannot read the
 * drop-in (another host, a container with only wp-config.php), or overrides what was detected.
 *
 *   detect (or unset)                      read wp-config.php and the drop-in (detect.ts)
 *   none                                   no persistent object cache
 *   companion | companion:<http(s) URL>    the PHP companion, at the site's address or the one given
 *   redis://[[user]:password@]host[:port][/db][?prefix=…&salt=…&global_groups=a,b&ignored_groups=…
 *            &unflushable_groups=…&selective_flush=1&timeout=1&read_timeout=1]
 *   rediss://…                             the same over TLS
 *   unix:///path/to/redis.sock[?db=0&…]    Redis over a Unix socket
 *   memcached://h1:11211,h2:11211[?salt=…&custom_user_tables=1]
 *
 * `salt` of a Redis URL is WP_CACHE_KEY_SALT, used when no `prefix` is given, as the drop-in does.
 */
import { ObjectCacheSetting, SiteKeyInputs } from './setting';

const REDIS_PARAMS = new Set(['prefix', 'salt', 'global_groups', 'ignored_groups', 'unflushable_groups', 'selective_flush', 'timeout', 'read_timeout', 'db']);
const MEMCACHED_PARAMS = new Set(['salt', 'custom_user_tables']);

/** The setting `value` names; undefined for `detect` (or empty). Throws with the syntax on a bad value. */
export function objectCacheFromSetting(value: string | undefined, site: SiteKeyInputs): ObjectCacheSetting | undefined {
  const text = (value ?? '').trim();
  if (text === '' || text === 'detect') return undefined;
  if (text === 'none') return { kind: 'none' };
  if (text === 'companion') return { kind: 'companion' };
  if (text.startsWith('companion:')) return { kind: 'companion', url: httpUrl(text.slice('companion:'.length)) };
  const scheme = /^([a-z]+):\/\//i.exec(text)?.[1].toLowerCase();
  if (scheme === 'redis' || scheme === 'rediss' || scheme === 'unix') return redisFromUrl(text, scheme, site);
  if (scheme === 'memcached') return memcachedFromUrl(text, site);
  throw settingError(text, 'it is none of detect, none, companion, redis://, rediss://, unix://, memcached://');
}

function redisFromUrl(text: string, scheme: 'redis' | 'rediss' | 'unix', site: SiteKeyInputs): ObjectCacheSetting {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw settingError(text, 'it is not a URL');
  }
  const params = paramsOf(text, url, REDIS_PARAMS);
  const socket = scheme === 'unix';
  if (socket && !url.pathname) throw settingError(text, 'a unix:// setting names the socket: unix:///run/redis/redis.sock');
  const database = integer(text, 'the database', socket ? params.get('db') ?? '0' : url.pathname.replace(/^\//, '') || '0');
  const prefix = params.get('prefix') ?? params.get('salt') ?? '';
  return {
    kind: 'redis',
    scheme: socket ? 'unix' : scheme === 'rediss' ? 'tls' : 'tcp',
    host: socket ? '127.0.0.1' : decodeURIComponent(url.hostname.replace(/^\[|\]$/g, '')) || '127.0.0.1',
    port: socket ? 6379 : url.port ? Number(url.port) : 6379,
    ...(socket ? { path: decodeURIComponent(url.pathname) } : {}),
    database,
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    timeoutSeconds: seconds(text, 'timeout', params.get('timeout')),
    readTimeoutSeconds: seconds(text, 'read_timeout', params.get('read_timeout')),
    prefix,
    selectiveFlush: truthy(params.get('selective_flush')),
    globalGroups: list(params.get('global_groups')),
    ignoredGroups: list(params.get('ignored_groups')),
    unflushableGroups: list(params.get('unflushable_groups')),
    ...site,
  };
}

function memcachedFromUrl(text: string, site: SiteKeyInputs): ObjectCacheSetting {
  // Several hosts do not make one URL: split the authority ourselves.
  const match = /^memcached:\/\/([^/?#]*)\/?(?:\?([^#]*))?$/i.exec(text);
  if (!match) throw settingError(text, 'expected memcached://host:port[,host:port…][?salt=…]');
  const servers = match[1].split(',').map((s) => s.trim()).filter(Boolean);
  if (servers.length === 0) throw settingError(text, 'it names no server');
  for (const server of servers) {
    if (!/^[^:\s]+(?::\d{1,5})?$/.test(server) && !/^\[[0-9a-f:.]+\](?::\d{1,5})?$/i.test(server)) throw settingError(text, `"${server}" is not host:port`);
  }
  const params = paramsOf(text, new URL(`memcached://x?${match[2] ?? ''}`), MEMCACHED_PARAMS);
  return {
    kind: 'memcached', servers, salt: params.get('salt') ?? '', customUserTables: truthy(params.get('custom_user_tables')), ...site,
  };
}

function paramsOf(text: string, url: URL, allowed: Set<string>): URLSearchParams {
  for (const name of url.searchParams.keys()) {
    if (!allowed.has(name)) throw settingError(text, `unknown parameter "${name}" (known: ${[...allowed].join(', ')})`);
  }
  return url.searchParams;
}

function httpUrl(text: string): string {
  if (!/^https?:\/\/[^/]/i.test(text)) throw settingError(`companion:${text}`, 'the companion\'s address is an http:// or https:// URL');
  return text;
}

function integer(text: string, what: string, value: string): number {
  if (!/^\d{1,9}$/.test(value)) throw settingError(text, `${what} must be a number, got "${value}"`);
  return Number(value);
}

function seconds(text: string, what: string, value: string | null): number {
  if (value === null) return 1;
  const n = Number(value);
  if (!/^\d+(?:\.\d+)?$/.test(value) || n <= 0) throw settingError(text, `${what} must be a positive number of seconds, got "${value}"`);
  return n;
}

function list(value: string | null): string[] {
  return (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}

function truthy(value: string | null): boolean {
  return value !== null && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

function settingError(text: string, why: string): Error {
  // The value may hold a password: show it without one.
  const shown = text.replace(/\/\/([^@/]*):[^@/]*@/, '//$1:***@');
  return new Error(`OBJECT_CACHE "${shown}" is not understood: ${why}. See docs/deploy.md, "Beside a site with a persistent object cache"`);
}
