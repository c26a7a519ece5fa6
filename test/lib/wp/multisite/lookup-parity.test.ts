/**
 * The site lookup and the cookie constants against real WordPress 6.1 (Debian's package): a
 * subdirectory network on network.test (a site at /two/, an archived one at /three/, one mapped
 * to its own domain) and a subdomain network on example.test, each built with WordPress's own
 * install functions. For each address, what PHP decided (the site, or its redirect) is what
 * Understudy decides, and the cookie constants PHP defined there are the ones Understudy computes.
 */
import assert from 'node:assert/strict';
import { networkCookieConstants } from '../../../../lib/wp/auth/cookie-constants';
import { Database, connect } from '../../../../lib/wp/db/database';
import { Tables } from '../../../../lib/wp/db/tables';
import { networkInstallOf } from '../../../../lib/wp/multisite/install';
import { NetworkInstall, SiteLookup } from '../../../../lib/wp/multisite/lookup';
import { cookieDomainOf } from '../../../../lib/wp/multisite/network';
import { NetworkSites } from '../../../../lib/wp/multisite/sites';
import { siteCheck } from '../../../../lib/wp/multisite/status';
import { MultisiteStore } from '../../../../lib/wp/multisite/store';
import { readWpConfig } from '../../../../lib/wp/wp-config';
import { ScratchDatabase, scratchDatabase } from '../../../harness/db';
import { ORACLE_SALTS } from '../../../harness/oracle';
import { RunningNetwork, cookieHeader, startWordPressNetwork, wordpressNetworkSkipReason } from '../../../harness/wordpress-network';

/** A super admin who is a member of no site, and a customer of site 2. */
const BOSS = { login: 'boss', password: 'boss-pass-1234', roles: {}, superAdmin: true, applicationPassword: true };
const CUSTOMER = { login: 'customer', password: 'customer-pass-1234', roles: { 2: 'subscriber' } };

interface Built {
  scratch: ScratchDatabase;
  net: RunningNetwork;
  db: Database;
  sites: NetworkSites;
  install: NetworkInstall;
}

describe('multisite lookup and cookie constants against real WordPress networks', function () {
  this.timeout(240_000);
  const built: Built[] = [];
  let subdirectory: Built;
  let subdomain: Built;

  type Spec = Parameters<typeof startWordPressNetwork>[0];
  async function build(domain: string, subdomain: boolean, sites: Spec['sites'], users: Spec['users'] = []): Promise<Built> {
    const scratch = await scratchDatabase();
    if (scratch.target.client !== 'mysql') throw new Error('unreachable: the skip reason covers SQLite');
    const net = await startWordPressNetwork({ db: scratch.target, salts: ORACLE_SALTS, sites, users, domain, subdomain });
    const db = connect({ target: scratch.target, tables: new Tables({ prefix: 'wp_' }) });
    // What Understudy reads of the network's own wp-config.php.
    const install = networkInstallOf(readWpConfig(net.configFile));
    assert.deepEqual(install, { subdomainInstall: subdomain, current: { domain, path: '/', networkId: 1, mainSiteId: 1 } });
    const entry = { scratch, net, db, install, sites: new NetworkSites(new MultisiteStore(db), install) };
    built.push(entry);
    return entry;
  }

  before(async function () {
    const skip = wordpressNetworkSkipReason();
    if (skip) {
      console.log(`      skipped: ${skip}`);
      this.skip();
    }
    subdirectory = await build('network.test', false, [{ path: '/two/' }, { path: '/three/', archived: true }, { path: '/', domain: 'mapped.test' }], [BOSS, CUSTOMER]);
    subdomain = await build('example.test', true, [{ path: '/', domain: 'two.example.test' }, { path: '/', domain: 'mapped.test' }]);
  });

  after(async () => {
    for (const { net, db, scratch } of built) {
      await db.close();
      await net.close();
      await scratch.drop();
    }
  });

  /** Understudy's decision in PHP's terms: the blog ID, or the status and Location PHP answers. */
  function understudyAnswer(found: SiteLookup): number | string {
    if (found.found === 'site') return found.site.blogId;
    return found.found === 'redirect' ? `302 ${found.location}` : '500';
  }

  async function compare(b: Built, host: string, uri: string): Promise<void> {
    const admin = /\/wp-admin\//.test(uri.split('?')[0] ?? '');
    const php = await b.net.lookUp(host, uri);
    const phpAnswer = 'site' in php ? php.site.blog_id : `${php.status}${php.location ? ` ${php.location}` : ''}`;
    const found = await b.sites.lookUp({ host, uri, admin, secure: false });
    assert.equal(understudyAnswer(found), phpAnswer, `${host}${uri}`);
    if (!('site' in php) || found.found !== 'site') return;
    assert.deepEqual([found.network.id, found.network.mainSiteId], [php.site.network_id, php.site.main_site_id], `network at ${host}${uri}`);

    const siteUrl = await b.db.knex(found.site.blogId === 1 ? 'wp_options' : `wp_${found.site.blogId}_options`)
      .where({ option_name: 'siteurl' }).first('option_value');
    const ours = networkCookieConstants({
      networkSiteUrl: found.network.siteUrl, networkPath: found.network.path, networkCookieDomain: cookieDomainOf(found.network),
      subdomainInstall: b.install.subdomainInstall, siteUrl: String(siteUrl.option_value),
    });
    assert.deepEqual({
      COOKIEHASH: ours.hash, COOKIEPATH: ours.cookiePath, SITECOOKIEPATH: ours.siteCookiePath, ADMIN_COOKIE_PATH: ours.adminCookiePath,
      PLUGINS_COOKIE_PATH: ours.pluginsCookiePath, COOKIE_DOMAIN: ours.cookieDomain,
    }, {
      COOKIEHASH: php.site.COOKIEHASH, COOKIEPATH: php.site.COOKIEPATH, SITECOOKIEPATH: php.site.SITECOOKIEPATH,
      ADMIN_COOKIE_PATH: php.site.ADMIN_COOKIE_PATH, PLUGINS_COOKIE_PATH: php.site.PLUGINS_COOKIE_PATH, COOKIE_DOMAIN: php.site.COOKIE_DOMAIN,
    }, `cookie constants at ${host}${uri}`);
  }

  it('a subdirectory network: sites by path, REST, ?rest_route=, admin-ajax.php, no such path, a mapped domain, ports, www.', async () => {
    const host = subdirectory.net.domain;
    const addresses: Array<[string, string]> = [
      [host, '/'], [host, '/two/'], [host, '/two'], [host, '/two/wp-json/wp/v2/users/me'], [host, '/two/?rest_route=/wp/v2/users/me'],
      [host, '/?rest_route=/two/'], [host, '/two/wp-admin/admin-ajax.php?action=heartbeat'], [host, '/wp-admin/admin-ajax.php'], [host, '/wp-admin/admin-ajax.php?to=/two/wp-admin/'],
      [host, '/two/wp-admin/admin-ajax.php?to=/x/wp-admin/'],
      [host, '/nosuch/wp-json/'], [host, '/TWO/wp-json/'], [host, '/three/wp-json/'], [host.toUpperCase(), '/two/'],
      [`www.${host}`, '/two/'], ['mapped.test', '/wp-json/'], ['www.mapped.test', '/two/'], ['mapped.test:80', '/'],
      [`${host}:443`, '/two/wp-json/'], [`${host}:8080`, '/two/'], ['other.test', '/two/'],
    ];
    for (const [h, uri] of addresses) await compare(subdirectory, h, uri);
  });

  it('a subdomain network: sites by host, paths that never count, an unknown subdomain, a mapped domain', async () => {
    const addresses: Array<[string, string]> = [
      ['example.test', '/'], ['example.test', '/two/wp-json/'], ['two.example.test', '/wp-json/wp/v2/users/me'],
      ['two.example.test', '/two/'], ['two.example.test:443', '/wp-admin/admin-ajax.php'], ['two.example.test:8080', '/'],
      ['nosuch.example.test', '/wp-json/'], ['mapped.test', '/?rest_route=/'], ['www.two.example.test', '/'],
    ];
    for (const [h, uri] of addresses) await compare(subdomain, h, uri);
  });

  describe('an archived site (ms_site_check)', () => {
    const usersMe = '/three/?rest_route=/wp/v2/users/me';
    const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

    it('answers 410 with the message Understudy words, as JSON when asked, and as plain text through admin-ajax.php', async () => {
      const found = await subdirectory.sites.lookUp({ host: subdirectory.net.domain, uri: usersMe, admin: false, secure: false });
      assert.equal(found.found, 'site');
      const refusal = siteCheck((found as Extract<SiteLookup, { found: 'site' }>).site, { superAdminByCookie: false });
      assert.equal(refusal?.status, 410);

      const json = await subdirectory.net.request(usersMe, { headers: { accept: 'application/json' } });
      assert.equal(json.status, refusal?.status);
      assert.deepEqual(JSON.parse(json.body), { code: 'wp_die', message: refusal?.message, data: { status: 410 }, additional_errors: [] });
      const html = await subdirectory.net.request(usersMe);
      assert.equal(html.status, 410);
      assert.match(html.headers['content-type'] ?? '', /^text\/html/);
      assert.ok(html.body.includes(refusal?.message ?? '?'));
      const ajax = await subdirectory.net.request('/three/wp-admin/admin-ajax.php?action=rest-nonce');
      assert.deepEqual([ajax.status, ajax.body], [410, refusal?.message]);
    });

    it('lets a super admin through only when signed in by cookie: not by application password, and never a customer', async () => {
      const host = subdirectory.net;
      const boss = await host.signIn(BOSS.login, BOSS.password);
      const bossNonce = await host.restNonce(boss.cookies);
      const customer = await host.signIn(CUSTOMER.login, CUSTOMER.password, '/two/');
      const customerNonce = await host.restNonce(customer.cookies, '/two/');
      const status = async (headers: Record<string, string>, uri = usersMe) => (await host.request(uri, { headers })).status;

      assert.equal(await status({ cookie: cookieHeader(boss.cookies), 'x-wp-nonce': bossNonce }), 200);
      assert.equal(await status({ cookie: cookieHeader(boss.cookies) }), 401, 'past the site check, then signed out by REST for want of a nonce');
      assert.equal(await status({ authorization: basic(BOSS.login, host.appPasswords[BOSS.login] ?? '') }, '/two/?rest_route=/wp/v2/users/me'), 200);
      assert.equal(await status({ authorization: basic(BOSS.login, host.appPasswords[BOSS.login] ?? '') }), 410);
      assert.equal(await status({ cookie: cookieHeader(customer.cookies), 'x-wp-nonce': customerNonce }), 410);
    });
  });
});
