/**
 * Who a per-address limit counts (the REST server's default bucket, the keyless routes, the form
 * service's submission limit): an address's key, so that a visitor cannot escape a limit by picking
 * another address of their own.
 */
import net from 'node:net';

/**
 * Who is counted: an IPv4 address as it is, an IPv6 address by its /64 network (one subscriber's
 * allocation: a client can pick any address inside it, so counting single addresses would not limit it).
 */
export function addressKey(ipAddress: string): string {
  const address = ipAddress.trim().toLowerCase().replace(/%.*$/, '');
  if (!net.isIPv6(address)) return address;
  const groups = ipv6Groups(address);
  if (!groups) return address;
  // An IPv4 client seen through an IPv6 socket (::ffff:a.b.c.d) is that IPv4 address.
  const [high = 0, low = 0] = groups.slice(6);
  if (groups.slice(0, 6).join(':') === '0:0:0:0:0:65535') return [high >> 8, high & 255, low >> 8, low & 255].join('.');
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a trailing dotted IPv4 part read). */
function ipv6Groups(address: string): number[] | null {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail === undefined ? [] : tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 0) return null;
  const groups = [...left, ...Array(tail === undefined ? 0 : missing).fill('0'), ...right].map((g) => parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/** A rate-limit bucket's "who" for a visitor known only by address. */
export function visitorBucket(ipAddress: string): string {
  return `ip:${addressKey(ipAddress)}`;
}
