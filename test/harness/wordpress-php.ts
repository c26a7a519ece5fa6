/**
 * Real WordPress (Debian's package in /usr/share/wordpress, php-cli's built-in server) over a test's
 * MariaDB database, reading through a persistent object cache in Redis (test/fixtures/wordpress/
 * object-cache.php, or a real drop-in given as `objectCacheFile`) and, unless told otherwise, with
 * the PHP cache companion installed. This is the PHP site Understudy stands beside, for tests that
 * check what PHP sees after Understudy's writes.
 *
 * The WordPress files stay where Debian put them; a temporary directory holds what a site owner
 * would own: wp-config.php, and wp-content with the drop-in and the must-use plugins (symlinked from
 * the repository). Debian's own wp-config.php (which wants /etc/wordpress/config-<host>.php) is never
 * loaded: the router loads ours, then runs WordPress's request as index.php would.
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DbTarget } from '../../lib/wp/db/database';
import { CompanionCacheConfig } from '../../lib/wp/object-cache/companion';
import { SaltConstants, Salts } from '../../lib/wp/salts';
import { dialect } from './db';

export const WORDPRESS_DIR = '/usr/share/wordpress';
const REPO = path.resolve(__dirname, '../..');
const COMPANION_FILE = path.join(REPO, 'wordpress/wp-content/mu-plugins/understudy-cache-companion.php');
const FIXTURES = path.join(REPO, 'test/fixtures/wordpress');

/** Why this run cannot start PHP's WordPress, or null when it can. */
export function wordpressPhpSkipReason(): string | null {
  if (dialect !== 'mysql') return 'WordPress runs on MariaDB/MySQL only (our SQLite file needs a plugin WordPress does not ship): set WP_TEST_MYSQL_URL';
  if (!fs.existsSync(path.join(WORDPRESS_DIR, 'wp-settings.php'))) return `WordPress is not installed in ${WORDPRESS_DIR} (Debian package wordpress)`;
  const php = spawnSync('php', ['-m'], { encoding: 'utf8' });
  if (php.status !== 0) return 'php is not installed (Debian package php-cli)';
  const modules = php.stdout.toLowerCase().split('\n');
  for (const needed of ['mysqli', 'redis']) {
    if (!modules.includes(needed)) return `php lacks the ${needed} extension (Debian package php-${needed === 'mysqli' ? 'mysql' : needed})`;
  }
  return null;
}

export interface WordPressPhpOptions {
  db: DbTarget;
  /** The eight constants of wp-config.php; Understudy's config must hold the same ones. */
  salts: SaltConstants;
  tablePrefix?: string;
  redis?: { host: string; port: number };
  /** Installs the PHP cache companion (default true); false shows what PHP sees without it. */
  companion?: boolean;
  /** A drop-in copied in as wp-content/object-cache.php instead of the test's own Redis cache. */
  objectCacheFile?: string;
  /** PHP lines for wp-config.php before WordPress loads: the drop-in's constants, `$memcached_servers`. */
  configLines?: string[];
}

export interface RunningWordPress {
  /** http://127.0.0.1:<port>, PHP's site. */
  url: string;
  /** What `companionInvalidator()` needs to reach this site's companion. */
  companion: CompanionCacheConfig;
  /** The Redis key prefix of this site's object cache. */
  cachePrefix: string;
  /** The site's wp-config.php, as Understudy's WP_CONFIG_PATH would name it. */
  configFile: string;
  /** A GET on PHP's site (a path such as `/?rest_route=/wp/v2/users/1`). */
  phpGet(pathAndQuery: string): Promise<{ status: number; body: string }>;
  /** Runs PHP code inside a WordPress request (`return …;`) and gives back the value, JSON-decoded. */
  phpEval<T = unknown>(code: string): Promise<T>;
  close(): Promise<void>;
}

export async function startWordPressPhp(options: WordPressPhpOptions): Promise<RunningWordPress> {
  if (options.db.client !== 'mysql') throw new Error('WordPress needs a MySQL target');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-wp-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const cachePrefix = `understudy-test-${randomBytes(5).toString('hex')}:`;
  const evalToken = randomBytes(16).toString('hex');
  const redis = options.redis ?? { host: '127.0.0.1', port: 6379 };

  layOutSite(dir, options.companion ?? true, options.objectCacheFile);
  const configFile = path.join(dir, 'wp-config.php');
  fs.writeFileSync(configFile, wpConfig({
    db: options.db, salts: options.salts, tablePrefix: options.tablePrefix ?? 'wp_', url, dir, cachePrefix, evalToken, redis,
    extraLines: options.configLines ?? [],
  }));
  fs.writeFileSync(path.join(dir, 'router.php'), ROUTER);

  const child = spawn('php', ['-S', `127.0.0.1:${port}`, '-t', dir, path.join(dir, 'router.php')], {
    cwd: dir, detached: true, stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, PHP_CLI_SERVER_WORKERS: '4' },
  });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => { log = (log + chunk.toString('utf8')).slice(-4000); });

  const phpGet = async (pathAndQuery: string) => {
    const res = await fetch(url + pathAndQuery, { signal: AbortSignal.timeout(10_000) });
    return { status: res.status, body: await res.text() };
  };
  const phpEval = async <T>(code: string): Promise<T> => {
    const res = await fetch(`${url}/?rest_route=/understudy-test/v1/eval`, {
      method: 'POST', body: JSON.stringify({ code }), signal: AbortSignal.timeout(10_000),
      headers: { 'content-type': 'application/json', 'x-test-token': evalToken },
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`PHP answered ${res.status}: ${text.slice(0, 500)}\n${log.slice(-1500)}`);
    return (JSON.parse(text) as { value: T }).value;
  };

  const stop = async () => {
    await stopProcessGroup(child);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitUntilServing(phpEval, child, () => log);
    await phpEval('wp_cache_flush(); return true;');
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    url,
    companion: { siteUrl: url, authSalt: await authSalt(options.salts) },
    cachePrefix,
    configFile,
    phpGet,
    phpEval,
    async close() {
      await phpEval('wp_cache_flush(); return true;').catch(() => undefined);
      await stop();
    },
  };
}

/** The site owner's files: wp-content with the drop-in (the test's Redis one unless given) and the must-use plugins. */
function layOutSite(dir: string, withCompanion: boolean, dropIn: string | undefined): void {
  const content = path.join(dir, 'wp-content');
  fs.mkdirSync(path.join(content, 'mu-plugins'), { recursive: true });
  for (const shared of ['plugins', 'themes', 'languages']) {
    fs.symlinkSync(path.join(WORDPRESS_DIR, 'wp-content', shared), path.join(content, shared));
  }
  if (dropIn) fs.copyFileSync(dropIn, path.join(content, 'object-cache.php'));
  else fs.symlinkSync(path.join(FIXTURES, 'object-cache.php'), path.join(content, 'object-cache.php'));
  fs.symlinkSync(path.join(FIXTURES, 'understudy-test-probe.php'), path.join(content, 'mu-plugins/understudy-test-probe.php'));
  if (withCompanion) fs.symlinkSync(COMPANION_FILE, path.join(content, 'mu-plugins/understudy-cache-companion.php'));
}

interface ConfigInputs {
  db: Extract<DbTarget, { client: 'mysql' }>;
  salts: SaltConstants;
  tablePrefix: string;
  url: string;
  dir: string;
  cachePrefix: string;
  evalToken: string;
  redis: { host: string; port: number };
  extraLines: string[];
}

function wpConfig(c: ConfigInputs): string {
  const constants: Record<string, string | number | boolean> = {
    DB_NAME: c.db.database, DB_USER: c.db.user, DB_PASSWORD: c.db.password,
    DB_HOST: `${c.db.host ?? '127.0.0.1'}:${c.db.port ?? 3306}`, DB_CHARSET: 'utf8mb4', DB_COLLATE: '',
    ...(c.salts as Record<string, string>),
    WP_HOME: c.url, WP_SITEURL: c.url, WP_CONTENT_DIR: path.join(c.dir, 'wp-content'),
    DISABLE_WP_CRON: true, WP_DEBUG: false,
    UNDERSTUDY_TEST_REDIS_HOST: c.redis.host, UNDERSTUDY_TEST_REDIS_PORT: c.redis.port,
    UNDERSTUDY_TEST_CACHE_PREFIX: c.cachePrefix, UNDERSTUDY_TEST_EVAL_TOKEN: c.evalToken,
    ABSPATH: `${WORDPRESS_DIR}/`,
  };
  const lines = Object.entries(constants).map(([name, value]) => `define( '${name}', ${phpLiteral(value)} );`);
  return `<?php\n// Written by test/harness/wordpress-php.ts for one test run.\n${[...lines, ...c.extraLines].join('\n')}\n`
    + `$table_prefix = ${phpLiteral(c.tablePrefix)};\nrequire_once ABSPATH . 'wp-settings.php';\n`;
}

export function phpLiteral(value: string | number | boolean): string {
  if (typeof value !== 'string') return String(value);
  return `'${value.replace(/[\\']/g, (ch) => `\\${ch}`)}'`;
}

/** Every request is WordPress's front controller (index.php without the theme): REST answers and exits in wp(). */
const ROUTER = `<?php
define( 'WP_USE_THEMES', false );
require __DIR__ . '/wp-config.php';
wp();
status_header( 404 );
`;

async function authSalt(salts: SaltConstants): Promise<string> {
  const noStore = {
    getSiteOption: async () => { throw new Error('the harness wants all eight salt constants'); },
    addSiteOption: async () => { throw new Error('the harness wants all eight salt constants'); },
  };
  return new Salts(salts, noStore).salt('auth');
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilServing(probe: (code: string) => Promise<unknown>, child: ChildProcess, log: () => string): Promise<void> {
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`php exited (${child.exitCode}): ${log()}`);
    try {
      await probe('return true;');
      return;
    } catch (err) {
      if (Date.now() - started > 15_000) throw new Error(`WordPress did not answer within 15 s: ${(err as Error).message}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** php -S with workers forks: the whole group this harness started goes. */
export async function stopProcessGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  await exited;
}
