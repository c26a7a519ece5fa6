/**
 * Where an outgoing request may go: as WordPress's wp_safe_remote_get(), to public addresses on the
 * web ports (80, 443, 8080) and nowhere else, so that a URL someone types cannot reach the server's
 * own services (loopback, the database's port), its network (private ranges) or the cloud's metadata
 * service (link-local). OUTGOING_ALLOW opens more, as a site with an internal source needs: a list,
 * separated by commas or spaces, of `host` or `host:port`, where host is a name (`changelog.internal`:
 * whatever it resolves to), an address or CIDR range (`10.0.0.0/8`, `[fd00::]/8`) or `*` (any public
 * address, with a port: `*:8443`). An entry without a port allows the web ports. A bad entry stops
 * start-up with a clear message. WordPress keeps the same choice in code (the
 * `http_request_host_is_external` and `http_allowed_safe_ports` filters), never in an option an admin
 * screen writes.
 */
import net from 'node:net';

export const WEB_PORTS: readonly number[] = [80, 443, 8080];

type AllowedHost = { kind: 'public' } | { kind: 'name'; name: string } | { kind: 'range'; addresses: net.BlockList };

interface AllowEntry {
  host: AllowedHost;
  ports: readonly number[];
}

export interface OutgoingAllowance {
  /** The entries as given, for messages. */
  readonly entries: readonly string[];
  readonly allowed: readonly AllowEntry[];
}

export const NO_ALLOWANCE: OutgoingAllowance = { entries: [], allowed: [] };

/**
 * IPv4 addresses that are not the public internet (IANA's special-purpose registry): this network,
 * private, shared (CGNAT), loopback, link-local, IETF protocol assignments, documentation
 * (TEST-NET-1/2/3), the old 6to4 relay anycast, benchmarking, multicast, reserved and broadcast.
 * The registry's globally reachable entries (AS112 192.31.196.0/24 and 192.175.48.0/24, AMT
 * 192.52.193.0/24) are public.
 */
const INTERNAL_V4 = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) INTERNAL_V4.addSubnet(address, prefix, 'ipv4');

/**
 * IPv6 is public only inside global unicast (2000::/3), which leaves out at once loopback,
 * unspecified, IPv4-compatible (::/96), discard (100::/64), local-use NAT64 (64:ff9b:1::/48: where
 * its IPv4 sits depends on the operator's prefix length), SRv6 (5f00::/16), unique-local, link-local,
 * site-local and multicast; inside it, the special ranges: IETF protocol assignments (2001::/23,
 * with Teredo 2001::/32, whose addresses carry two IPv4 addresses) and documentation.
 */
const GLOBAL_UNICAST = new net.BlockList();
GLOBAL_UNICAST.addSubnet('2000::', 3, 'ipv6');
const SPECIAL_GLOBAL_V6 = new net.BlockList();
for (const [address, prefix] of [['2001::', 23], ['2001:db8::', 32], ['3fff::', 20]] as const) SPECIAL_GLOBAL_V6.addSubnet(address, prefix, 'ipv6');

/** Whether an address (IPv4 or IPv6, no brackets) is one outgoing requests stay away from by default. */
export function isInternalAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return INTERNAL_V4.check(address, 'ipv4');
  if (family !== 6) return true;
  const embedded = embeddedIPv4(ipv6Groups(address));
  if (embedded !== undefined) return INTERNAL_V4.check(embedded, 'ipv4');
  return !GLOBAL_UNICAST.check(address, 'ipv6') || SPECIAL_GLOBAL_V6.check(address, 'ipv6');
}

/**
 * The IPv4 address an IPv6 address stands for, where a host or gateway turns one into the other:
 * IPv4-mapped (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96), NAT64 (64:ff9b::/96, as DNS64
 * answers on an IPv6-only host) and 6to4 (2002::/16). `64:ff9b::a00:1` reaches 10.0.0.1.
 */
function embeddedIPv4(groups: readonly number[]): string | undefined {
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = groups;
  const zeros = (...gs: Array<number | undefined>) => gs.every((g) => g === 0);
  const quad = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  if (zeros(g0, g1, g2, g3, g4) && g5 === 0xffff) return quad(g6, g7);
  if (zeros(g0, g1, g2, g3, g5) && g4 === 0xffff) return quad(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && zeros(g2, g3, g4, g5)) return quad(g6, g7);
  if (g0 === 0x2002) return quad(g1 ?? 0, g2 ?? 0);
  return undefined;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted tail and a zone allowed). */
function ipv6Groups(address: string): number[] {
  const bare = address.replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(bare);
  const hex = dotted ? bare.slice(0, dotted.index) + dottedAsGroups(dotted.slice(1).map(Number)) : bare;
  const [head = '', tail] = hex.split('::');
  const parse = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

/** `127.0.0.1` as the last two groups, `7f00:1`. */
function dottedAsGroups([a = 0, b = 0, c = 0, d = 0]: number[]): string {
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/**
 * May a request for host `name` (as the URL gives it) connect to `address` on `port`? A public
 * address on a web port, or whatever an OUTGOING_ALLOW entry names.
 */
export function mayConnect(allow: OutgoingAllowance, name: string, address: string, port: number): boolean {
  const internal = isInternalAddress(address);
  if (!internal && WEB_PORTS.includes(port)) return true;
  return allow.allowed.some((entry) => entry.ports.includes(port) && hostMatches(entry.host, bareName(name), address, internal));
}

function hostMatches(host: AllowedHost, name: string, address: string, internal: boolean): boolean {
  if (host.kind === 'public') return !internal;
  if (host.kind === 'name') return host.name === name;
  return host.addresses.check(address, net.isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

/** `Changelog.Internal.` and `changelog.internal` are one host. */
function bareName(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

export function parseOutgoingAllow(list: string | undefined): OutgoingAllowance {
  const entries = (list ?? '').split(/[\s,]+/).filter(Boolean);
  if (!entries.length) return NO_ALLOWANCE;
  return { entries, allowed: entries.map(parseEntry) };
}

const ENTRY = /^(\*|\[[0-9a-f:.]+\](?:\/\d{1,3})?|[^\s:/[\]]+(?:\/\d{1,2})?)(?::(\d{1,5}))?$/i;

function parseEntry(entry: string): AllowEntry {
  const bad = (why: string) => new Error(`OUTGOING_ALLOW: "${entry}" ${why} (e.g. 10.0.0.0/8, changelog.internal:9000, [fd00::]/8, *:8443)`);
  const match = ENTRY.exec(entry);
  if (!match) throw bad('is not host, host:port, address, CIDR range or *:port');
  const [, hostText = '', portText] = match;
  const port = portText === undefined ? undefined : Number(portText);
  if (port !== undefined && (port < 1 || port > 65535)) throw bad('has no valid port');
  if (hostText === '*' && port === undefined) throw bad('allows nothing more than the default: "*" needs a port');
  return { host: parseHost(hostText, bad), ports: port === undefined ? WEB_PORTS : [port] };
}

function parseHost(text: string, bad: (why: string) => Error): AllowedHost {
  if (text === '*') return { kind: 'public' };
  const [addressText = '', prefixText] = text.split('/');
  const address = addressText.replace(/^\[(.*)\]$/, '$1');
  const family = net.isIP(address);
  if (!family) {
    if (prefixText !== undefined || !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/i.test(address)) throw bad('is not a host name, address or CIDR range');
    return { kind: 'name', name: bareName(address) };
  }
  const type = family === 6 ? 'ipv6' : 'ipv4';
  const addresses = new net.BlockList();
  if (prefixText === undefined) addresses.addAddress(address, type);
  else if (Number(prefixText) > (family === 6 ? 128 : 32)) throw bad('has a prefix longer than the address');
  else addresses.addSubnet(address, Number(prefixText), type);
  return { kind: 'range', addresses };
}
