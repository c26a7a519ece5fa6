/**
 * TRUSTED_PROXIES: the addresses (and CIDR ranges, IPv4 and IPv6) of the reverse proxies in front of
 * Understudy. Only a request whose connection comes from one of them may say who the visitor is
 * (X-Forwarded-For, or Forwarded: for=) and that the visitor used HTTPS (X-Forwarded-Proto, or
 * Forwarded: proto=). From anyone else those headers are ignored, so a visitor cannot choose their
 * own address (and with it their rate-limit bucket) or make plain HTTP count as secure.
 */
import type { IncomingMessage } from 'node:http';
import net from 'node:net';

export interface TrustedProxies {
  /** Whether a (normalised) address is one of the trusted proxies. */
  has(address: string): boolean;
  /** The entries as given, for start-up messages. */
  readonly entries: readonly string[];
}

/** What a request says about its visitor once the trusted proxies have been taken into account. */
export interface ClientFacts {
  /** REMOTE_ADDR as WordPress would see it behind a correctly configured proxy. */
  ip: string;
  /** is_ssl(). */
  secure: boolean;
}

export const NO_TRUSTED_PROXIES: TrustedProxies = { has: () => false, entries: [] };

/**
 * Parses a list of addresses and CIDR ranges separated by commas or spaces
 * (`127.0.0.1, 10.0.0.0/8, ::1, fd00::/8`). A bad entry stops start-up with a clear message.
 */
export function parseTrustedProxies(list: string | undefined): TrustedProxies {
  const entries = (list ?? '').split(/[\s,]+/).filter(Boolean);
  if (!entries.length) return NO_TRUSTED_PROXIES;
  const blocks = new net.BlockList();
  for (const entry of entries) addEntry(blocks, entry);
  return {
    entries,
    has: (address) => {
      const family = net.isIP(address);
      return family !== 0 && blocks.check(address, family === 6 ? 'ipv6' : 'ipv4');
    },
  };
}

function addEntry(blocks: net.BlockList, entry: string): void {
  const [address = '', prefixText, extra] = entry.split('/');
  const ip = normaliseAddress(address);
  const family = net.isIP(ip);
  const bad = () => new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range (e.g. 10.0.0.0/8, fd00::/8)`);
  if (!family || extra !== undefined) throw bad();
  const type = family === 6 ? 'ipv6' : 'ipv4';
  if (prefixText === undefined) return blocks.addAddress(ip, type);
  const prefix = Number(prefixText);
  if (!/^\d+$/.test(prefixText) || prefix > (family === 6 ? 128 : 32)) throw bad();
  blocks.addSubnet(ip, prefix, type);
}

/** IPv4-mapped IPv6 (`::ffff:10.0.0.1`) written as plain IPv4, as REMOTE_ADDR shows it. */
export function normaliseAddress(address: string): string {
  const lower = address.trim().toLowerCase();
  return lower.startsWith('::ffff:') && net.isIPv4(lower.slice(7)) ? lower.slice(7) : lower;
}

/** The connection's own peer address (REMOTE_ADDR without any proxy taken into account). */
export function peerAddress(req: IncomingMessage): string {
  return normaliseAddress(req.socket.remoteAddress ?? '');
}

function socketIsTls(req: IncomingMessage): boolean {
  return Boolean((req.socket as { encrypted?: boolean }).encrypted);
}

/**
 * Resolves the visitor: from an untrusted peer, the connection itself. From a trusted one, walking
 * the forwarded chain from the right, the first address that is not a trusted proxy (every proxy
 * appends the address it was connected from, so entries left of an untrusted one are the visitor's
 * own words and are never believed). When every entry is a trusted proxy, the left-most one. An
 * entry that is not an address (`unknown`, `_hidden`, garbage) ends the walk at the last trusted hop.
 */
export function resolveClientFacts(req: IncomingMessage, trusted: TrustedProxies): ClientFacts {
  const peer = peerAddress(req);
  const secure = socketIsTls(req);
  if (!trusted.has(peer)) return { ip: peer, secure };
  const chain = forwardedChain(req);
  let ip = peer;
  for (let i = chain.length - 1; i >= 0; i--) {
    const entry = chain[i] as string;
    if (!net.isIP(entry)) break;
    ip = entry;
    if (!trusted.has(entry)) break;
  }
  const proto = forwardedProto(req);
  return { ip, secure: proto === undefined ? secure : proto === 'https' };
}

/** The addresses of X-Forwarded-For (every such header, in order), or else of Forwarded's `for=`. */
function forwardedChain(req: IncomingMessage): string[] {
  const xff = headerValues(req, 'x-forwarded-for');
  if (xff.length) return xff.flatMap((v) => v.split(',')).map(addressOf);
  return forwardedPairs(req).flatMap((pairs) => (pairs.for === undefined ? [] : [addressOf(pairs.for)]));
}

/** The scheme the nearest proxy reports: the right-most X-Forwarded-Proto value, or Forwarded's proto=. */
function forwardedProto(req: IncomingMessage): string | undefined {
  const xfp = headerValues(req, 'x-forwarded-proto').flatMap((v) => v.split(',')).map((v) => v.trim().toLowerCase()).filter(Boolean);
  if (xfp.length) return xfp[xfp.length - 1];
  const protos = forwardedPairs(req).map((pairs) => pairs.proto?.toLowerCase()).filter((p): p is string => Boolean(p));
  return protos[protos.length - 1];
}

/** RFC 7239: elements separated by commas, each `name=value` pairs separated by semicolons. */
function forwardedPairs(req: IncomingMessage): Array<Record<string, string>> {
  return headerValues(req, 'forwarded').flatMap((v) => v.split(',')).map((element) => {
    const pairs: Record<string, string> = {};
    for (const pair of element.split(';')) {
      const eq = pair.indexOf('=');
      if (eq > 0) pairs[pair.slice(0, eq).trim().toLowerCase()] = unquote(pair.slice(eq + 1).trim());
    }
    return pairs;
  });
}

/** An address as proxies write it: `1.2.3.4`, `1.2.3.4:5678`, `[2001:db8::1]:80`, `"[::1]"`. */
function addressOf(raw: string): string {
  let text = unquote(raw.trim());
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) text = bracketed[1] as string;
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(':'));
  return normaliseAddress(text);
}

function unquote(text: string): string {
  return text.length >= 2 && text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1) : text;
}

function headerValues(req: IncomingMessage, name: string): string[] {
  const value = req.headers[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/**
 * Whether wp-config.php sets `$_SERVER['HTTPS']` from X-Forwarded-Proto, as WordPress's docs tell
 * admins behind a TLS-terminating proxy to do. Understudy reads wp-config.php without running PHP, so
 * such a site needs TRUSTED_PROXIES for Understudy to see HTTPS as PHP does.
 */
export function wpConfigTrustsForwardedProto(wpConfigText: string): boolean {
  const code = wpConfigText.replace(/\/\*[\s\S]*?\*\/|(^|[^:])\/\/[^\n]*|#[^\n]*/g, '$1');
  return /HTTP_X_FORWARDED_PROTO/.test(code) && /\$_SERVER\s*\[\s*['"]HTTPS['"]\s*\]\s*=[^=]/.test(code);
}
