/**
 * kses: wp_kses() with the allowed-tag lists WordPress uses for "data" fields and user descriptions.
 * Attribute parsing is in attributes.ts and the protocol check in protocols.ts.
 */

import { parseAttributes } from './attributes';
import { normalizeEntities } from './entities';
import { ALLOWED_PROTOCOLS, ksesNoNull } from './protocols';
import { preKsesLessThan } from './tags';

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
  const m = /^<[ \t\n\v\f\r]*(\/[ \t\n\v\f\r]*)?([a-zA-Z0-9-]+)([^>]*)>?$/.exec(piece);
  if (!m) return '';
  const [, slash = '', element = '', attrList = ''] = m;
  const attrs = allowed[element.toLowerCase()];
  if (attrs === undefined) return '';
  if (slash.trim() !== '') return `</${element}>`;
  const xhtmlSlash = /[ \t\n\v\f\r]*\/[ \t\n\v\f\r]*$/.test(attrList) ? ' /' : '';
  if (attrs.length === 0) return `<${element}${xhtmlSlash}>`;
  let kept = '';
  for (const attr of parseAttributes(attrList, protocols)) {
    if (attrs.includes(attr.name.toLowerCase())) kept += ` ${attr.whole}`;
  }
  kept = kept.replace(/[<>]/g, '');
  return `<${element}${kept}${xhtmlSlash}>`;
}
