/**
 * Two networks in one database (SQLite and MariaDB): each site reads the network options of its own
 * network (the blog's `site_id`), so a super admin of network 2 has every capability on network 2's
 * sites, member or not, and none of it on network 1's; a site option added by a site of network 2 is
 * network 2's. On a network only super admins get `unfiltered_html`, whatever a role grants. Cookie
 * names come from the site's network, or from what wp-config.php defines.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { memoryLogger } from '../../../../lib/logger';
import { fixedClock } from '../../../../lib/wp/clock';
import { SiteConfig } from '../../../../lib/wp/config';
import { Database, connect } from '../../../../lib/wp/db/database';
import { installCoreTablesIfMissing } from '../../../../lib/wp/db/migrate';
import { Tables } from '../../../../lib/wp/db/tables';
import { installSite } from '../../../../lib/wp/install';
import { maybeSerialize } from '../../../../lib/wp/php';
import { Site, createSite } from '../../../../lib/wp/site';
import { ScratchDatabase, dialect, scratchDatabase } from '../../../harness/db';
import { ORACLE_SALTS } from '../../../harness/oracle';
import { createNetworkTables, insertBlog, insertNetwork } from '../../../harness/network-tables';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** Blog 1 and 2 on network 1 (example.test), blog 3 on network 2 (other.test). */
const BLOGS = [
  { blogId: 1, networkId: 1, domain: 'example.test', path: '/' },
  { blogId: 2, networkId: 1, domain: 'example.test', path: '/two/' },
  { blogId: 3, networkId: 2, domain: 'other.test', path: '/' },
];

/** Logins and their roles per blog: `chief` is network 1's super admin, `boss` network 2's; `ann` and `owner` administer one blog. */
const USERS: Array<{ login: string; roles: Record<number, string> }> = [
  { login: 'chief', roles: {} },
  { login: 'boss', roles: { 1: 'subscriber' } },
  { login: 'ann', roles: { 3: 'administrator' } },
  { login: 'owner', roles: { 1: 'administrator' } },
];

describe('multisite: super admins and site options of the network a site belongs to', function () {
  let scratch: ScratchDatabase;
  let dataDir: string;
  const sites: Site[] = [];

  function configOf(blogId: number, multisite = true): SiteConfig {
    return {
      source: 'env', description: `blog ${blogId}`, db: scratch.target, tablePrefix: 'wp_', multisite, blogId,
      salts: ORACLE_SALTS, environmentType: 'local', dataDir, seedDemo: false,
    };
  }

  function open(blogId: number, multisite = true, more: Partial<SiteConfig> = {}): Site {
    const db = connect({ target: scratch.target, tables: new Tables({ prefix: 'wp_', blogId, multisite }) });
    const site = createSite({ ...configOf(blogId, multisite), ...more }, db, fixedClock(Date.UTC(2026, 10, 28)), memoryLogger());
    sites.push(site);
    return site;
  }

  async function capsOf(site: Site, login: string) {
    const user = await site.users.byLogin(login);
    assert.ok(user, login);
    return site.capabilities.forUser(user);
  }

  before(async () => {
    scratch = await scratchDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-networks-'));
    const setup = connect({ target: scratch.target, tables: new Tables({ prefix: 'wp_' }) });
    try {
      await createNetworkTables(setup.knex, 'wp_', dialect);
      await insertNetwork(setup.knex, 'wp_', { id: 1, domain: 'example.test', path: '/' });
      await insertNetwork(setup.knex, 'wp_', { id: 2, domain: 'other.test', path: '/' });
      await setup.knex('wp_sitemeta').insert([
        { site_id: 1, meta_key: 'site_admins', meta_value: maybeSerialize(['chief']) },
        { site_id: 2, meta_key: 'site_admins', meta_value: maybeSerialize(['boss']) },
      ]);
      for (const blog of BLOGS) await insertBlog(setup.knex, 'wp_', blog);
      await installBlogs();
      await insertUsers(setup);
    } finally {
      await setup.close();
    }
  });

  async function installBlogs(): Promise<void> {
    for (const blog of BLOGS) {
      const site = open(blog.blogId);
      await installCoreTablesIfMissing(site.db);
      await installSite(site, { siteUrl: `http://${blog.domain}${blog.path}`.replace(/\/$/, ''), title: `Blog ${blog.blogId}`, adminEmail: 'owner@example.test' });
    }
  }

  async function insertUsers(db: Database): Promise<void> {
    for (const user of USERS) {
      const [id] = await db.knex('wp_users').insert({
        user_login: user.login, user_pass: '$P$Bunused', user_nicename: user.login, user_email: `${user.login}@example.test`,
        user_registered: '2026-11-28 00:00:00', display_name: user.login,
      });
      for (const [blogId, role] of Object.entries(user.roles)) {
        const key = Number(blogId) === 1 ? 'wp_capabilities' : `wp_${blogId}_capabilities`;
        await db.knex('wp_usermeta').insert({ user_id: id, meta_key: key, meta_value: maybeSerialize({ [role]: true }) });
      }
    }
  }

  after(async () => {
    for (const site of sites) await site.close();
    await scratch?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("a super admin of network 2 may do everything on network 2's site, not being a member, but not on network 1's sites", async () => {
    const caps = await capsOf(open(3), 'boss');
    assert.deepEqual([caps.roles, caps.isSuperAdmin], [[], true]);
    assert.deepEqual(['manage_options', 'delete_users', 'unfiltered_html', 'svc_manage'].map((cap) => caps.can(cap)), [true, true, true, true]);
    assert.equal(caps.can('do_not_allow'), false);
    for (const blogId of [1, 2]) {
      const there = await capsOf(open(blogId), 'boss');
      assert.deepEqual([there.isSuperAdmin, there.can('manage_options')], [false, false], `blog ${blogId}`);
    }
    // On blog 1 their subscriber role is all that counts.
    assert.equal((await capsOf(open(1), 'boss')).can('read'), true);
  });

  it("network 1's super admin is one on blogs 1 and 2 and not on network 2's blog 3", async () => {
    assert.deepEqual(await Promise.all([1, 2, 3].map(async (blogId) => (await capsOf(open(blogId), 'chief')).can('manage_options'))), [true, true, false]);
  });

  it("denies unfiltered_html to a site's administrator on a network, and not on a single site", async () => {
    const onNetwork = await capsOf(open(3), 'ann');
    assert.deepEqual([onNetwork.can('manage_options'), onNetwork.can('unfiltered_html')], [true, false]);
    assert.equal((await capsOf(open(1), 'owner')).can('unfiltered_html'), false);
    // The same tables read as a single site: the administrator role's unfiltered_html counts.
    assert.equal((await capsOf(open(1, false), 'owner')).can('unfiltered_html'), true);
  });

  it("adds and reads a site option in the site's own network", async () => {
    await open(3).options.addSiteOption('understudy_probe', 'network two');
    const rows = await open(1).db.knex('wp_sitemeta').where({ meta_key: 'understudy_probe' }).select('site_id', 'meta_value');
    assert.deepEqual(rows.map((r: { site_id: unknown; meta_value: unknown }) => [Number(r.site_id), r.meta_value]), [[2, 'network two']]);
    assert.equal(await open(2).options.getSiteOption('understudy_probe'), undefined);
    assert.equal(await open(3).options.getSiteOption('understudy_probe'), 'network two');
  });

  it("names cookies from the site's network's siteurl as stored, or from wp-config.php's COOKIEHASH; WP_SITEURL counts for nothing", async () => {
    assert.equal((await open(3).cookieNames()).loggedIn, `wordpress_logged_in_${md5('http://other.test/')}`);
    const defined = open(3, true, { cookieConstants: { COOKIEHASH: 'ownhash', AUTH_COOKIE: 'shop_auth' }, siteUrlConstant: 'http://elsewhere.test' });
    assert.deepEqual(await defined.cookieNames(), { auth: 'shop_auth', secureAuth: 'wordpress_sec_ownhash', loggedIn: 'wordpress_logged_in_ownhash' });
    const withSiteUrl = open(2, true, { siteUrlConstant: 'http://elsewhere.test' });
    assert.equal((await withSiteUrl.cookieNames()).loggedIn, `wordpress_logged_in_${md5('http://example.test/')}`);
  });
});
