/**
 * OUTGOING_ALLOW and the default rule (lib/wp/http/outgoing-allow.ts): public addresses on 80, 443
 * and 8080; every internal range refused; entries that open a port, an address, a range or a name.
 */
import assert from 'node:assert/strict';
import { NO_ALLOWANCE, isInternalAddress, mayConnect, parseOutgoingAllow } from '../../../../lib/wp/http/outgoing-allow';

describe('OUTGOING_ALLOW: where outgoing requests may connect', () => {
  it('takes loopback, private, shared, link-local, multicast, reserved and unspecified addresses for internal', () => {
    const internal = [
      '127.0.0.1', '127.255.0.9', '0.0.0.0', '0.1.2.3', '10.9.8.7', '100.64.0.1', '100.127.255.254', '169.254.169.254', '172.16.0.1',
      '172.31.255.255', '192.168.0.1', '224.0.0.1', '239.255.255.250', '240.0.0.1', '255.255.255.255',
      '::', '::1', '::7f00:1', '::ffff:127.0.0.1', '::ffff:169.254.169.254', '::ffff:10.0.0.1', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'fec0::1', 'ff02::1',
    ];
    const external = ['93.184.216.34', '8.8.8.8', '172.32.0.1', '172.15.255.255', '100.128.0.1', '192.169.0.1', '11.0.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'];
    assert.deepEqual(internal.filter((a) => !isInternalAddress(a)), []);
    assert.deepEqual(external.filter(isInternalAddress), []);
  });

  it('checks the IPv4 address a NAT64, 6to4 or translated IPv6 address stands for, and refuses the other special-purpose ranges', () => {
    const internal = [
      '64:ff9b::7f00:1', '64:ff9b::169.254.169.254', '64:ff9b::a00:1', '2002:7f00:1::1', '2002:a9fe:a9fe::', '::ffff:0:7f00:1',
      '198.18.0.1', '198.19.255.255', '192.0.0.1', '192.0.2.1', '198.51.100.1', '203.0.113.1', '192.88.99.1',
      '100::1', '64:ff9b:1::a00:1', '2001::1', '2001:0:4136:e378::1', '2001:db8::1', '3fff::1', '5f00::1', 'fe80::1%eth0',
    ];
    const external = ['64:ff9b::808:808', '64:ff9b::8.8.8.8', '2002:808:808::1', '::ffff:0:808:808', '192.31.196.1', '192.52.193.1', '2001:4860:4860::8888', '2a00:1450::1'];
    assert.deepEqual(internal.filter((a) => !isInternalAddress(a)), []);
    assert.deepEqual(external.filter(isInternalAddress), []);
    assert.equal(mayConnect(NO_ALLOWANCE, '[64:ff9b::a9fe:a9fe]', '64:ff9b::a9fe:a9fe', 80), false, 'the metadata service through NAT64');
  });

  it('lets public addresses use ports 80, 443 and 8080 only, and internal ones nothing, by default', () => {
    const may = (address: string, port: number) => mayConnect(NO_ALLOWANCE, 'example.com', address, port);
    assert.deepEqual([80, 443, 8080, 22, 3306, 8443, 25].map((p) => may('93.184.216.34', p)), [true, true, true, false, false, false, false]);
    assert.deepEqual([80, 443, 3306].map((p) => may('127.0.0.1', p)), [false, false, false]);
    assert.equal(may('169.254.169.254', 80), false);
  });

  it('opens a port for public addresses (*:port), an address or range (web ports, or the one given), or a name whatever it resolves to', () => {
    const allow = parseOutgoingAllow('*:8443, 10.1.0.0/16 192.168.5.5:9000,[fd00::]/8:8081  Changelog.Internal.:9100');
    assert.deepEqual(allow.entries, ['*:8443', '10.1.0.0/16', '192.168.5.5:9000', '[fd00::]/8:8081', 'Changelog.Internal.:9100']);
    const may = (name: string, address: string, port: number) => mayConnect(allow, name, address, port);
    assert.equal(may('example.com', '93.184.216.34', 8443), true);
    assert.equal(may('example.com', '127.0.0.1', 8443), false, '* is public addresses only');
    assert.deepEqual([80, 443, 8080, 9000].map((p) => may('x', '10.1.2.3', p)), [true, true, true, false]);
    assert.equal(may('x', '10.2.0.1', 80), false);
    assert.deepEqual([9000, 80].map((p) => may('x', '192.168.5.5', p)), [true, false]);
    assert.equal(may('x', '::ffff:192.168.5.5', 9000), true, 'an IPv4-mapped address is the same address');
    assert.deepEqual([8081, 80].map((p) => may('x', 'fd00::5', p)), [true, false]);
    assert.equal(may('changelog.internal', '10.9.9.9', 9100), true);
    assert.equal(may('CHANGELOG.internal.', '127.0.0.1', 9100), true, 'a name entry trusts what the name resolves to');
    assert.equal(may('changelog.internal', '10.9.9.9', 80), false);
    assert.equal(may('other.internal', '10.9.9.9', 9100), false);
  });

  it('refuses an entry it cannot read, naming it', () => {
    for (const [entry, why] of [
      ['*', /"\*" needs a port/], ['10.0.0.0/33', /prefix longer/], ['[fd00::]/129', /prefix longer/], ['host:0', /no valid port/],
      ['host:65536', /no valid port/], ['ht_tp', /not a host name/], ['a/8', /not a host name/], ['fd00::1', /is not host/], ['http://x', /is not host/],
    ] as const) {
      assert.throws(() => parseOutgoingAllow(`127.0.0.1:8000, ${entry}`), (err: Error) => err.message.startsWith(`OUTGOING_ALLOW: "${entry}" `) && why.test(err.message), entry);
    }
    assert.equal(parseOutgoingAllow('  ,'), NO_ALLOWANCE);
    assert.equal(parseOutgoingAllow(undefined), NO_ALLOWANCE);
  });
});
