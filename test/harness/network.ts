/**
 * A WordPress network in a scratch database of either engine, made as WordPress makes one: the network
 * tables (network-tables.ts), each site's own tables and options (`{prefix}{blog_id}_`), users who
 * belong to some sites with a role on each, and super admins in `site_admins`. Served whole by one
 * Understudy process (`serve` with MULTISITE on and no WP_BLOG_ID), as a network's visitors reach it.
 * Users sign in by cookie and REST nonce, minted as WordPress mints them (the network's cookie names).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { OpenedNetwork, openNetwork, openSiteOfNetwork } from '../../lib/boot';
import { memoryLogger } from '../../lib/logger';
import { createSession, generateAuthCookie } from '../../lib/wp/auth/cookies';
import { createNonce } from '../../lib/wp/auth/nonces';
import { Clock, systemClock } from '../../lib/wp/clock';
import { installCoreTablesIfMissing } from '../../lib/wp/db/migrate';
import { Tables } from '../../lib/wp/db/tables';
import { installSite } from '../../lib/wp/install';
import { normalizeApplicationPassword, wpFastHash } from '../../lib/wp/passwords';
import { NetworkInstall } from '../../lib/wp/multisite/lookup';
import { serialize } from '../../lib/wp/php';
import { Site } from '../../lib/wp/site';
import { insertUser } from '../../lib/wp/user-insert';
import { ScratchDatabase, dialect, scratchDatabase } from './db';
import { BlogRow, NetworkRow, createNetworkTables, insertBlog, insertNetwork } from './network-tables';
import { ORACLE_SALTS } from './oracle';
import { envFor } from '../cli/cli-harness';

export interface NetworkUser {
  login: string;
  /** Role on each site the user is a member of, by blog ID. */
  roles: Record<number, string>;
}

export interface NetworkSpec {
  domain: string;
  install: NetworkInstall;
  blogs: BlogRow[];
  users: NetworkUser[];
  superAdmins: string[];
  /** Networks besides network 1 (on `domain`) in the same tables; a blog names its own with `networkId`. */
  otherNetworks?: NetworkRow[];
}

/**
 * The subdirectory network most tests serve: the main site, `/two/`, `/three/`, a site mapped to
 * `mapped.test` and an archived `/five/`; a super admin, an agent of site 2 who is a subscriber on
 * site 3, and a customer of site 2.
 */
export const EXAMPLE_NETWORK: NetworkSpec = {
  domain: 'example.test',
  install: { subdomainInstall: false, current: { domain: 'example.test', path: '/', networkId: 1 } },
  blogs: [
    { blogId: 1, domain: 'example.test', path: '/' },
    { blogId: 2, domain: 'example.test', path: '/two/' },
    { blogId: 3, domain: 'example.test', path: '/three/' },
    { blogId: 4, domain: 'mapped.test', path: '/' },
    { blogId: 5, domain: 'example.test', path: '/five/', archived: true },
  ],
  users: [
    { login: 'boss', roles: { 1: 'administrator' } },
    { login: 'agent2', roles: { 2: 'support_agent', 3: 'subscriber' } },
    { login: 'customer2', roles: { 2: 'subscriber' } },
  ],
  superAdmins: ['boss'],
};

export interface SignedIn {
  cookie: string;
  /** wp_create_nonce('wp_rest') of the session. */
  nonce: string;
  /** wp_create_nonce(action) of the session (an admin screen's nonce for admin-ajax). */
  nonceFor(action: string): Promise<string>;
}

export interface TestNetwork {
  config: OpenedNetwork['config'];
  scratch: ScratchDatabase;
  /** User IDs by login. */
  users: Record<string, number>;
  /** The `Site` of each blog over the network's pool, for arranging rows. */
  site(blogId: number): Promise<Site>;
  /** A cookie header and REST nonce for `login`, as wp-login.php and wp_create_nonce('wp_rest') make them. */
  signIn(login: string): Promise<SignedIn>;
  /** An `Authorization` header with `login`'s application password (one each, made as WordPress 6.8 stores them). */
  basicAuth(login: string): string;
  /**
   * The environment `understudy serve` (or `proxy`) is started with to serve the whole network: the
   * database, its keys, MULTISITE and the install shape, the data folder, a local environment (where
   * application passwords work over HTTP), and `extra`.
   */
  serveEnv(extra?: Record<string, string>): Record<string, string>;
  close(): Promise<void>;
}

const PASSWORD = 'network-password-1';
/** Every user's application password, in WordPress's chunked display form. */
const APP_PASSWORD = 'abcd EFGH ijkl MNOP qrst UVWX';

export async function buildNetwork(spec: NetworkSpec): Promise<TestNetwork> {
  const scratch = await scratchDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-network-'));
  const config: TestNetwork['config'] = {
    source: 'env', description: 'test network', db: scratch.target, tablePrefix: 'wp_', multisite: true, blogId: 1, network: spec.install,
    salts: ORACLE_SALTS, environmentType: 'local', dataDir, uploadsDir: path.join(dataDir, 'uploads'), seedDemo: false,
  };
  // The server signs and checks with the real clock: cookies and nonces are made with it too.
  const clock = systemClock;
  const network = openNetwork(config, {});
  const sites = new Map<number, Site>();
  const site = async (blogId: number): Promise<Site> => {
    let found = sites.get(blogId);
    if (!found) sites.set(blogId, (found = await openSiteOfNetwork(network, blogId, { logger: memoryLogger(), clock })));
    return found;
  };
  await createNetworkTables(network.db.knex, 'wp_', dialect);
  await insertNetwork(network.db.knex, 'wp_', { id: 1, domain: spec.domain, path: '/' });
  await network.db.knex('wp_sitemeta').insert([
    { site_id: 1, meta_key: 'site_admins', meta_value: serialize(spec.superAdmins) },
    // WordPress notes the first application password made on the network (each user below has one).
    { site_id: 1, meta_key: 'using_application_passwords', meta_value: '1' },
  ]);
  for (const other of spec.otherNetworks ?? []) await insertNetwork(network.db.knex, 'wp_', other);
  for (const blog of spec.blogs) {
    await insertBlog(network.db.knex, 'wp_', blog);
    await installCoreTablesIfMissing({ ...network.db, tables: new Tables({ prefix: 'wp_', blogId: blog.blogId, multisite: true }) });
    await installSite(await site(blog.blogId), { siteUrl: `http://${blog.domain}${blog.path}`.replace(/\/$/, ''), title: `Site ${blog.blogId}`, adminEmail: 'admin@example.test' });
  }
  const users: Record<string, number> = {};
  for (const user of spec.users) {
    const [first, ...others] = Object.entries(user.roles);
    users[user.login] = await insertUser(await site(Number(first?.[0] ?? 1)), { login: user.login, email: `${user.login}@example.test`, role: first?.[1] ?? 'subscriber' }, PASSWORD);
    await network.db.knex('wp_usermeta').insert({ user_id: users[user.login], meta_key: '_application_passwords', meta_value: serialize([
      { uuid: randomUUID(), app_id: '', name: 'network tests', password: wpFastHash(normalizeApplicationPassword(APP_PASSWORD)), created: 1_790_000_000, last_used: null, last_ip: null },
    ]) });
    for (const [blogId, role] of others) {
      const tables = (await site(Number(blogId))).db.tables;
      await network.db.knex(tables.usermeta).insert({ user_id: users[user.login], meta_key: tables.capabilitiesKey, meta_value: serialize({ [role]: true }) });
    }
  }
  // Each user signs in once, before any server reads them (a session written later shows up only after
  // the server's freshness bound, as one PHP writes does).
  const sessions = new Map<string, SignedIn>();
  for (const login of Object.keys(users)) sessions.set(login, await mintSignIn(await site(1), users[login] as number, clock));
  return {
    config, scratch, users, site,
    async signIn(login) {
      const found = sessions.get(login);
      if (!found) throw new Error(`no user ${login}`);
      return found;
    },
    basicAuth: (login) => `Basic ${Buffer.from(`${login}:${APP_PASSWORD}`).toString('base64')}`,
    serveEnv: (extra = {}) => envFor(scratch.target, {
      ...(ORACLE_SALTS as Record<string, string>), MULTISITE: '1', SUBDOMAIN_INSTALL: spec.install.subdomainInstall ? '1' : '0',
      DOMAIN_CURRENT_SITE: spec.install.current?.domain ?? spec.domain, PATH_CURRENT_SITE: spec.install.current?.path ?? '/',
      UNDERSTUDY_DATA_DIR: dataDir, WP_ENVIRONMENT_TYPE: 'local', ...extra,
    }),
    async close() {
      for (const opened of sites.values()) await opened.close();
      await network.close();
      await scratch.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A session for the user, its logged-in cookie and a REST nonce, as wp-login.php and wp_create_nonce('wp_rest') make them. */
async function mintSignIn(main: Site, userId: number, clock: Clock): Promise<SignedIn> {
  const user = await main.users.byId(userId);
  if (!user) throw new Error(`no user ${userId}`);
  const expiration = clock.now() / 1000 + 86_400;
  const token = await createSession(main.users, user, expiration, clock.now() / 1000);
  const signed = await main.users.byId(userId);
  const value = await generateAuthCookie(main.salts, signed ?? user, expiration, token, 'logged_in');
  const nonceFor = (action: string) => createNonce({ salts: main.salts, clock }, action, userId, token);
  return { cookie: `${(await main.cookieNames()).loggedIn}=${encodeURIComponent(value)}`, nonce: await nonceFor('wp_rest'), nonceFor };
}

export interface NetworkAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** A request to `base` (where the network's process listens) for `host`, as a visitor of that address sends it. */
export function requestAt(base: string, host: string, init: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<NetworkAnswer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({
      hostname: url.hostname, port: url.port, method: init.method ?? 'GET', path: init.path, agent: false,
      headers: { ...init.headers, host, ...(init.body !== undefined ? { 'content-length': String(Buffer.byteLength(init.body)) } : {}) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}
