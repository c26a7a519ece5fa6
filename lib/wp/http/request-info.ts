/** Reading the parts of an HTTP request that WordPress reads from $_COOKIE and $_SERVER. */
import type { IncomingMessage } from 'node:http';
import { ClientFacts, TrustedProxies, peerAddress, resolveClientFacts } from './trusted-proxies';

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

/**
 * The one resolution of who the visitor is: the front door (lib/app.ts, the proxy) calls
 * `trustProxies` for each request as it arrives; clientIp() and isSecure() then read its result, so
 * every route, limit and record sees the same answer. A request no front door saw is its connection.
 */
const resolved = new WeakMap<IncomingMessage, ClientFacts>();
const fromTrusted = new WeakSet<IncomingMessage>();

/** Resolves the request's visitor with TRUSTED_PROXIES (trusted-proxies.ts) and keeps the answer. */
export function trustProxies(req: IncomingMessage, trusted: TrustedProxies): ClientFacts {
  const facts = resolveClientFacts(req, trusted);
  resolved.set(req, facts);
  if (trusted.has(peerAddress(req))) fromTrusted.add(req);
  return facts;
}

/** Whether the connection comes from a trusted proxy, whose forwarding headers may be passed on. */
export function fromTrustedProxy(req: IncomingMessage): boolean {
  return fromTrusted.has(req);
}

/** WP: REMOTE_ADDR (IPv4-mapped IPv6 written as plain IPv4), or the visitor behind a trusted proxy. */
export function clientIp(req: IncomingMessage): string {
  return resolved.get(req)?.ip ?? peerAddress(req);
}

/**
 * WP: is_ssl(): the connection itself is TLS, or a trusted proxy says the visitor used HTTPS. From
 * anyone else X-Forwarded-Proto is ignored, as WordPress ignores it.
 */
export function isSecure(req: IncomingMessage): boolean {
  return resolved.get(req)?.secure ?? Boolean((req.socket as { encrypted?: boolean }).encrypted);
}

/** The raw query string of a request URL (without `?`). */
export function queryString(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? '' : url.slice(q + 1);
}
