/**
 * A real WordPress multisite network (Debian's package in /usr/share/wordpress, php -S) over a test's
 * MariaDB database, built with WordPress's own install functions under php-cli: wp_install() for the
 * main site, install_network() and populate_network() for the network tables, wpmu_create_blog() for
 * the other sites. A test file builds one network in `before` and reuses it.
 *
 * The WordPress files stay where Debian put them. A temporary directory is the site's ABSPATH: a
 * symlink to each of WordPress's files and folders, our own wp-config.php (Debian's, which wants
 * /etc/wordpress/config-<host>.php, is left out) and wp-content. The router defines ABSPATH before
 * WordPress's scripts run, so their `require __DIR__ . '/wp-load.php'` loads our wp-config.php. It maps
 * URLs as WordPress's subdirectory .htaccess does: `/<site>/wp-admin/…` and `/<site>/*.php` run
 * WordPress's file, everything else index.php.
 *
 * A must-use plugin answers `X-Understudy-Which-Site: <token>` on `plugins_loaded` (after
 * ms-settings.php found the site and wp_cookie_constants() ran, before the site-status check) with
 * what PHP decided: the blog and network IDs and the cookie constants.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { DbTarget } from '../../lib/wp/db/database';
import { SaltConstants } from '../../lib/wp/salts';
import { WORDPRESS_DIR, freePort, phpLiteral, stopProcessGroup } from './wordpress-php';
import { dialect } from './db';

/** Why this run cannot build a WordPress network, or null when it can. */
export function wordpressNetworkSkipReason(): string | null {
  if (dialect !== 'mysql') return 'WordPress runs on MariaDB/MySQL only: set WP_TEST_MYSQL_URL';
  if (!fs.existsSync(path.join(WORDPRESS_DIR, 'wp-settings.php'))) return `WordPress is not installed in ${WORDPRESS_DIR} (Debian package wordpress)`;
  const php = spawnSync('php', ['-m'], { encoding: 'utf8' });
  if (php.status !== 0) return 'php is not installed (Debian package php-cli)';
  if (!php.stdout.toLowerCase().split('\n').includes('mysqli')) return 'php lacks the mysqli extension (Debian package php-mysql)';
  return null;
}

export interface NetworkUser {
  login: string;
  password: string;
  /** Role per blog ID; a user on no blog of the list is on none (not even the main site). */
  roles: Record<number, string>;
  superAdmin?: boolean;
  /** Gives the user an application password (RunningNetwork.appPasswords). */
  applicationPassword?: boolean;
}

export interface NetworkSiteSpec {
  path: string;
  /** Default: the network's domain (a subdirectory site); another domain is a site mapped to its own domain. */
  domain?: string;
  /** wp_blogs flags set after the site is made (update_blog_status()). */
  archived?: boolean;
  spam?: boolean;
  deleted?: boolean;
}

export interface WordPressNetworkOptions {
  db: Extract<DbTarget, { client: 'mysql' }>;
  salts: SaltConstants;
  /** The sites beside the main site, created in order as blogs 2, 3, … */
  sites: NetworkSiteSpec[];
  users: NetworkUser[];
  /**
   * The network's domain (default `network.test`). Requests go to 127.0.0.1:<port> with it as Host:
   * WordPress keeps no port in a site's domain (wpmu_create_blog() drops the colon).
   */
  domain?: string;
  /** A subdomain install (SUBDOMAIN_INSTALL); default subdirectories. */
  subdomain?: boolean;
  /** More must-use plugins a test needs (a probe of its own), PHP source by file name. */
  muPlugins?: Record<string, string>;
}

/** What PHP decided for one request (the must-use probe). */
export interface PhpSiteDecision {
  blog_id: number;
  network_id: number;
  main_site_id: number;
  COOKIEHASH: string;
  COOKIEPATH: string;
  SITECOOKIEPATH: string;
  ADMIN_COOKIE_PATH: string;
  PLUGINS_COOKIE_PATH: string;
  COOKIE_DOMAIN: string | false;
}

export interface PhpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface RunningNetwork {
  /** http://<domain>: the main site's address (served on 127.0.0.1:<port>). */
  url: string;
  /** http://127.0.0.1:<port>: where PHP listens (a proxy's upstream; send the network's Host). */
  address: string;
  /** The network's domain, as wp_site and wp_blogs hold it. */
  domain: string;
  db: Extract<DbTarget, { client: 'mysql' }>;
  salts: SaltConstants;
  /** The network's wp-config.php (removed by close()). */
  configFile: string;
  /** User ID of each user by login. */
  userIds: Record<string, number>;
  /** The application password of each user given one, by login. */
  appPasswords: Record<string, string>;
  /** One request to PHP with the Host header this network answers to unless given. */
  request(pathAndQuery: string, init?: { method?: string; headers?: Record<string, string>; body?: string }): Promise<PhpAnswer>;
  /** Signs in through `<sitePath>wp-login.php` (on `host`, default the network's domain) as a browser would; the cookies WordPress set, by name. */
  signIn(login: string, password: string, sitePath?: string, host?: string): Promise<{ cookies: Record<string, string>; setCookies: string[] }>;
  /** A `wp_rest` nonce made by PHP for the signed-in cookies (admin-ajax.php?action=rest-nonce on `host`). */
  restNonce(cookies: Record<string, string>, sitePath?: string, host?: string): Promise<string>;
  /** What PHP decided for a request with this Host and path: the site found, or PHP's answer (a redirect, a 500) when none was. */
  decision(host: string, pathAndQuery: string): Promise<PhpSiteDecision>;
  lookUp(host: string, pathAndQuery: string): Promise<{ site: PhpSiteDecision } | { status: number; location?: string }>;
  close(): Promise<void>;
}

export async function startWordPressNetwork(options: WordPressNetworkOptions): Promise<RunningNetwork> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-wpnet-'));
  const port = await freePort();
  const domain = options.domain ?? 'network.test';
  const url = `http://${domain}`;
  const probeToken = randomBytes(16).toString('hex');
  let created: Record<string, unknown>;
  try {
    created = installNetwork(dir, probeToken, domain, options);
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const userIds = created.userIds as Record<string, number>;
  const appPasswords = created.appPasswords as Record<string, string>;

  const child = spawn('php', ['-S', `127.0.0.1:${port}`, '-t', dir, path.join(dir, 'router.php')], {
    cwd: dir, detached: true, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, PHP_CLI_SERVER_WORKERS: '2' },
  });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => { log = (log + chunk.toString('utf8')).slice(-4000); });
  const stop = async () => {
    await stopProcessGroup(child);
    fs.rmSync(dir, { recursive: true, force: true });
  };

  const request = (pathAndQuery: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
    phpRequest(port, pathAndQuery, { method: init.method ?? 'GET', headers: { host: domain, ...init.headers }, body: init.body });
  const lookUp = async (host: string, pathAndQuery: string): Promise<{ site: PhpSiteDecision } | { status: number; location?: string }> => {
    const res = await phpRequest(port, pathAndQuery, { method: 'GET', headers: { host, 'x-understudy-which-site': probeToken } });
    if (res.status === 200 && res.headers['content-type'] === 'application/json') return { site: JSON.parse(res.body) as PhpSiteDecision };
    return { status: res.status, location: typeof res.headers.location === 'string' ? res.headers.location : undefined };
  };
  const decision = async (host: string, pathAndQuery: string) => {
    const found = await lookUp(host, pathAndQuery);
    if ('site' in found) return found.site;
    throw new Error(`PHP found no site for ${host}${pathAndQuery}: ${found.status} ${found.location ?? ''}`);
  };

  try {
    await waitUntilServing(() => decision(domain, '/'), () => child.exitCode, () => log);
  } catch (err) {
    await stop();
    throw err;
  }

  return {
    url, address: `http://127.0.0.1:${port}`, domain, db: options.db, salts: options.salts, configFile: path.join(dir, 'wp-config.php'), userIds, appPasswords, request, decision, lookUp,
    async signIn(login, password, sitePath = '/', host = domain) {
      const body = new URLSearchParams({ log: login, pwd: password, 'wp-submit': 'Log In', testcookie: '1' }).toString();
      const res = await request(`${sitePath}wp-login.php`, {
        method: 'POST', body,
        headers: { host, 'content-type': 'application/x-www-form-urlencoded', cookie: 'wordpress_test_cookie=WP%20Cookie%20check' },
      });
      const setCookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
      const cookies: Record<string, string> = {};
      for (const line of setCookies) {
        const [pair] = line.split(';');
        const eq = (pair ?? '').indexOf('=');
        const value = decodeURIComponent((pair ?? '').slice(eq + 1).replace(/\+/g, ' '));
        if (eq > 0 && value.trim() !== '' && !/expires=Thu, 01-Jan-1970/i.test(line)) cookies[(pair ?? '').slice(0, eq)] = value;
      }
      if (res.status !== 302 || !Object.keys(cookies).some((name) => name.startsWith('wordpress_logged_in_'))) {
        throw new Error(`wp-login.php did not sign ${login} in (${res.status}): ${res.body.slice(0, 300)}`);
      }
      return { cookies, setCookies };
    },
    async restNonce(cookies, sitePath = '/', host = domain) {
      const res = await request(`${sitePath}wp-admin/admin-ajax.php?action=rest-nonce`, { headers: { host, cookie: cookieHeader(cookies) } });
      if (res.status !== 200 || !/^[0-9a-f]{10}$/.test(res.body)) throw new Error(`rest-nonce answered ${res.status}: ${res.body.slice(0, 200)}`);
      return res.body;
    },
    close: stop,
  };
}

/** WordPress's files and our own in `dir`, then the main site, the network, its sites and users, under php-cli. */
function installNetwork(dir: string, probeToken: string, domain: string, options: WordPressNetworkOptions): Record<string, unknown> {
  layOutNetwork(dir, probeToken, options.muPlugins ?? {});
  fs.writeFileSync(path.join(dir, 'wp-config.php'), wpConfig(options, dir, null));
  const installed = runPhp(dir, INSTALL_SCRIPT, { domain, subdomain: options.subdomain ?? false, users: options.users });
  fs.writeFileSync(path.join(dir, 'wp-config.php'), wpConfig(options, dir, domain));
  return runPhp(dir, NETWORK_SCRIPT, { domain, sites: options.sites, users: options.users, adminId: installed.adminId });
}

/** A Cookie header from cookies by name, values encoded as PHP's setcookie() encodes them. */
export function cookieHeader(cookies: Record<string, string>): string {
  return Object.entries(cookies).map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('; ');
}

function layOutNetwork(dir: string, probeToken: string, muPlugins: Record<string, string>): void {
  for (const entry of fs.readdirSync(WORDPRESS_DIR)) {
    if (entry === 'wp-config.php' || entry === 'wp-content' || entry.startsWith('.')) continue;
    fs.symlinkSync(path.join(WORDPRESS_DIR, entry), path.join(dir, entry));
  }
  const content = path.join(dir, 'wp-content');
  fs.mkdirSync(path.join(content, 'mu-plugins'), { recursive: true });
  for (const shared of ['plugins', 'themes', 'languages']) {
    fs.symlinkSync(path.join(WORDPRESS_DIR, 'wp-content', shared), path.join(content, shared));
  }
  fs.writeFileSync(path.join(content, 'mu-plugins/understudy-which-site.php'), probePlugin(probeToken));
  for (const [name, source] of Object.entries(muPlugins)) fs.writeFileSync(path.join(content, 'mu-plugins', name), source);
  fs.writeFileSync(path.join(dir, 'router.php'), ROUTER);
}

/** wp-config.php: single site while installing (`networkDomain` null), then the network. */
function wpConfig(options: WordPressNetworkOptions, dir: string, networkDomain: string | null): string {
  const { db, salts } = options;
  const constants: Record<string, string | number | boolean> = {
    DB_NAME: db.database, DB_USER: db.user, DB_PASSWORD: db.password,
    DB_HOST: `${db.host ?? '127.0.0.1'}:${db.port ?? 3306}`, DB_CHARSET: 'utf8mb4', DB_COLLATE: '',
    ...(salts as Record<string, string>),
    WP_CONTENT_DIR: path.join(dir, 'wp-content'), DISABLE_WP_CRON: true, WP_DEBUG: false,
    // Application passwords work over plain HTTP only on a local site.
    WP_ENVIRONMENT_TYPE: 'local',
  };
  if (networkDomain) {
    Object.assign(constants, {
      WP_ALLOW_MULTISITE: true, MULTISITE: true, SUBDOMAIN_INSTALL: options.subdomain ?? false, DOMAIN_CURRENT_SITE: networkDomain,
      PATH_CURRENT_SITE: '/', SITE_ID_CURRENT_SITE: 1, BLOG_ID_CURRENT_SITE: 1,
    });
  }
  const lines = Object.entries(constants).map(([name, value]) => `define( '${name}', ${phpLiteral(value)} );`);
  return `<?php\n// Written by test/harness/wordpress-network.ts for one test run.\n${lines.join('\n')}\n`
    + `$table_prefix = 'wp_';\nif ( ! defined( 'ABSPATH' ) ) { define( 'ABSPATH', __DIR__ . '/' ); }\nrequire_once ABSPATH . 'wp-settings.php';\n`;
}

/** Runs a php-cli script inside WordPress (ABSPATH is `dir`) with `input` as `$input`; its JSON output. */
function runPhp(dir: string, script: string, input: unknown): Record<string, unknown> {
  const file = path.join(dir, `script-${randomBytes(4).toString('hex')}.php`);
  fs.writeFileSync(file, script);
  const res = spawnSync('php', [file], { cwd: dir, input: JSON.stringify(input), encoding: 'utf8', timeout: 120_000 });
  fs.rmSync(file);
  const out = res.stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(out) as Record<string, unknown>;
  } catch {
    throw new Error(`php ${path.basename(file)} failed (${res.status}): ${res.stdout.slice(-1500)}\n${res.stderr.slice(-1500)}`);
  }
}

/** What every php-cli script sets before loading WordPress: a request for the network's main address. */
const CLI_PRELUDE = `<?php
$input = json_decode( stream_get_contents( STDIN ), true );
define( 'ABSPATH', __DIR__ . '/' );
$_SERVER['HTTP_HOST'] = $input['domain'];
$_SERVER['SERVER_NAME'] = '127.0.0.1';
$_SERVER['REQUEST_URI'] = '/';
$_SERVER['SCRIPT_NAME'] = '/index.php';
$_SERVER['PHP_SELF'] = '/index.php';
$_SERVER['REQUEST_METHOD'] = 'GET';
`;

/** The main site (wp_install), then the network's tables and rows (install_network, populate_network). */
const INSTALL_SCRIPT = `${CLI_PRELUDE}
define( 'WP_INSTALLING', true );
require ABSPATH . 'wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
add_filter( 'pre_wp_mail', '__return_false' );
// populate_network() probes a random subdomain over HTTP on a subdomain install: nothing leaves the test.
add_filter( 'pre_http_request', function () { return new WP_Error( 'offline', 'No requests from the test network' ); } );
$url = 'http://' . $input['domain'];
$installed = wp_install( 'Main site', 'admin', 'admin@example.test', true, '', wp_generate_password( 20 ) );
update_option( 'siteurl', $url );
update_option( 'home', $url );
update_option( 'permalink_structure', '/%postname%/' );
// As wp-admin/network.php does: the network tables get their names before they are created.
foreach ( $wpdb->tables( 'ms_global' ) as $table => $prefixed ) { $wpdb->$table = $prefixed; }
install_network();
$result = populate_network( 1, $input['domain'], 'admin@example.test', 'Understudy network', '/', $input['subdomain'] );
// As wp-admin/network.php does, a subdomain install's failed wildcard DNS probe is a warning, not a failure.
if ( is_wp_error( $result ) && 'no_wildcard_dns' !== $result->get_error_code() ) { fwrite( STDERR, $result->get_error_message() ); exit( 1 ); }
echo wp_json_encode( array( 'adminId' => (int) $installed['user_id'] ) ), "\\n";
`;

/** The other sites (wpmu_create_blog) and the users with their roles per site and super admins. */
const NETWORK_SCRIPT = `${CLI_PRELUDE}
require ABSPATH . 'wp-load.php';
add_filter( 'pre_wp_mail', '__return_false' );
$blogs = array( 1 );
foreach ( $input['sites'] as $i => $site ) {
	$domain = isset( $site['domain'] ) ? $site['domain'] : $input['domain'];
	$blog = wpmu_create_blog( $domain, $site['path'], 'Site ' . ( $i + 2 ), (int) $input['adminId'] );
	if ( is_wp_error( $blog ) ) { fwrite( STDERR, $blog->get_error_message() ); exit( 1 ); }
	switch_to_blog( $blog );
	update_option( 'permalink_structure', '/%postname%/' );
	restore_current_blog();
	foreach ( array( 'archived', 'spam', 'deleted' ) as $flag ) {
		if ( ! empty( $site[ $flag ] ) ) { update_blog_status( $blog, $flag, '1' ); }
	}
	$blogs[] = $blog;
}
$ids = array( 'admin' => (int) $input['adminId'] );
$app_passwords = array();
foreach ( $input['users'] as $user ) {
	$id = username_exists( $user['login'] );
	if ( ! $id ) {
		$id = wpmu_create_user( $user['login'], $user['password'], $user['login'] . '@example.test' );
	} else {
		wp_set_password( $user['password'], $id );
	}
	foreach ( $blogs as $blog ) {
		if ( isset( $user['roles'][ $blog ] ) ) { add_user_to_blog( $blog, $id, $user['roles'][ $blog ] ); }
		elseif ( is_user_member_of_blog( $id, $blog ) ) { remove_user_from_blog( $id, $blog ); }
	}
	if ( ! empty( $user['superAdmin'] ) ) { grant_super_admin( $id ); }
	if ( ! empty( $user['applicationPassword'] ) ) {
		list( $app_password ) = WP_Application_Passwords::create_new_application_password( $id, array( 'name' => 'test' ) );
		$app_passwords[ $user['login'] ] = $app_password;
	}
	$ids[ $user['login'] ] = (int) $id;
}
echo wp_json_encode( array( 'userIds' => $ids, 'appPasswords' => (object) $app_passwords ) ), "\\n";
`;

/** php -S router: WordPress's subdirectory rewrite rules, then WordPress's own file with our ABSPATH. */
const ROUTER = `<?php
define( 'ABSPATH', __DIR__ . '/' );
$uri = parse_url( $_SERVER['REQUEST_URI'], PHP_URL_PATH );
if ( preg_match( '#^/(?:[_0-9a-zA-Z-]+/)?(wp-(?:content|admin|includes).*)#', $uri, $m ) ) {
	$file = $m[1];
} elseif ( preg_match( '#^/(?:[_0-9a-zA-Z-]+/)?([^/]+\\.php)$#', $uri, $m ) ) {
	$file = $m[1];
} else {
	$file = 'index.php';
}
if ( is_dir( ABSPATH . $file ) ) {
	$file = rtrim( $file, '/' ) . '/index.php';
}
if ( ! is_file( ABSPATH . $file ) || '.php' !== substr( $file, -4 ) ) {
	http_response_code( 404 );
	return true;
}
$_SERVER['SCRIPT_NAME'] = '/' . $file;
$_SERVER['PHP_SELF'] = '/' . $file;
$_SERVER['SCRIPT_FILENAME'] = ABSPATH . $file;
chdir( dirname( ABSPATH . $file ) );
require ABSPATH . $file;
`;

function probePlugin(token: string): string {
  return `<?php
// Test fixture: what PHP decided for this request, once the site is known and the cookie constants are set.
add_action( 'plugins_loaded', function () {
	if ( ! isset( $_SERVER['HTTP_X_UNDERSTUDY_WHICH_SITE'] ) || ! hash_equals( ${phpLiteral(token)}, $_SERVER['HTTP_X_UNDERSTUDY_WHICH_SITE'] ) ) {
		return;
	}
	header( 'Content-Type: application/json' );
	echo wp_json_encode( array(
		'blog_id' => get_current_blog_id(), 'network_id' => get_current_network_id(), 'main_site_id' => get_main_site_id(), 'COOKIEHASH' => COOKIEHASH,
		'COOKIEPATH' => COOKIEPATH, 'SITECOOKIEPATH' => SITECOOKIEPATH, 'ADMIN_COOKIE_PATH' => ADMIN_COOKIE_PATH,
		'PLUGINS_COOKIE_PATH' => PLUGINS_COOKIE_PATH, 'COOKIE_DOMAIN' => COOKIE_DOMAIN,
	) );
	exit;
}, 0 );
`;
}

function phpRequest(port: number, pathAndQuery: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<PhpAnswer> {
  return new Promise((resolve, reject) => {
    const headers = { ...init.headers, ...(init.body !== undefined ? { 'content-length': String(Buffer.byteLength(init.body)) } : {}) };
    const req = http.request({ host: '127.0.0.1', port, method: init.method, path: pathAndQuery, headers, agent: false, timeout: 20_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`PHP took too long for ${pathAndQuery}`)));
    req.on('error', reject);
    req.end(init.body);
  });
}

async function waitUntilServing(probe: () => Promise<unknown>, exitCode: () => number | null, log: () => string): Promise<void> {
  const started = Date.now();
  for (;;) {
    if (exitCode() !== null) throw new Error(`php exited (${exitCode()}): ${log()}`);
    try {
      await probe();
      return;
    } catch (err) {
      if (Date.now() - started > 20_000) throw new Error(`WordPress did not answer within 20 s: ${(err as Error).message}\n${log()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
