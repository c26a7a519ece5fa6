/** Who per-address limits count: an IPv4 address, or an IPv6 client's /64 network. */
import assert from 'node:assert/strict';
import { addressKey } from '../../../../lib/wp/http/address-key';

describe('addressKey', () => {
  it('counts an IPv4 address as it is', () => {
    assert.equal(addressKey('203.0.113.9'), '203.0.113.9');
  });

  it('counts an IPv6 address by its /64, however it is spelled', () => {
    for (const address of ['2001:db8:0:0:1:2:3:4', '2001:DB8::ffff:9', '2001:0db8:0000:0000::', '2001:db8::1.2.3.4']) {
      assert.equal(addressKey(address), '2001:db8:0:0::/64', address);
    }
    assert.equal(addressKey('2001:db8:0:1::1'), '2001:db8:0:1::/64', 'the next /64 is another subscriber');
    assert.equal(addressKey('fe80::1%eth0'), 'fe80:0:0:0::/64', 'a zone index is not part of the address');
  });

  it('counts an IPv4 client seen through an IPv6 socket as its IPv4 address', () => {
    assert.equal(addressKey('::ffff:198.51.100.7'), '198.51.100.7');
    assert.equal(addressKey('::FFFF:c633:6407'), '198.51.100.7');
  });

  it('keeps anything that is not an address as it is (an empty one included)', () => {
    assert.equal(addressKey(''), '');
    assert.equal(addressKey('unix-socket'), 'unix-socket');
  });
});
