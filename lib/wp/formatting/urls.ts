/**
 * URLs and email addresses: esc_url_raw() and sanitize_email().
 */

import { phpTrim } from './php';
import { ALLOWED_PROTOCOLS, ksesBadProtocol } from './protocols';

/** WP: esc_url_raw() (esc_url() in the `db` context): unsafe characters out, http:// added, protocol checked. */
export function escUrlRaw(input: string, protocols: readonly string[] = ALLOWED_PROTOCOLS): string {
  if (input === '') return '';
  let url = input.replace(/^[ \t\n\r\0\x0B]+/, '').replace(/ /g, '%20');
  url = url.replace(/[^a-z0-9\-~+_.?#=!&;,/:%@$|*'()[\]\u0080-\u{10FFFF}]/giu, '');
  if (url === '') return '';
  if (!/^mailto:/i.test(url)) {
    // WP: _deep_replace(): until none is left.
    while (/%0[dDaA]/.test(url)) url = url.replace(/%0[dDaA]/g, '');
  }
  url = url.split(';//').join('://');
  if (!url.includes(':') && !['/', '#', '?'].includes(url[0] as string) && !/^[a-z0-9-]+?\.php/i.test(url)) url = `http://${url}`;
  if (url.includes('[') || url.includes(']')) {
    const m = /^(?:([a-z][a-z0-9+.-]*):)?(\/\/[^/?#]*)?/i.exec(url);
    const front = m ? `${m[1] ? `${m[1]}:` : ''}${m[2] ?? ''}` : '';
    url = front + url.slice(front.length).replace(/\[/g, '%5B').replace(/\]/g, '%5D');
  }
  if (url[0] === '/') return url;
  const good = ksesBadProtocol(url, protocols);
  return good.toLowerCase() !== url.toLowerCase() ? '' : good;
}

/** WP: sanitize_email(): characters an address cannot hold are dropped; '' when nothing usable is left. */
export function sanitizeEmail(input: string): string {
  if (Buffer.byteLength(input) < 6) return '';
  const at = input.indexOf('@', 1);
  if (at < 0) return '';
  const local = input.slice(0, at).replace(/[^a-zA-Z0-9!#$%&'*+/=?^_`{|}~.-]/g, '');
  if (local === '') return '';
  let domain = input.slice(at + 1).replace(/\.{2,}/g, '');
  if (domain === '') return '';
  domain = phpTrim(domain, ' \t\n\r\0\x0B.');
  if (domain === '') return '';
  const subs = domain.split('.');
  if (subs.length < 2) return '';
  const kept = subs.map((sub) => phpTrim(sub, ' \t\n\r\0\x0B-').replace(/[^a-z0-9-]+/gi, '')).filter((sub) => sub !== '');
  if (kept.length < 2) return '';
  return `${local}@${kept.join('.')}`;
}
