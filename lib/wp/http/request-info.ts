/** Reading the parts of an HTTP request that WordPress reads from $_COOKIE and $_SERVER. */
import type { IncomingMessage } from 'node:http';

/** PHP's $_COOKIE: values URL-decoded with `+` as a space; the first of a repeated name wins. */
export function parseCookieHeader(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  if (!header) return cookies;
  for (const part of header.split(/;\s*/)) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (name in cookies) continue;
    const raw = part.slice(eq + 1).trim();
    try {
      cookies[name] = decodeURIComponent(raw.replace(/\+/g, ' '));
    } catch {
      cookies[name] = raw;
    }
  }
  return cookies;
}

/** REMOTE_ADDR, with IPv4-mapped IPv6 written as plain IPv4. */
export function clientIp(req: IncomingMessage): string {
  const address = req.socket.remoteAddress ?? '';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

/** WP: is_ssl(): the connection itself is TLS (X-Forwarded-Proto is ignored, as WordPress ignores it). */
export function isSecure(req: IncomingMessage): boolean {
  return Boolean((req.socket as { encrypted?: boolean }).encrypted);
}

/** The raw query string of a request URL (without `?`). */
export function queryString(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? '' : url.slice(q + 1);
}
