/**
 * Slugs: sanitize_title() and sanitize_title_with_dashes() in the `save` context, with the
 * utf8_uri_encode() they percent-encode with.
 */

import { removeAccents } from './accents';
import { phpTrim } from './php';
import { phpStripTags } from './tags';

/** WP: utf8_uri_encode(): non-ASCII characters as lower-case %xx octets, at most `length` encoded characters. */
function utf8UriEncode(input: string, length: number): string {
  let out = '';
  let used = 0;
  for (const ch of input) {
    const code = ch.codePointAt(0) as number;
    if (code < 128) {
      if (used >= length) break;
      out += ch;
      used++;
    } else {
      const bytes = Buffer.from(ch, 'utf8');
      if (used + bytes.length * 3 > length) break;
      for (const b of bytes) out += `%${b.toString(16).padStart(2, '0')}`;
      used += bytes.length * 3;
    }
  }
  return out;
}

const encoded = (chars: string): string[] => [...chars].map((ch) => utf8UriEncode(ch, 12));
const TO_HYPHEN = encoded('\u00a0\u2013\u2014');
const STRIPPED = encoded(
  '\u00ad\u00a1\u00bf\u00ab\u00bb\u2039\u203a\u2018\u2019\u201c\u201d\u201a\u201b\u201e\u201f\u2022\u00a9\u00ae\u00b0' +
  '\u2026\u2122\u00b4\u02ca\u0301\u0341\u0300\u0304\u030c\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e\ufeff\ufffc',
);
const WIDE_SPACES = encoded('\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f');

function replaceAll(text: string, from: readonly string[], to: string): string {
  let out = text;
  for (const f of from) out = out.split(f).join(to);
  return out;
}

/**
 * WP: sanitize_title_with_dashes() in the `save` context: lower case, non-ASCII percent-encoded,
 * punctuation out, spaces and dots as single hyphens.
 */
export function sanitizeTitleWithDashes(input: string): string {
  let title = phpStripTags(input);
  title = title.replace(/%([a-fA-F0-9][a-fA-F0-9])/g, '---$1---').replace(/%/g, '').replace(/---([a-fA-F0-9][a-fA-F0-9])---/g, '%$1');
  title = utf8UriEncode(title.toLowerCase(), 200).toLowerCase();
  title = replaceAll(title, TO_HYPHEN, '-');
  title = replaceAll(title, ['&nbsp;', '&#160;', '&ndash;', '&#8211;', '&mdash;', '&#8212;', '/'], '-');
  title = replaceAll(title, STRIPPED, '');
  title = replaceAll(title, WIDE_SPACES, '-');
  title = title.split('%c3%97').join('x');
  title = title.replace(/&.+?;/g, '').replace(/\./g, '-');
  title = title.replace(/[^%a-z0-9 _-]/g, '').replace(/\s+/g, '-').replace(/-+/g, '-');
  return phpTrim(title, '-');
}

/** WP: sanitize_title() in the `save` context: remove_accents(), then sanitize_title_with_dashes(). */
export function sanitizeTitle(input: string): string {
  return sanitizeTitleWithDashes(removeAccents(input));
}
