/**
 * How Understudy finds a site, in order of precedence:
 * 1. WP_CONFIG_PATH: an existing site's wp-config.php, read without running PHP;
 * 2. environment variables with wp-config's names, or DATABASE_URL;
 * 3. nothing set: the embedded SQLite site in ./data, seeded with a demo site on first start.
 * Then the persistent object cache PHP runs beside it (OBJECT_CACHE, else detected: object-cache/detect.ts),
 * and the cookie constants and WP_SITEURL, from wp-config.php or else the environment (wp-config/cookie-constants.ts).
 * This module is the only reader of process.env.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DbTarget } from './db/database';
import { OutgoingAllowance, parseOutgoingAllow } from './http/outgoing-allow';
import { SALT_CONSTANTS, SaltConstants, generateSecret } from './salts';
import { chooseObjectCache } from './object-cache/detect';
import { ObjectCacheChoice } from './object-cache/setting';
import type { DefinedCookieConstants } from './auth/cookie-constants';
import { NetworkInstall } from './multisite/lookup';
import { networkInstallOf } from './multisite/install';
import {
  DbHostParts, WpConfigFile, connectionTarget, cookieConfigOfEnv, cookieConfigOfWpConfig, installedLanguages, parseDbHost, readWpConfig,
  siteConfigFromWpConfig,
} from './wp-config';

export type EnvironmentType = 'local' | 'development' | 'staging' | 'production';

export interface SiteConfig {
  /** Where the configuration came from, for the start-up log. */
  source: 'wp-config' | 'env' | 'embedded';
  description: string;
  db: DbTarget;
  tablePrefix: string;
  multisite: boolean;
  /** WP_BLOG_ID; without it, on a network, its main site (BLOG_ID_CURRENT_SITE, else 1). */
  blogId: number;
  /** WP_BLOG_ID named the site: a process of one site of the network, not of the whole network. */
  blogChosen?: boolean;
  /**
   * On a network (MULTISITE): how it is installed, from wp-config.php's constants or the environment's
   * variables of the same names (SUBDOMAIN_INSTALL, DOMAIN_CURRENT_SITE, PATH_CURRENT_SITE, …).
   */
  network?: NetworkInstall;
  salts: SaltConstants;
  environmentType: EnvironmentType;
  /** Folder for Understudy's own files (embedded database, generated salts, outbox). */
  dataDir: string;
  /** WordPress's uploads folder (UPLOADS_DIR); attachments live in its private `svc-private/` folder. Default: <dataDir>/uploads. */
  uploadsDir?: string;
  /** True when this is the embedded default, which is seeded with the demo site on first start. */
  seedDemo: boolean;
  /** SMTP_URL (`smtp://` or `smtps://`): where outgoing email goes; absent = `.eml` files in <dataDir>/outbox. */
  smtpUrl?: string;
  /** OUTGOING_ALLOW: where outgoing requests (changelog sources) may go beyond public web ports (http/outgoing-allow.ts). */
  outgoingAllow?: OutgoingAllowance;
  /** The persistent object cache PHP reads through, which writes must keep coherent; absent: none. */
  objectCache?: ObjectCacheChoice;
  /** The cookie constants wp-config.php (or the environment) defines: they win over WordPress's defaults (auth/cookie-constants.ts). */
  cookieConstants?: DefinedCookieConstants;
  /** WP_SITEURL when defined: a single site's `siteurl`, and so its COOKIEHASH, follows it (a network ignores it). */
  siteUrlConstant?: string;
  /**
   * The languages installed beside WordPress (get_available_languages(), read once from the WP_LANG_DIR
   * of the install WP_CONFIG_PATH names): the `locale` a user may choose. Absent without wp-config.php.
   */
  languages?: readonly string[];
}

export interface ServerConfig {
  port: number;
  host: string;
}

type Env = Record<string, string | undefined>;

/** Resolves the site configuration from the environment (see the module comment for the order). */
export function loadSiteConfig(env: Env = process.env, cwd: string = process.cwd()): SiteConfig {
  const { config, wpConfig } = resolveSite(env, cwd);
  const network = config.multisite ? networkInstallOf(wpConfig ?? networkConstantsOf(env)) : undefined;
  const blogChosen = env.WP_BLOG_ID !== undefined;
  const blogId = blogChosen ? config.blogId : network?.current?.mainSiteId ?? config.blogId;
  const { tablePrefix, multisite } = config;
  return {
    ...config, blogId, ...(network ? { network } : {}), ...(blogChosen ? { blogChosen } : {}), ...(wpConfig ? cookieConfigOfWpConfig(wpConfig) : cookieConfigOfEnv(env)),
    ...(wpConfig ? { languages: installedLanguages(wpConfig) } : {}),
    uploadsDir: path.resolve(cwd, env.UPLOADS_DIR || path.join(config.dataDir, 'uploads')), smtpUrl: smtpUrlOf(env.SMTP_URL),
    outgoingAllow: parseOutgoingAllow(env.OUTGOING_ALLOW),
    objectCache: chooseObjectCache({ wpConfig, site: { tablePrefix, blogId, multisite }, setting: env.OBJECT_CACHE, onUncovered: env.OBJECT_CACHE_UNKNOWN }),
  };
}

/** The network's constants as environment variables (a site configured without wp-config.php). */
function networkConstantsOf(env: Env): Pick<WpConfigFile, 'constants' | 'file'> {
  const names = ['SUBDOMAIN_INSTALL', 'DOMAIN_CURRENT_SITE', 'PATH_CURRENT_SITE', 'SITE_ID_CURRENT_SITE', 'BLOG_ID_CURRENT_SITE', 'NOBLOGREDIRECT'];
  const constants: WpConfigFile['constants'] = {};
  for (const name of names) if (env[name] !== undefined) constants[name] = name === 'SUBDOMAIN_INSTALL' ? isTruthy(env[name]) : env[name] as string;
  return { constants, file: 'the environment' };
}

/** The configuration of one blog of the network: its tables, and the object cache keys PHP gives it. */
export function configOfBlog(config: SiteConfig, blogId: number): SiteConfig {
  const cache = config.objectCache;
  const setting = cache?.setting.kind === 'redis' || cache?.setting.kind === 'memcached' ? { ...cache.setting, blogId, multisite: true } : undefined;
  return { ...config, multisite: true, blogId, blogChosen: true, ...(cache && setting ? { objectCache: { ...cache, setting } } : {}) };
}

function smtpUrlOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (!/^smtps?:\/\/[^/]/i.test(value)) throw new Error(`SMTP_URL must look like smtp://user:pass@host:587 or smtps://host:465, got "${value}"`);
  return value;
}

/** The site's configuration, and the wp-config.php it was read from, if any. */
function resolveSite(env: Env, cwd: string): { config: SiteConfig; wpConfig?: WpConfigFile } {
  const dataDir = path.resolve(cwd, env.UNDERSTUDY_DATA_DIR || 'data');
  const environmentType = environmentTypeOf(env.WP_ENVIRONMENT_TYPE);
  if (env.WP_CONFIG_PATH) return fromWpConfig(path.resolve(cwd, env.WP_CONFIG_PATH), dataDir, env);
  if (env.DATABASE_URL) return { config: fromDatabaseUrl(env.DATABASE_URL, env, cwd, dataDir, environmentType) };
  if (env.DB_NAME || env.DB_HOST) return { config: fromDbEnv(env, dataDir, environmentType) };
  return { config: embedded(env, dataDir, environmentType) };
}

function embedded(env: Env, dataDir: string, environmentType: EnvironmentType): SiteConfig {
  const filename = path.join(dataDir, 'site.sqlite');
  return {
    source: 'embedded',
    description: `embedded SQLite database ${filename}`,
    db: { client: 'sqlite', filename },
    tablePrefix: env.TABLE_PREFIX ?? 'wp_',
    multisite: false,
    blogId: 1,
    salts: saltsKeptWithData(env, path.join(dataDir, 'salts.json')),
    environmentType: env.WP_ENVIRONMENT_TYPE ? environmentType : 'local',
    dataDir,
    seedDemo: true,
  };
}

/** Port and host of the HTTP server: PORT and HOST override 127.0.0.1:8080. */
export function loadServerConfig(env: Env = process.env): ServerConfig {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  return { port, host: env.HOST || '127.0.0.1' };
}

function fromWpConfig(file: string, dataDir: string, env: Env): { config: SiteConfig; wpConfig: WpConfigFile } {
  const parsed = readWpConfig(file);
  const site = siteConfigFromWpConfig(parsed);
  const wpEnv = parsed.constants.WP_ENVIRONMENT_TYPE;
  const config: SiteConfig = {
    source: 'wp-config',
    description: `${file} (database ${site.db.database})`,
    db: { client: 'mysql', ...hostOf(site.db), user: site.db.user, password: site.db.password, database: site.db.database, charset: site.db.charset },
    tablePrefix: site.tablePrefix,
    multisite: site.multisite,
    blogId: Number(env.WP_BLOG_ID ?? 1),
    salts: site.salts,
    environmentType: environmentTypeOf(typeof wpEnv === 'string' ? wpEnv : env.WP_ENVIRONMENT_TYPE),
    dataDir,
    seedDemo: false,
  };
  return { config, wpConfig: parsed };
}

function fromDbEnv(env: Env, dataDir: string, environmentType: EnvironmentType): SiteConfig {
  const missing = ['DB_NAME', 'DB_USER', 'DB_HOST'].filter((name) => !env[name]);
  if (missing.length) throw new Error(`Environment: missing ${missing.join(', ')}`);
  const db: DbTarget = {
    client: 'mysql', ...hostOf(parseDbHost(env.DB_HOST as string)), user: env.DB_USER as string, password: env.DB_PASSWORD ?? '',
    database: env.DB_NAME as string, charset: charsetOf(env.DB_CHARSET),
  };
  return mysqlFromEnv(db, `MySQL database ${env.DB_NAME} on ${env.DB_HOST}`, env, dataDir, environmentType);
}

function fromDatabaseUrl(url: string, env: Env, cwd: string, dataDir: string, environmentType: EnvironmentType): SiteConfig {
  if (url.startsWith('sqlite:')) {
    const filename = path.resolve(cwd, url.slice('sqlite:'.length).replace(/^\/\//, ''));
    return {
      source: 'env',
      description: `SQLite database ${filename}`,
      db: { client: 'sqlite', filename },
      tablePrefix: prefixOf(env),
      multisite: isTruthy(env.MULTISITE),
      blogId: Number(env.WP_BLOG_ID ?? 1),
      salts: saltsKeptWithData(env, `${filename}.salts.json`),
      environmentType,
      dataDir,
      seedDemo: false,
    };
  }
  const parsed = new URL(url);
  if (parsed.protocol !== 'mysql:' && parsed.protocol !== 'mariadb:') {
    throw new Error(`DATABASE_URL must start with mysql:// or sqlite:, got "${parsed.protocol}"`);
  }
  const db: DbTarget = {
    client: 'mysql',
    host: decodeURIComponent(parsed.hostname) || '127.0.0.1',
    port: parsed.port ? Number(parsed.port) : 3306,
    socketPath: parsed.searchParams.get('socket') ?? undefined,
    user: decodeURIComponent(parsed.username) || 'root',
    password: decodeURIComponent(parsed.password),
    database: decodeURIComponent(parsed.pathname.replace(/^\//, '')),
    charset: charsetOf(parsed.searchParams.get('charset') ?? env.DB_CHARSET),
  };
  if (!db.database) throw new Error('DATABASE_URL names no database (mysql://user:pass@host:port/<database>)');
  return mysqlFromEnv(db, `MySQL database ${db.database} on ${db.host}:${db.port}`, env, dataDir, environmentType);
}

function mysqlFromEnv(db: DbTarget, description: string, env: Env, dataDir: string, environmentType: EnvironmentType): SiteConfig {
  const missing = SALT_CONSTANTS.filter((name) => !env[name]);
  // A live site's cookies and nonces are signed with its own keys: generated ones would reject them all.
  if (missing.length) throw new Error(`Environment: missing ${missing.join(', ')} (copy them from the site's wp-config.php)`);
  return {
    source: 'env', description, db, tablePrefix: prefixOf(env), multisite: isTruthy(env.MULTISITE),
    blogId: Number(env.WP_BLOG_ID ?? 1), salts: saltsFromEnv(env), environmentType, dataDir, seedDemo: false,
  };
}

/** Socket or TCP address, as PHP's mysqli would reach DB_HOST (`localhost` means the default socket). */
function hostOf(parts: DbHostParts): { host?: string; port?: number; socketPath?: string } {
  return connectionTarget(parts);
}

function saltsFromEnv(env: Env): SaltConstants {
  const salts: SaltConstants = {};
  for (const name of SALT_CONSTANTS) if (env[name]) salts[name] = env[name];
  return salts;
}

/** Keys and salts of a local database: taken from the environment, else generated once and kept beside the data. */
function saltsKeptWithData(env: Env, file: string): SaltConstants {
  const fromEnv = saltsFromEnv(env);
  if (Object.keys(fromEnv).length === SALT_CONSTANTS.length) return fromEnv;
  if (fs.existsSync(file)) return { ...JSON.parse(fs.readFileSync(file, 'utf8')), ...fromEnv };
  const generated: SaltConstants = {};
  for (const name of SALT_CONSTANTS) generated[name] = generateSecret(64);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(generated, null, 2) + '\n', { mode: 0o600 });
  return { ...generated, ...fromEnv };
}

function prefixOf(env: Env): string {
  const prefix = env.TABLE_PREFIX ?? 'wp_';
  if (!/^[A-Za-z0-9_]*$/.test(prefix)) throw new Error(`TABLE_PREFIX may hold only letters, digits and underscores, got "${prefix}"`);
  return prefix;
}

function charsetOf(value: string | null | undefined): string {
  return !value || value === 'utf8' ? 'utf8mb4' : value;
}

function environmentTypeOf(value: string | undefined): EnvironmentType {
  return value === 'local' || value === 'development' || value === 'staging' ? value : 'production';
}

function isTruthy(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}
