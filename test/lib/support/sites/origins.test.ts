/** Listed addresses: normalised to the Origin a browser sends (scheme://host[:port]); `null` never. */
import assert from 'node:assert/strict';
import { OriginError, honouredOrigins, normaliseOrigin, normaliseOrigins } from '../../../../lib/support/sites/origins';

describe('connected-site origins', () => {
  it('normalises to scheme://host[:port]: lowercase host, default ports dropped, punycode, no trailing slash', () => {
    const cases: Array<[string, string]> = [
      ['https://shop.example', 'https://shop.example'],
      ['https://Shop.EXAMPLE/', 'https://shop.example'],
      ['HTTPS://shop.example:443', 'https://shop.example'],
      ['http://shop.example:80/', 'http://shop.example'],
      ['http://shop.example:443', 'http://shop.example:443'],
      ['https://shop.example:8443', 'https://shop.example:8443'],
      ['  http://localhost:3000 ', 'http://localhost:3000'],
      ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
      ['http://[::1]:3000', 'http://[::1]:3000'],
      ['https://bücher.example', 'https://xn--bcher-kva.example'],
    ];
    for (const [given, expected] of cases) assert.equal(normaliseOrigin(given), expected, given);
  });

  it('refuses null, other schemes, paths, queries, fragments, credentials, wildcards and control characters', () => {
    const refused = [
      'null', 'NULL', ' null ', '', 'shop.example', 'ftp://shop.example', 'file:///tmp/x', 'javascript:alert(1)', 'data:text/html,x',
      'https://shop.example/path', 'https://shop.example/?q=1', 'https://shop.example/#top', 'https://shop.example?',
      'https://user:pw@shop.example', 'https://*.shop.example', 'https://sho\np.example', 'https://shop\t.example', 'https://',
    ];
    for (const text of refused) assert.throws(() => normaliseOrigin(text), OriginError, JSON.stringify(text));
  });

  it('says why null is never listed', () => {
    assert.throws(() => normaliseOrigin('null'), /never a listed address/);
  });

  it('drops duplicates once normalised, keeping the order given', () => {
    assert.deepEqual(normaliseOrigins(['https://b.example', 'https://A.example/', 'https://b.example:443', 'https://a.example']), ['https://b.example', 'https://a.example']);
  });

  it('honours only stored addresses already in normalised form (a hand-written null or path lists nothing)', () => {
    assert.deepEqual(honouredOrigins(['https://shop.example', 'null', 'https://Shop.example', 'https://x.example/path', 7, 'https://shop.example', 'http://localhost:3000']),
      ['https://shop.example', 'http://localhost:3000']);
  });
});
