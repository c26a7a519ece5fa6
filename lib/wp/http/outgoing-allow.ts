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

/** Loopback, private, shared (CGNAT), link-local, multicast, reserved and unspecified addresses. */
const INTERNAL = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16],
  ['172.16.0.0', 12], ['192.168.0.0', 16], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) INTERNAL.addSubnet(address, prefix, 'ipv4');
// ::/96 holds the unspecified address, loopback and the old IPv4-compatible form (`::7f00:1`);
// IPv4-mapped addresses (`::ffff:127.0.0.1`) meet the IPv4 ranges above: BlockList maps them.
for (const [address, prefix] of [['::', 96], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8]] as const) {
  INTERNAL.addSubnet(address, prefix, 'ipv6');
}

/** Whether an address (IPv4 or IPv6, no brackets) is one outgoing requests stay away from by default. */
export function isInternalAddress(address: string): boolean {
  const family = net.isIP(address);
  return family === 0 || INTERNAL.check(address, family === 6 ? 'ipv6' : 'ipv4');
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
