/**
 * A real WordPress 6.1 subdirectory network (Debian's package, built with WordPress's own install
 * functions): a customer signs in through wp-login.php, PHP makes a REST nonce, and Understudy serving
 * one site of the network (WP_BLOG_ID 1, 2 and 3) accepts that cookie and nonce, as PHP does on every
 * site. Cookies on a network are named from the network's siteurl (wp_sitemeta, with its trailing
 * slash), not from the blog's own siteurl.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createApp } from '../../../../lib/app';
import { openSite } from '../../../../lib/boot';
import { memoryLogger } from '../../../../lib/logger';
import { SiteConfig } from '../../../../lib/wp/config';
import { Site } from '../../../../lib/wp/site';
import { ScratchDatabase, scratchDatabase } from '../../../harness/db';
import { ORACLE_SALTS } from '../../../harness/oracle';
import { RunningNetwork, cookieHeader, startWordPressNetwork, wordpressNetworkSkipReason } from '../../../harness/wordpress-network';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const CUSTOMER = { login: 'customer', password: 'customer-pass-1234', roles: { 2: 'subscriber' } };

describe('cookies and REST nonces of a real WordPress subdirectory network', function () {
  this.timeout(180_000);
  let scratch: ScratchDatabase;
  let net: RunningNetwork;
  let dataDir: string;
  const sites: Site[] = [];
  let signedIn: { cookies: Record<string, string>; setCookies: string[] };
  let nonce: string;

  before(async function () {
    const skip = wordpressNetworkSkipReason();
    if (skip) {
      console.log(`      skipped: ${skip}`);
      this.skip();
    }
    scratch = await scratchDatabase();
    if (scratch.target.client !== 'mysql') throw new Error('unreachable: the skip reason covers SQLite');
    net = await startWordPressNetwork({ db: scratch.target, salts: ORACLE_SALTS, sites: [{ path: '/two/' }, { path: '/three/' }], users: [CUSTOMER] });
    signedIn = await net.signIn(CUSTOMER.login, CUSTOMER.password);
    nonce = await net.restNonce(signedIn.cookies, '/two/');
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-net-'));
  });

  after(async () => {
    for (const site of sites) await site.close();
    await net?.close();
    await scratch?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function understudy(blogId: number): Promise<Site> {
    const config: SiteConfig = {
      source: 'env', description: `network blog ${blogId}`, db: scratch.target, tablePrefix: 'wp_', multisite: true, blogId,
      salts: ORACLE_SALTS, environmentType: 'local', dataDir, seedDemo: false,
    };
    const { site } = await openSite(config, { logger: memoryLogger() });
    sites.push(site);
    return site;
  }

  it('PHP signs the customer in with cookies named from the network siteurl with its slash, on the network path', async () => {
    const loggedIn = Object.keys(signedIn.cookies).find((name) => name.startsWith('wordpress_logged_in_'));
    const hash = (await net.decision(net.domain, '/two/')).COOKIEHASH;
    assert.equal(hash, md5(`${net.url}/`), "the network's siteurl, slash included");
    assert.notEqual(hash, md5(net.url), "not the main site's siteurl");
    assert.equal(loggedIn, `wordpress_logged_in_${hash}`);
    assert.ok(signedIn.setCookies.some((line) => line.startsWith(`${loggedIn}=`) && /; path=\/;/.test(line)), signedIn.setCookies.join('\n'));
  });

  for (const [blogId, sitePath] of [[1, '/'], [2, '/two/'], [3, '/three/']] as const) {
    it(`PHP and Understudy with WP_BLOG_ID=${blogId} both accept the cookie and nonce (users/me 200)`, async () => {
      const php = await net.request(`${sitePath}?rest_route=/wp/v2/users/me`, { headers: { cookie: cookieHeader(signedIn.cookies), 'x-wp-nonce': nonce } });
      assert.equal(php.status, 200, php.body);
      assert.equal(JSON.parse(php.body).slug, CUSTOMER.login);

      const site = await understudy(blogId);
      const res = await request(createApp(site)).get('/wp-json/wp/v2/users/me')
        .set('Cookie', cookieHeader(signedIn.cookies)).set('X-WP-Nonce', nonce);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.slug, CUSTOMER.login);
      assert.equal(res.body.id, net.userIds[CUSTOMER.login]);
    });
  }

  it("names the cookies as PHP names them on every site, whatever the blog's own siteurl", async () => {
    for (const [blogId, sitePath] of [[1, '/'], [2, '/two/']] as const) {
      const site = sites.find((s) => s.config.blogId === blogId) ?? await understudy(blogId);
      const hash = (await net.decision(net.domain, sitePath)).COOKIEHASH;
      assert.deepEqual(await site.cookieNames(), {
        auth: `wordpress_${hash}`, secureAuth: `wordpress_sec_${hash}`, loggedIn: `wordpress_logged_in_${hash}`,
      });
    }
  });
});
