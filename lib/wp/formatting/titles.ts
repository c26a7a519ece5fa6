/**
 * Slugs: sanitize_title(), sanitize_title_with_dashes() and sanitize_title_for_query(), with the
 * utf8_uri_encode() they percent-encode with, and _truncate_post_slug(), which makes room in a slug
 * for a `-2` suffix.
 */

import { removeAccents } from './accents';
import { phpTrim } from './php';
import { phpStripTags } from './tags';

/**
 * WP: utf8_uri_encode() over UTF-8 bytes: each multi-byte character becomes its octets as lower-case
 * `%xx`, as long as the whole character fits in `length` output characters (0: no limit); the first
 * character that would not fit ends the output. ASCII is kept as it is, or passed through
 * rawurlencode() when `encodeAscii` is set (as _truncate_post_slug() asks).
 */
function utf8UriEncodeBytes(bytes: Uint8Array, length: number, encodeAscii = false): string {
  let out = '';
  let used = 0;
  let pending: number[] = [];
  let octets = 1;
  for (const byte of bytes) {
    if (byte < 128) {
      const char = String.fromCharCode(byte);
      const piece = encodeAscii ? rawUrlEncodeAscii(char) : char;
      if (length && used + piece.length > length) break;
      out += piece;
      used += piece.length;
      continue;
    }
    // A lead byte sets how many octets the character has; continuation bytes are only counted.
    if (pending.length === 0) octets = byte < 224 ? 2 : byte < 240 ? 3 : 4;
    pending.push(byte);
    if (length && used + octets * 3 > length) break;
    if (pending.length === octets) {
      for (const b of pending) out += `%${b.toString(16)}`;
      used += octets * 3;
      pending = [];
      octets = 1;
    }
  }
  return out;
}

/** PHP rawurlencode() of one ASCII character: letters, digits and `-_.~` stay, the rest is `%XX`. */
function rawUrlEncodeAscii(char: string): string {
  return /[A-Za-z0-9\-_.~]/.test(char) ? char : `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
}

/** WP: utf8_uri_encode() of a string (its UTF-8 bytes). */
function utf8UriEncode(input: string, length: number): string {
  return utf8UriEncodeBytes(Buffer.from(input, 'utf8'), length);
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

/** The operation a title is sanitized for: `save` also removes accents and more punctuation. */
export type TitleContext = 'save' | 'query' | 'display';

/**
 * WP: sanitize_title_with_dashes(): tags and stray `%` out, lower case, non-ASCII percent-encoded
 * (at most 200 characters of that), entities out, dots and white space as single hyphens, nothing
 * but `%a-z0-9_-` left. In the `save` context it first turns no-break spaces, dashes, `/` and wide
 * spaces into hyphens and drops quotes, marks and invisible characters. WordPress's default context
 * is `display`.
 */
export function sanitizeTitleWithDashes(input: string, context: TitleContext = 'display'): string {
  let title = phpStripTags(input);
  title = title.replace(/%([a-fA-F0-9][a-fA-F0-9])/g, '---$1---').replace(/%/g, '').replace(/---([a-fA-F0-9][a-fA-F0-9])---/g, '%$1');
  title = utf8UriEncode(title.toLowerCase(), 200).toLowerCase();
  if (context === 'save') {
    title = replaceAll(title, TO_HYPHEN, '-');
    title = replaceAll(title, ['&nbsp;', '&#160;', '&ndash;', '&#8211;', '&mdash;', '&#8212;', '/'], '-');
    title = replaceAll(title, STRIPPED, '');
    title = replaceAll(title, WIDE_SPACES, '-');
    title = title.split('%c3%97').join('x');
  }
  title = title.replace(/&.+?;/g, '').replace(/\./g, '-');
  title = title.replace(/[^%a-z0-9 _-]/g, '').replace(/\s+/g, '-').replace(/-+/g, '-');
  return phpTrim(title, '-');
}

/**
 * WP: sanitize_title() without a fallback: in the `save` context (its default) remove_accents()
 * first, then sanitize_title_with_dashes() in the same context.
 */
export function sanitizeTitle(input: string, context: TitleContext = 'save'): string {
  return sanitizeTitleWithDashes(context === 'save' ? removeAccents(input) : input, context);
}

/**
 * WP: sanitize_title_for_query(): a slug from a URL as WordPress looks it up (`name`, page paths):
 * sanitize_title() in the `query` context, so `Москва` finds the post saved as `%d0%bc…`.
 */
export function sanitizeTitleForQuery(input: string): string {
  return sanitizeTitle(input, 'query');
}

/**
 * WP: _truncate_post_slug() (post.php), as wp_unique_post_slug() makes room for a `-2` suffix: a slug
 * longer than `length` bytes is cut to at most that many; one holding percent-encoded octets is
 * decoded and encoded again so that no character is cut in the middle of its octets. Trailing
 * hyphens go.
 */
export function truncatePostSlug(slug: string, length = 200): string {
  let out = slug;
  const bytes = Buffer.from(slug, 'utf8');
  if (bytes.length > length) {
    const decoded = phpUrlDecode(slug);
    out = decoded.equals(bytes) ? bytes.subarray(0, length).toString('latin1') : utf8UriEncodeBytes(decoded, length, true);
  }
  return out.replace(/-+$/, '');
}

/** PHP urldecode() to bytes: `+` is a space and each `%xx` the octet it names. */
function phpUrlDecode(input: string): Buffer {
  const source = Buffer.from(input, 'utf8');
  const out: number[] = [];
  const isHex = (b: number | undefined) => b !== undefined && /[0-9a-fA-F]/.test(String.fromCharCode(b));
  for (let i = 0; i < source.length; i++) {
    const byte = source[i] as number;
    if (byte === 0x2b) out.push(0x20);
    else if (byte === 0x25 && isHex(source[i + 1]) && isHex(source[i + 2])) {
      out.push(parseInt(String.fromCharCode(source[i + 1] as number, source[i + 2] as number), 16));
      i += 2;
    } else out.push(byte);
  }
  return Buffer.from(out);
}
