/**
 * URL protocol checks: wp_allowed_protocols(), wp_kses_no_null() and wp_kses_bad_protocol(), shared
 * by kses's URL attributes and esc_url_raw().
 */

import { decodeNumericEntities } from './entities';
import { phpEmpty, phpTrim } from './php';

/** WP: wp_allowed_protocols(). */
export const ALLOWED_PROTOCOLS: readonly string[] = [
  'http', 'https', 'ftp', 'ftps', 'mailto', 'news', 'irc', 'irc6', 'ircs', 'gopher', 'nntp', 'feed', 'telnet', 'mms',
  'rtsp', 'sms', 'svn', 'tel', 'fax', 'xmpp', 'webcal', 'urn',
];

/** WP: wp_kses_no_null(): control characters out; `\0`-style escapes too unless kept. */
export function ksesNoNull(input: string, removeSlashZero = true): string {
  const text = input.replace(/[\x00-\x08\x0B\x0C\x0E-\x1F]/g, '');
  return removeSlashZero ? text.replace(/\\+0+/g, '') : text;
}

/** WP: wp_kses_bad_protocol(): strips protocols not in the list, repeatedly; '' if it never settles. */
export function ksesBadProtocol(input: string, protocols: readonly string[] = ALLOWED_PROTOCOLS): string {
  let text = ksesNoNull(input);
  let previous: string;
  let iterations = 0;
  do {
    previous = text;
    text = badProtocolOnce(text, protocols, 1);
  } while (previous !== text && ++iterations < 6);
  return previous !== text ? '' : text;
}

function badProtocolOnce(input: string, protocols: readonly string[], count: number): string {
  const text = input.replace(/(&#0*58(?![;0-9])|&#x0*3a(?![;a-f0-9]))/gi, '$1;');
  const m = /:|&#0*58;|&#x0*3a;|&colon;/i.exec(text);
  if (!m) return text;
  const before = text.slice(0, m.index);
  if (/\/\?/.test(before)) return text;
  let after = phpTrim(text.slice(m.index + m[0].length));
  const scheme = ksesNoNull(decodeNumericEntities(before).replace(/[ \t\n\v\f\r]/g, '')).toLowerCase();
  const protocol = protocols.some((p) => p.toLowerCase() === scheme) ? `${scheme}:` : '';
  if (protocol === 'feed:') {
    if (count > 2) return '';
    after = badProtocolOnce(after, protocols, count + 1);
    if (phpEmpty(after)) return after;
  }
  return protocol + after;
}
