/**
 * WP: the text sanitizers WordPress runs on values it saves (formatting.php and kses.php), for the
 * fields a user profile holds: sanitize_text_field(), the kses filter with the small "data" tag list,
 * esc_url_raw(), sanitize_email(), sanitize_user(), sanitize_title() and the escaping that goes with
 * them. Each function reproduces what WordPress produces for ordinary input; where PHP's behaviour is
 * intricate (strip_tags()'s tag scanner, remove_accents()'s tables) the approximation is said.
 *
 * PHP works on bytes and these work on UTF-16 strings; for valid UTF-8 input that differs only where
 * a length is measured, and those places count code points as mb_strlen() does.
 */

// ---------------------------------------------------------------------------------------------
// PHP helpers
// ---------------------------------------------------------------------------------------------

/** PHP empty(): null/undefined, false, 0, '', '0' and empty arrays. */
export function phpEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '' || value === '0') return true;
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

/** PHP trim() with its default list (space, \t, \n, \r, NUL, vertical tab), or the given characters. */
export function phpTrim(value: string, chars = ' \t\n\r\0\x0B'): string {
  let start = 0;
  let end = value.length;
  while (start < end && chars.includes(value[start] as string)) start++;
  while (end > start && chars.includes(value[end - 1] as string)) end--;
  return value.slice(start, end);
}

/** mb_strlen(): the number of code points. */
export function mbStrlen(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}

/** PHP 8 is_numeric() for strings (surrounding whitespace allowed). */
function isNumericString(value: string): boolean {
  return /^[ \t\n\r\v\f]*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?[ \t\n\r\v\f]*$/.test(value);
}

/** PHP 8 `==` between two strings: numerically when both are numeric, else byte for byte. */
export function phpLooseEqualStrings(a: string, b: string): boolean {
  if (isNumericString(a) && isNumericString(b)) return Number(a) === Number(b);
  return a === b;
}

// ---------------------------------------------------------------------------------------------
// Tags
// ---------------------------------------------------------------------------------------------

/**
 * PHP strip_tags() with no allowed tags, approximately: a `<` followed by a non-space character opens
 * a tag that runs to the next `>` outside quotes (nested `<` deepen it); comments run to `-->`; an
 * unclosed tag swallows the rest. A `<` followed by whitespace is text.
 */
export function phpStripTags(input: string): string {
  let out = '';
  let i = 0;
  while (i < input.length) {
    const ch = input[i] as string;
    if (ch !== '<' || i + 1 >= input.length || /\s/.test(input[i + 1] as string)) {
      if (!(ch === '<' && i + 1 >= input.length)) out += ch;
      i++;
      continue;
    }
    if (input.startsWith('<!--', i)) {
      const close = input.indexOf('-->', i + 4);
      i = close < 0 ? input.length : close + 3;
      continue;
    }
    let depth = 1;
    let quote = '';
    i++;
    while (i < input.length && depth > 0) {
      const c = input[i] as string;
      if (quote) {
        if (c === quote) quote = '';
      } else if (c === '"' || c === "'") {
        quote = c;
      } else if (c === '<') {
        depth++;
      } else if (c === '>') {
        depth--;
      }
      i++;
    }
  }
  return out;
}

/** WP: wp_strip_all_tags(): script and style elements with their content, then every tag; trimmed. */
export function stripAllTags(input: string, removeBreaks = false): string {
  let text = input.replace(/<(script|style)[^>]*?>[\s\S]*?<\/\1>/gi, '');
  text = phpStripTags(text);
  if (removeBreaks) text = text.replace(/[\r\n\t ]+/g, ' ');
  return phpTrim(text);
}

/** WP: wp_pre_kses_less_than(): a `<` that never reaches a `>` (before the next `<`) is escaped. */
export function preKsesLessThan(input: string): string {
  return input.replace(/<[^>]*?(?:(?=<)|>|$)/g, (piece) => (piece.includes('>') ? piece : escHtml(piece)));
}

/** WP: sanitize_text_field(): no tags, no line breaks or runs of whitespace, no percent-encoded octets. */
export function sanitizeTextField(value: unknown): string {
  if (value !== null && typeof value === 'object') return '';
  let text = value === undefined || value === null ? '' : value === true ? '1' : value === false ? '' : String(value);
  if (text.includes('<')) {
    text = preKsesLessThan(text);
    text = stripAllTags(text);
    text = text.replace(/<\n/g, '&lt;\n');
  }
  text = phpTrim(text.replace(/[\r\n\t ]+/g, ' '));
  let found = false;
  for (let m = /%[a-f0-9]{2}/i.exec(text); m; m = /%[a-f0-9]{2}/i.exec(text)) {
    text = text.split(m[0]).join('');
    found = true;
  }
  if (found) text = phpTrim(text.replace(/ +/g, ' '));
  return text;
}

// ---------------------------------------------------------------------------------------------
// Entities and escaping
// ---------------------------------------------------------------------------------------------

/** The named entities kses keeps: HTML 4's set plus `apos`. */
const ENTITY_NAMES = new Set((
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute ' +
  'micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig ' +
  'Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash ' +
  'Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc ' +
  'euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml ' +
  'yacute thorn yuml quot amp lt gt apos OElig oelig Scaron scaron Yuml circ tilde ensp emsp thinsp zwnj zwj lrm rlm ' +
  'ndash mdash lsquo rsquo sbquo ldquo rdquo bdquo dagger Dagger permil lsaquo rsaquo euro fnof Alpha Beta Gamma ' +
  'Delta Epsilon Zeta Eta Theta Iota Kappa Lambda Mu Nu Xi Omicron Pi Rho Sigma Tau Upsilon Phi Chi Psi Omega alpha ' +
  'beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigmaf sigma tau upsilon phi chi ' +
  'psi omega thetasym upsih piv bull hellip prime Prime oline frasl weierp image real trade alefsym larr uarr rarr ' +
  'darr harr crarr lArr uArr rArr dArr hArr forall part exist empty nabla isin notin ni prod sum minus lowast radic ' +
  'prop infin ang and or cap cup int sim cong asymp ne equiv le ge sub sup nsub sube supe oplus otimes perp sdot ' +
  'lceil rceil lfloor rfloor lang rang loz spades clubs hearts diams there4'
).split(' '));

function validUnicode(code: number): boolean {
  return code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff);
}

/**
 * WP: wp_kses_normalize_entities(): every `&` becomes `&amp;` unless it starts a known named entity or
 * a valid numeric one; numeric entities are rewritten in a canonical form.
 */
export function normalizeEntities(input: string): string {
  let text = input.replace(/&/g, '&amp;');
  text = text.replace(/&amp;([A-Za-z]{2,8}[0-9]{0,2});/g, (_m, name: string) => (ENTITY_NAMES.has(name) ? `&${name};` : `&amp;${name};`));
  text = text.replace(/&amp;#(0*[0-9]{1,7});/g, (_m, digits: string) => {
    if (digits === '0') return '';
    if (!validUnicode(Number(digits))) return `&amp;#${digits};`;
    return `&#${(digits.replace(/^0+/, '') || '').padStart(3, '0')};`;
  });
  text = text.replace(/&amp;#[Xx](0*[0-9A-Fa-f]{1,6});/g, (_m, hex: string) => {
    if (hex === '0') return '';
    return validUnicode(parseInt(hex, 16)) ? `&#x${hex.replace(/^0+/, '')};` : `&amp;#x${hex};`;
  });
  return text;
}

/** WP: esc_html(): entities normalized, then `<`, `>`, `"` and `'` escaped. */
export function escHtml(input: string): string {
  if (!/[&<>"']/.test(input)) return input;
  return normalizeEntities(input).replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#039;');
}

/** WP: _wp_specialchars() as the save filters call it (no quotes, existing entities kept). */
export function specialCharsNoQuotes(input: string): string {
  if (!/[&<>"']/.test(input)) return input;
  return normalizeEntities(input).replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** WP: wp_kses_decode_entities(): numeric entities only. */
function decodeNumericEntities(input: string): string {
  return input
    .replace(/&#(0*[0-9]{1,7});/g, (_m, d: string) => safeFromCodePoint(Number(d)))
    .replace(/&#[Xx](0*[0-9A-Fa-f]{1,6});/g, (_m, h: string) => safeFromCodePoint(parseInt(h, 16)));
}

function safeFromCodePoint(code: number): string {
  return code <= 0x10ffff ? String.fromCodePoint(code) : '';
}

// ---------------------------------------------------------------------------------------------
// kses
// ---------------------------------------------------------------------------------------------

/** Allowed elements (lower case) and, for each, its allowed attributes (lower case); an empty list allows none. */
export type AllowedHtml = Readonly<Record<string, readonly string[]>>;

/** WP: $allowedtags, the tags kses keeps in "data" contexts (names, emails, URLs, terms). */
export const KSES_DATA_TAGS: AllowedHtml = {
  a: ['href', 'title'],
  abbr: ['title'],
  acronym: ['title'],
  b: [],
  blockquote: ['cite'],
  cite: [],
  code: [],
  del: ['datetime'],
  em: [],
  i: [],
  q: ['cite'],
  s: [],
  strike: [],
  strong: [],
};

/** WP: wp_kses_allowed_html('pre_user_description'): the data tags, and `rel` on links. */
export const KSES_USER_DESCRIPTION_TAGS: AllowedHtml = { ...KSES_DATA_TAGS, a: ['href', 'title', 'rel'] };

/** WP: wp_allowed_protocols(). */
export const ALLOWED_PROTOCOLS: readonly string[] = [
  'http', 'https', 'ftp', 'ftps', 'mailto', 'news', 'irc', 'irc6', 'ircs', 'gopher', 'nntp', 'feed', 'telnet', 'mms',
  'rtsp', 'sms', 'svn', 'tel', 'fax', 'xmpp', 'webcal', 'urn',
];

/** WP: wp_kses_uri_attributes(): attributes whose values are URLs and get their protocol checked. */
const URI_ATTRIBUTES = new Set([
  'action', 'archive', 'background', 'cite', 'classid', 'codebase', 'data', 'formaction', 'href', 'icon', 'longdesc',
  'manifest', 'poster', 'profile', 'src', 'usemap', 'xmlns',
]);

/** WP: wp_kses_no_null(): control characters out; `\0`-style escapes too unless kept. */
function ksesNoNull(input: string, removeSlashZero = true): string {
  const text = input.replace(/[\x00-\x08\x0B\x0C\x0E-\x1F]/g, '');
  return removeSlashZero ? text.replace(/\\+0+/g, '') : text;
}

/**
 * WP: wp_kses(): only the allowed elements and attributes survive; every other tag is removed (its
 * text stays), a stray `>` is escaped, entities are normalized and URL attributes keep only allowed
 * protocols.
 */
export function kses(input: string, allowed: AllowedHtml, protocols: readonly string[] = ALLOWED_PROTOCOLS): string {
  let text = ksesNoNull(input, false);
  text = normalizeEntities(text);
  text = preKsesLessThan(text);
  return text.replace(/(<!--.*?(?:-->|$))|(<[^>]*(?:>|$)|>)/g, (piece) => ksesPiece(piece, allowed, protocols));
}

/** WP: wp_kses_split2(): one tag, comment or stray `>` as kses rewrites it. */
function ksesPiece(raw: string, allowed: AllowedHtml, protocols: readonly string[]): string {
  let piece = raw.replace(/\\"/g, '"');
  if (!piece.startsWith('<')) return '&gt;';
  if (piece.startsWith('<!--')) {
    piece = piece.split('<!--').join('').split('-->').join('');
    for (let next = kses(piece, allowed, protocols); next !== piece; next = kses(piece, allowed, protocols)) piece = next;
    if (piece === '') return '';
    piece = piece.replace(/--+/g, '-').replace(/-$/, '');
    return `<!--${piece}-->`;
  }
  const m = /^<\s*(\/\s*)?([a-zA-Z0-9-]+)([^>]*)>?$/.exec(piece);
  if (!m) return '';
  const [, slash = '', element = '', attrList = ''] = m;
  const attrs = allowed[element.toLowerCase()];
  if (attrs === undefined) return '';
  if (slash.trim() !== '') return `</${element}>`;
  const xhtmlSlash = /\s*\/\s*$/.test(attrList) ? ' /' : '';
  if (attrs.length === 0) return `<${element}${xhtmlSlash}>`;
  let kept = '';
  for (const attr of parseAttributes(attrList, protocols)) {
    if (attrs.includes(attr.name.toLowerCase())) kept += ` ${attr.whole}`;
  }
  kept = kept.replace(/[<>]/g, '');
  return `<${element}${kept}${xhtmlSlash}>`;
}

interface ParsedAttribute {
  name: string;
  whole: string;
}

/** WP: wp_kses_hair(): the attributes of a tag, the first of each name winning; garbage is skipped. */
function parseAttributes(input: string, protocols: readonly string[]): ParsedAttribute[] {
  const found = new Map<string, ParsedAttribute>();
  const add = (name: string, whole: string) => {
    if (!found.has(name)) found.set(name, { name, whole });
  };
  const value = (name: string, v: string) => (URI_ATTRIBUTES.has(name.toLowerCase()) ? ksesBadProtocol(v, protocols) : v);
  let rest = input;
  let mode = 0;
  let name = '';
  while (rest.length > 0) {
    let m: RegExpExecArray | null = null;
    let worked = false;
    if (mode === 0) {
      m = /^[_a-zA-Z][-_a-zA-Z0-9:.]*/.exec(rest);
      if (m) {
        name = m[0];
        rest = rest.slice(m[0].length);
        mode = 1;
        worked = true;
      }
    } else if (mode === 1) {
      if ((m = /^\s*=\s*/.exec(rest))) {
        rest = rest.slice(m[0].length);
        mode = 2;
        worked = true;
      } else if ((m = /^\s+/.exec(rest))) {
        add(name, name);
        rest = rest.slice(m[0].length);
        mode = 0;
        worked = true;
      }
    } else if ((m = /^"([^"]*)"(\s+|\/?$)/.exec(rest))) {
      add(name, `${name}="${value(name, m[1] as string)}"`);
      rest = rest.replace(/^"[^"]*"(\s+|$)/, '');
      mode = 0;
      worked = true;
    } else if ((m = /^'([^']*)'(\s+|\/?$)/.exec(rest))) {
      add(name, `${name}='${value(name, m[1] as string)}'`);
      rest = rest.replace(/^'[^']*'(\s+|$)/, '');
      mode = 0;
      worked = true;
    } else if ((m = /^([^\s"']+)(\s+|\/?$)/.exec(rest))) {
      add(name, `${name}="${value(name, m[1] as string)}"`);
      rest = rest.replace(/^[^\s"']+(\s+|$)/, '');
      mode = 0;
      worked = true;
    }
    if (!worked) {
      // WP: wp_kses_html_error(): drop the malformed run and start over.
      const skipped = rest.replace(/^("[^"]*("|$)|'[^']*('|$)|\S)*\s*/, '');
      rest = skipped.length < rest.length ? skipped : rest.slice(1);
      mode = 0;
    }
  }
  if (mode === 1) add(name, name);
  return [...found.values()];
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
  const scheme = ksesNoNull(decodeNumericEntities(before).replace(/\s/g, '')).toLowerCase();
  const protocol = protocols.some((p) => p.toLowerCase() === scheme) ? `${scheme}:` : '';
  if (protocol === 'feed:') {
    if (count > 2) return '';
    after = badProtocolOnce(after, protocols, count + 1);
    if (phpEmpty(after)) return after;
  }
  return protocol + after;
}

// ---------------------------------------------------------------------------------------------
// URLs, emails, usernames, slugs
// ---------------------------------------------------------------------------------------------

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

/** WP: sanitize_user(): tags, accents, octets and entities out; with `strict`, only `a-z0-9 _.-@`. */
export function sanitizeUser(input: string, strict = false): string {
  let name = stripAllTags(input);
  name = removeAccents(name);
  name = name.replace(/%([a-fA-F0-9][a-fA-F0-9])/g, '');
  name = name.replace(/&.+?;/g, '');
  if (strict) name = name.replace(/[^a-z0-9 _.\-@]/gi, '');
  name = phpTrim(name);
  return name.replace(/\s+/g, ' ');
}

/** WP: validate_username(): sanitizing it strictly would not change it, and it is not empty. */
export function isValidUsername(username: string): boolean {
  const sanitized = sanitizeUser(username, true);
  return phpLooseEqualStrings(sanitized, username) && !phpEmpty(sanitized);
}

/** Letters remove_accents() spells out in more than a base letter. */
const SPELLED_OUT: Readonly<Record<string, string>> = {
  'ª': 'a', 'º': 'o', 'Æ': 'AE', 'æ': 'ae', 'Ð': 'D', 'ð': 'd', 'Ø': 'O', 'ø': 'o', 'Þ': 'TH', 'þ': 'th', 'ß': 's',
  'Đ': 'D', 'đ': 'd', 'Ħ': 'H', 'ħ': 'h', 'ı': 'i', 'Ĳ': 'IJ', 'ĳ': 'ij', 'ĸ': 'k', 'Ŀ': 'L', 'ŀ': 'l', 'Ł': 'L',
  'ł': 'l', 'ŉ': 'N', 'Ŋ': 'N', 'ŋ': 'n', 'Œ': 'OE', 'œ': 'oe', 'Ŧ': 'T', 'ŧ': 't', 'ſ': 's', '€': 'E', '£': '',
};

/**
 * WP: remove_accents() for the en_US locale, approximately: Latin letters with diacritics become their
 * base letter, a few letters are spelled out; other scripts are left alone.
 */
export function removeAccents(input: string): string {
  if (!/[\u0080-\u{10FFFF}]/u.test(input)) return input;
  let out = '';
  for (const ch of input) {
    const spelled = SPELLED_OUT[ch];
    if (spelled !== undefined) {
      out += spelled;
      continue;
    }
    const decomposed = ch.normalize('NFD');
    out += /^[A-Za-z][\u0300-\u036f]+$/.test(decomposed) ? (decomposed[0] as string) : ch;
  }
  return out;
}

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
 * WP: sanitize_title() in the `save` context (remove_accents(), then sanitize_title_with_dashes()):
 * lower case, non-ASCII percent-encoded, punctuation out, spaces and dots as single hyphens.
 */
export function sanitizeTitle(input: string): string {
  let title = phpStripTags(removeAccents(input));
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
