/**
 * A connected site's listed addresses: the browser origins its pages are served from. Each is kept
 * in the one form a browser sends in its `Origin` header, `scheme://host[:port]` (RFC 6454's
 * serialization: lowercase scheme and host, an internationalized host in punycode, the scheme's
 * default port left out), so that a request's Origin is allowed only when it is exactly one of them.
 * The opaque origin `null` (sandboxed frames, `file:` pages, some redirects) is never an address:
 * every such page would share it.
 */

/** A refused address, with a message for the person who gave it. */
export class OriginError extends Error {
  override name = 'OriginError';
}

/** The serialized origin of `text` (`https://Shop.Example:443/` → `https://shop.example`); throws OriginError. */
export function normaliseOrigin(text: string): string {
  const value = text.trim();
  if (value.toLowerCase() === 'null') throw new OriginError("'null' is never a listed address: it is the origin of sandboxed and file pages, which all share it.");
  // URL() silently drops tabs and newlines inside the text; an address holding them is refused instead.
  if (!value || /[\u0000-\u0020\u007f]/.test(value)) throw new OriginError(`Invalid address '${text}': give scheme://host[:port], such as https://www.example.com.`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new OriginError(`Invalid address '${text}': give scheme://host[:port], such as https://www.example.com.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new OriginError(`Invalid address '${text}': only http:// and https:// pages can be listed.`);
  if (url.username || url.password) throw new OriginError(`Invalid address '${text}': an address holds no user name or password.`);
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || /[?#]/.test(value)) {
    throw new OriginError(`Invalid address '${text}': an address is scheme://host[:port] only, without a path, query or fragment.`);
  }
  if (!url.hostname || url.hostname.includes('*')) throw new OriginError(`Invalid address '${text}': give one host name (no wildcards).`);
  return url.origin;
}

/** Each address normalised, duplicates dropped, in the order given; throws OriginError on the first bad one. */
export function normaliseOrigins(list: readonly string[]): string[] {
  return [...new Set(list.map(normaliseOrigin))];
}

/**
 * The addresses as stored, as they may be honoured: only those already in their normalised form (a row
 * written by hand or by another program that holds `null`, a path or another spelling lists nothing).
 */
export function honouredOrigins(stored: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const value of stored) {
    if (typeof value !== 'string') continue;
    try {
      if (normaliseOrigin(value) === value && !out.includes(value)) out.push(value);
    } catch {
      // not an address
    }
  }
  return out;
}
