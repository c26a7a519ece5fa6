/**
 * The cookie constants of a single site and of a site of a network, and what wp-config.php defines
 * of them: each defined constant wins and the ones derived after it follow it, as in WordPress.
 * test/lib/wp/multisite/lookup-parity.test.ts checks the network defaults against real WordPress.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { networkCookieConstants, singleSiteCookieConstants } from '../../../../lib/wp/auth/cookie-constants';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

describe('cookie constants', () => {
  it('a single site at the root of its domain', () => {
    const hash = md5('https://example.com');
    assert.deepEqual(singleSiteCookieConstants('https://example.com', 'https://example.com'), {
      hash, names: { auth: `wordpress_${hash}`, secureAuth: `wordpress_sec_${hash}`, loggedIn: `wordpress_logged_in_${hash}` },
      cookiePath: '/', siteCookiePath: '/', adminCookiePath: '/wp-admin', pluginsCookiePath: '/wp-content/plugins', cookieDomain: false,
    });
  });

  it('a single site whose WordPress lives in a folder of its home', () => {
    const c = singleSiteCookieConstants('https://example.com/wp', 'https://example.com');
    assert.deepEqual([c.cookiePath, c.siteCookiePath, c.adminCookiePath, c.pluginsCookiePath], ['/', '/wp/', '/wp/wp-admin', '/wp/wp-content/plugins']);
  });

  it('takes what wp-config.php defines, and derives the later constants from it', () => {
    const c = singleSiteCookieConstants('https://example.com', 'https://example.com', {
      COOKIEHASH: 'fixed', LOGGED_IN_COOKIE: 'signed_in', SITECOOKIEPATH: '/blog/', COOKIE_DOMAIN: '.example.com',
      WP_CONTENT_URL: 'https://cdn.example.com/content',
    });
    assert.deepEqual(c.names, { auth: 'wordpress_fixed', secureAuth: 'wordpress_sec_fixed', loggedIn: 'signed_in' });
    assert.deepEqual([c.hash, c.adminCookiePath, c.pluginsCookiePath, c.cookieDomain], ['fixed', '/blog/wp-admin', '/content/plugins', '.example.com']);
  });

  it("a site of a subdirectory network: the network's siteurl and path", () => {
    const c = networkCookieConstants({
      networkSiteUrl: 'https://example.com/', networkPath: '/', networkCookieDomain: 'example.com', subdomainInstall: false, siteUrl: 'https://example.com/two',
    });
    assert.deepEqual([c.hash, c.cookiePath, c.siteCookiePath, c.adminCookiePath, c.pluginsCookiePath, c.cookieDomain],
      [md5('https://example.com/'), '/', '/', '/', '/two/wp-content/plugins', false]);
  });

  it('a site of a subdomain network: the network domain for every subdomain, wp-admin for a site at a bare domain', () => {
    const inputs = { networkSiteUrl: 'https://www.example.com/', networkPath: '/', networkCookieDomain: 'example.com', subdomainInstall: true };
    const bare = networkCookieConstants({ ...inputs, siteUrl: 'https://two.example.com' });
    assert.deepEqual([bare.adminCookiePath, bare.cookieDomain], ['/wp-admin', '.example.com']);
    assert.equal(networkCookieConstants({ ...inputs, siteUrl: 'https://two.example.com/blog' }).adminCookiePath, '/');
    assert.equal(networkCookieConstants({ ...inputs, siteUrl: 'https://two.example.com' }, { SITECOOKIEPATH: '/x/' }).adminCookiePath, '/x/wp-admin');
    assert.equal(networkCookieConstants({ ...inputs, siteUrl: 'https://two.example.com' }, { COOKIE_DOMAIN: false }).cookieDomain, false);
  });

  it("hashes nothing when the network has no siteurl, as WordPress's empty COOKIEHASH", () => {
    const c = networkCookieConstants({ networkSiteUrl: null, networkPath: '/', networkCookieDomain: 'example.com', subdomainInstall: false, siteUrl: 'https://example.com' });
    assert.equal(c.names.loggedIn, 'wordpress_logged_in_');
  });
});
