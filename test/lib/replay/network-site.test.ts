/** Replaying a network's capture: the URL as the exchange's site reads it, and the Host it keeps. */
import assert from 'node:assert/strict';
import { capturedHost, urlWithinSite } from '../../../lib/replay/network-site';

describe('replay of a network: the URL within its site', () => {
  it('reads /<site>/wp-json/ and /<site>/wp-admin/admin-ajax.php as the site\'s REST and admin-ajax', () => {
    const cases: Array<[string, string]> = [
      ['http://example.test/two/wp-json/support/v1/tickets?page=2', '/wp-json/support/v1/tickets?page=2'],
      ['http://example.test/net/two/wp-json', '/wp-json'],
      ['http://example.test/two/index.php/wp-json/x', '/index.php/wp-json/x'],
      ['http://example.test/two/wp-admin/admin-ajax.php?action=a', '/wp-admin/admin-ajax.php?action=a'],
      ['http://example.test/wp-json/two/wp-json/', '/wp-json/two/wp-json/'],
      ['http://example.test/two/hello/', '/two/hello/'],
      ['http://example.test/two/wp-jsonish/', '/two/wp-jsonish/'],
      ['http://two.example.test/wp-json/', '/wp-json/'],
    ];
    for (const [url, within] of cases) assert.equal(urlWithinSite(url), within, url);
  });

  it('sends the Host the exchange was captured with, port and all', () => {
    assert.deepEqual(capturedHost({ method: 'GET', url: 'http://mapped.test:8080/wp-json/', headers: [], body: null }), [['Host', 'mapped.test:8080']]);
  });
});
