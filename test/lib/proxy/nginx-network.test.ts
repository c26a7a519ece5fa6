/**
 * What `understudy nginx --network` makes of a network's rows: server names and the site path regex
 * (test/deploy/nginx-network.test.ts runs the result in real nginx).
 */
import assert from 'node:assert/strict';
import { NetworkInstall } from '../../../lib/wp/multisite/lookup';
import { Network, NetworkSite } from '../../../lib/wp/multisite/network';
import { networkRouting } from '../../../lib/proxy/nginx-network';

const network = (id: number, domain: string, path = '/'): Network => ({ id, domain, path, siteUrl: null, mainSiteId: null });
const site = (blogId: number, domain: string, path = '/'): NetworkSite => ({
  blogId, networkId: 1, domain, path, public: true, archived: false, mature: false, spam: false, deleted: 0,
});
const SUBDIRECTORY: NetworkInstall = { subdomainInstall: false };
const SUBDOMAIN: NetworkInstall = { subdomainInstall: true };

describe('understudy nginx --network: names and paths', () => {
  it('a subdirectory network: its domain and mapped domains, one optional segment before a site\'s routes', () => {
    const routing = networkRouting(SUBDIRECTORY, [network(1, 'example.test')], [site(1, 'example.test'), site(2, 'example.test', '/two/'), site(3, 'Mapped.test:8080')]);
    assert.deepEqual(routing, { serverNames: ['example.test', 'mapped.test'], sitePath: '(?:/[^/]+)?' });
    const regex = new RegExp(`^${routing.sitePath}/wp-json/`);
    assert.deepEqual(['/wp-json/', '/two/wp-json/', '/a/b/wp-json/'].map((p) => regex.test(p)), [true, true, false]);
  });

  it('a subdomain install: *.<network domain> beside every site\'s own, the network\'s path alone', () => {
    const routing = networkRouting(SUBDOMAIN, [network(1, 'example.test')], [site(1, 'example.test'), site(2, 'two.example.test'), site(3, 'mapped.test')]);
    assert.deepEqual(routing, { serverNames: ['example.test', '*.example.test', 'two.example.test', 'mapped.test'], sitePath: '' });
  });

  it('networks at deeper paths, and the constants\' network', () => {
    const install: NetworkInstall = { subdomainInstall: false, current: { domain: 'example.test', path: '/net/', networkId: 1 } };
    const routing = networkRouting(install, [network(1, 'example.test', '/net/'), network(2, 'other.test', '/a.b/')], [site(1, 'example.test', '/net/')]);
    assert.deepEqual(routing, { serverNames: ['example.test', 'other.test'], sitePath: '(?:/net(?:/[^/]+)?|/a\\.b(?:/[^/]+)?)' });
  });

  it('refuses a domain or path that would write directives into the configuration, and an empty network table', () => {
    assert.throws(() => networkRouting(SUBDIRECTORY, [network(1, 'example.test')], [site(4, 'x.test;return 200')]), /^Error: The domain of blog 4, "x\.test;return 200", cannot be an nginx server name$/);
    assert.throws(() => networkRouting(SUBDIRECTORY, [network(1, 'example.test', '/a b/')], []), /^Error: The path of network 1, "\/a b\/", cannot go into an nginx location$/);
    assert.throws(() => networkRouting(SUBDIRECTORY, [], []), /hold no network/);
  });
});
