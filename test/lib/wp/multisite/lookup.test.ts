/**
 * Which site of a network a request is for, over WordPress's network tables (SQLite and MariaDB):
 * subdirectory and subdomain installs, with and without DOMAIN_CURRENT_SITE/PATH_CURRENT_SITE, a site
 * mapped to its own domain, ports, `www.`, admin requests, addresses that name no site, the status
 * flags, and how often the tables are read. test/lib/wp/multisite/lookup-parity.test.ts asks real
 * WordPress the same questions.
 */
import assert from 'node:assert/strict';
import { Knex } from 'knex';
import { Database, connect } from '../../../../lib/wp/db/database';
import { Tables } from '../../../../lib/wp/db/tables';
import { NetworkInstall, SiteLookup, SiteRequest } from '../../../../lib/wp/multisite/lookup';
import { NetworkSites } from '../../../../lib/wp/multisite/sites';
import { siteCheck, siteState } from '../../../../lib/wp/multisite/status';
import { MultisiteStore } from '../../../../lib/wp/multisite/store';
import { ScratchDatabase, dialect, scratchDatabase } from '../../../harness/db';
import { eventually } from '../../../harness/eventually';
import { createNetworkTables, insertBlog, insertNetwork } from '../../../harness/network-tables';

const SUBDIRECTORY: NetworkInstall = { subdomainInstall: false, current: { domain: 'example.test', path: '/', networkId: 1 } };
const SUBDOMAIN: NetworkInstall = { subdomainInstall: true, current: { domain: 'example.test', path: '/', networkId: 1 } };

function get(host: string, uri: string, more: Partial<SiteRequest> = {}): SiteRequest {
  return { host, uri, admin: false, secure: false, ...more };
}

function blogOf(found: SiteLookup): number | string {
  if (found.found === 'site') return found.site.blogId;
  return found.found === 'redirect' ? `redirect ${found.location}` : 'none';
}

describe('multisite: which site a request is for', function () {
  let scratch: ScratchDatabase;
  const dbs: Database[] = [];

  async function network(prefix: string, fill: (knex: Knex) => Promise<void>): Promise<MultisiteStore> {
    const db = connect({ target: scratch.target, tables: new Tables({ prefix }) });
    dbs.push(db);
    await createNetworkTables(db.knex, prefix, dialect);
    await fill(db.knex);
    return new MultisiteStore(db);
  }

  let subdirectory: MultisiteStore;
  let subdomain: MultisiteStore;
  let deep: MultisiteStore;

  before(async () => {
    scratch = await scratchDatabase();
    subdirectory = await network('wp_', async (knex) => {
      await insertNetwork(knex, 'wp_', { id: 1, domain: 'example.test', path: '/' });
      await insertBlog(knex, 'wp_', { blogId: 1, domain: 'example.test', path: '/' });
      await insertBlog(knex, 'wp_', { blogId: 2, domain: 'example.test', path: '/two/' });
      await insertBlog(knex, 'wp_', { blogId: 3, domain: 'example.test', path: '/three/', archived: true });
      await insertBlog(knex, 'wp_', { blogId: 4, domain: 'mapped.test', path: '/' });
      await insertBlog(knex, 'wp_', { blogId: 5, domain: 'example.test:8080', path: '/' });
      await insertBlog(knex, 'wp_', { blogId: 7, domain: 'example.test', path: '/seven/', deleted: 2 });
    });
    subdomain = await network('sub_', async (knex) => {
      await insertNetwork(knex, 'sub_', { id: 1, domain: 'example.test', path: '/' });
      await insertBlog(knex, 'sub_', { blogId: 1, domain: 'example.test', path: '/' });
      await insertBlog(knex, 'sub_', { blogId: 2, domain: 'two.example.test', path: '/' });
      await insertBlog(knex, 'sub_', { blogId: 3, domain: 'mapped.test', path: '/', spam: true });
    });
    deep = await network('deep_', async (knex) => {
      await insertNetwork(knex, 'deep_', { id: 1, domain: 'example.test', path: '/net/' });
      await insertBlog(knex, 'deep_', { blogId: 1, domain: 'example.test', path: '/net/' });
      await insertBlog(knex, 'deep_', { blogId: 2, domain: 'example.test', path: '/net/two/' });
    });
  });

  after(async () => {
    for (const db of dbs) await db.close();
    await scratch?.drop();
  });

  describe('a subdirectory install (DOMAIN_CURRENT_SITE and PATH_CURRENT_SITE defined)', () => {
    const cases: Array<[string, SiteRequest, number | string]> = [
      ['the main site', get('example.test', '/'), 1],
      ['a site at its path', get('example.test', '/two/'), 2],
      ['a site without the trailing slash', get('example.test', '/two'), 2],
      ['REST under a site', get('example.test', '/two/wp-json/wp/v2/users/me'), 2],
      ['?rest_route= on a site', get('example.test', '/two/?rest_route=/wp/v2/users/me'), 2],
      ['?rest_route= on the main site (the query never counts)', get('example.test', '/?rest_route=/two/'), 1],
      ["a site's admin-ajax.php", get('example.test', '/two/wp-admin/admin-ajax.php?action=x', { admin: true }), 2],
      ["the main site's admin-ajax.php", get('example.test', '/wp-admin/admin-ajax.php', { admin: true }), 1],
      ['an admin path cut at its last /wp-admin/, the query included', get('example.test', '/wp-admin/admin-ajax.php?to=/two/wp-admin/', { admin: true }), 1],
      ['a query that cuts a site admin path short', get('example.test', '/two/wp-admin/admin-ajax.php?to=/x/wp-admin/', { admin: true }), 2],
      ['a path naming no site: the main site', get('example.test', '/nosuch/wp-json/'), 1],
      ['a path in other letters (the tables compare case-insensitively)', get('example.test', '/TWO/wp-json/'), 2],
      ['a host in capitals', get('EXAMPLE.TEST', '/two/'), 2],
      ['www. before the network domain', get('www.example.test', '/two/'), 2],
      ['a site mapped to its own domain', get('mapped.test', '/wp-json/'), 4],
      ['a mapped domain with www.', get('www.mapped.test', '/two/'), 4],
      ['port 80 is dropped', get('example.test:80', '/two/'), 2],
      ['port 443 is dropped', get('example.test:443', '/two/', { secure: true }), 2],
      ['another port stays part of the domain', get('example.test:8080', '/two/'), 5],
      ['an unknown domain goes to the network', get('other.test', '/two/'), 'redirect http://example.test/'],
      ['an unknown port goes to the network, over https when the request was', get('example.test:8443', '/', { secure: true }), 'redirect https://example.test/'],
    ];
    for (const [what, request, expected] of cases) {
      it(`${what}: ${request.host}${request.uri} → ${expected}`, async () => {
        assert.equal(blogOf(await new NetworkSites(subdirectory, SUBDIRECTORY).lookUp(request)), expected);
      });
    }

    it('gives the network with its siteurl (the cookie hash) and main site, and the flags of the site', async () => {
      const found = await new NetworkSites(subdirectory, SUBDIRECTORY).lookUp(get('example.test', '/three/wp-json/'));
      assert.equal(found.found, 'site');
      if (found.found !== 'site') return;
      const { id, domain, path, siteUrl, mainSiteId } = found.network;
      assert.deepEqual({ id, domain, path, siteUrl, mainSiteId }, { id: 1, domain: 'example.test', path: '/', siteUrl: 'http://example.test/', mainSiteId: 1 });
      assert.equal(found.site.archived, true);
    });
  });

  describe('a subdirectory install without the constants', () => {
    const install: NetworkInstall = { subdomainInstall: false };
    it('finds the sites by the one network of the table', async () => {
      const sites = new NetworkSites(subdirectory, install);
      assert.equal(blogOf(await sites.lookUp(get('example.test', '/two/wp-json/'))), 2);
      assert.equal(blogOf(await sites.lookUp(get('example.test', '/nosuch/'))), 1);
      assert.equal(blogOf(await sites.lookUp(get('other.test', '/'))), 'redirect http://example.test/');
    });

    it('looks one segment past a network at a deeper path (learnt from the table), and calls its own domain without a site not installed', async () => {
      const sites = new NetworkSites(deep, install);
      assert.equal(blogOf(await sites.lookUp(get('example.test', '/net/two/wp-json/wp/v2/users/me'))), 2);
      assert.equal(blogOf(await sites.lookUp(get('example.test', '/net/nosuch/'))), 1);
      assert.equal(blogOf(await sites.lookUp(get('example.test', '/elsewhere/'))), 'none');
    });

    it('answers the same for the deeper network with the constants', async () => {
      const sites = new NetworkSites(deep, { subdomainInstall: false, current: { domain: 'example.test', path: '/net/', networkId: 1 } });
      assert.equal(blogOf(await sites.lookUp(get('example.test', '/net/two/wp-json/'))), 2);
      assert.equal(blogOf(await sites.lookUp(get('example.test', '/net/'))), 1);
    });
  });

  describe('a subdomain install', () => {
    const cases: Array<[string, SiteRequest, NetworkInstall, number | string]> = [
      ['the main site', get('example.test', '/wp-json/'), SUBDOMAIN, 1],
      ['a site at its subdomain', get('two.example.test', '/wp-json/wp/v2/users/me'), SUBDOMAIN, 2],
      ['a path on a subdomain never names another site', get('two.example.test', '/two/'), SUBDOMAIN, 2],
      ['its admin-ajax.php', get('two.example.test', '/wp-admin/admin-ajax.php', { admin: true }), SUBDOMAIN, 2],
      ['a mapped domain', get('mapped.test', '/'), SUBDOMAIN, 3],
      ['an unknown subdomain goes to the sign-up form', get('nosuch.example.test', '/wp-json/'), SUBDOMAIN, 'redirect http://example.test/wp-signup.php?new=nosuch'],
      ['NOBLOGREDIRECT replaces the sign-up form', get('nosuch.example.test', '/'), { ...SUBDOMAIN, noBlogRedirect: 'https://elsewhere.test/' }, 'redirect https://elsewhere.test/'],
      ["NOBLOGREDIRECT '%siteurl%' is the network", get('nosuch.example.test', '/'), { ...SUBDOMAIN, noBlogRedirect: '%siteurl%' }, 'redirect http://example.test/'],
      ['without the constants, an unknown subdomain finds the network by its parent domain', get('nosuch.example.test', '/'), { subdomainInstall: true }, 'redirect http://example.test/wp-signup.php?new=nosuch'],
      ['without the constants, a domain under no network is not installed', get('nosuch.other.test', '/'), { subdomainInstall: true }, 'none'],
    ];
    for (const [what, request, install, expected] of cases) {
      it(`${what}: ${request.host}${request.uri} → ${expected}`, async () => {
        assert.equal(blogOf(await new NetworkSites(subdomain, install).lookUp(request)), expected);
      });
    }
  });

  describe('status flags (ms_site_check)', () => {
    async function siteAt(store: MultisiteStore, install: NetworkInstall, host: string, uri: string) {
      const found = await new NetworkSites(store, install).lookUp(get(host, uri));
      assert.equal(found.found, 'site');
      return (found as Extract<SiteLookup, { found: 'site' }>).site;
    }

    it('answers an archived site 410, a spammed one 410, one not activated with wp_die\'s default; a super admin signed in by cookie passes', async () => {
      const archived = await siteAt(subdirectory, SUBDIRECTORY, 'example.test', '/three/wp-json/');
      const spam = await siteAt(subdomain, SUBDOMAIN, 'mapped.test', '/');
      const inactive = await siteAt(subdirectory, SUBDIRECTORY, 'example.test', '/seven/');
      const live = await siteAt(subdirectory, SUBDIRECTORY, 'example.test', '/two/');
      assert.deepEqual([archived, spam, inactive, live].map(siteState), ['suspended', 'suspended', 'inactive', 'live']);
      assert.deepEqual(siteCheck(archived, { superAdminByCookie: false }), { state: 'suspended', status: 410, message: 'This site has been archived or suspended.' });
      assert.equal(siteCheck(spam, { superAdminByCookie: false })?.status, 410);
      assert.equal(siteCheck(inactive, { superAdminByCookie: false }, 'admin@example.test')?.status, null);
      assert.match(siteCheck(inactive, { superAdminByCookie: false }, 'admin@example.test')?.message ?? '', /contact <a href="mailto:admin AT example.test">/);
      assert.equal(siteCheck(archived, { superAdminByCookie: true }), null);
      assert.equal(siteCheck(live, { superAdminByCookie: false }), null);
    });

    it('ranks a deleted site before its other flags', () => {
      const site = { blogId: 9, networkId: 1, domain: 'example.test', path: '/x/', public: true, archived: true, mature: false, spam: true, deleted: 1 };
      assert.deepEqual(siteCheck(site, { superAdminByCookie: false }), { state: 'deleted', status: 410, message: 'This site is no longer available.' });
    });
  });

  describe('reading the tables', () => {
    it('reads them once for every address of a site within the freshness bound', async () => {
      const sites = new NetworkSites(subdirectory, SUBDIRECTORY);
      const db = dbs[0] as Database;
      let queries = 0;
      const count = () => { queries++; };
      db.knex.on('query', count);
      try {
        for (const uri of ['/two/', '/two/wp-json/wp/v2/users/me', '/two/wp-json/support/v1/tickets?page=2', '/two/?rest_route=/', '/two/wp-json/support/v1/tickets/7']) {
          assert.equal(blogOf(await sites.lookUp(get('example.test', uri))), 2);
        }
        assert.equal(blogOf(await sites.lookUp(get('example.test', '/two/wp-admin/admin-ajax.php', { admin: true }))), 2);
      } finally {
        db.knex.off('query', count);
      }
      assert.equal(queries, 1);
    });

    it('finds a site PHP adds, within the freshness bound', async () => {
      const sites = new NetworkSites(subdirectory, SUBDIRECTORY);
      assert.equal(blogOf(await sites.lookUp(get('example.test', '/six/wp-json/'))), 1);
      await insertBlog((dbs[0] as Database).knex, 'wp_', { blogId: 6, domain: 'example.test', path: '/six/' });
      await eventually(async () => blogOf(await sites.lookUp(get('example.test', '/six/wp-json/'))) === 6, 2000);
    });
  });
});
