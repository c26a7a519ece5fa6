/**
 * A doc's searchable text: what a reader sees of `post_content`, never its markup. HTML tags, comments
 * (block delimiters `<!-- wp:… -->` included), script and style elements and shortcode tags (`[note
 * type="tip"]`, `[/note]`) go; the text between a shortcode's tags stays, because it is what the page
 * shows; entities are decoded. The result is plain text, to be escaped by whoever shows it.
 */
import { stripAllTags } from '../../wp/formatting';
import { decodeNumericEntities } from '../../wp/formatting/entities';

/** A shortcode's opening or closing tag; `[[tag]]` (WordPress's escaped form) is left as text. */
const SHORTCODE_TAG = /(?<!\[)\[\/?[A-Za-z][\w-]*(?:\s[^\]]*)?\/?\](?!\])/g;

/** HTML 4's Latin-1 entity names, for code points 160 to 255 in order. */
const LATIN1_NAMES = (
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute ' +
  'micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig ' +
  'Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash ' +
  'Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc ' +
  'euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml ' +
  'yacute thorn yuml'
).split(' ');

/** The named entities WordPress's editors write (kses keeps them): the basics, Latin-1 and punctuation. */
const NAMED_ENTITIES: ReadonlyMap<string, string> = new Map([
  ['amp', '&'], ['lt', '<'], ['gt', '>'], ['quot', '"'], ['apos', "'"],
  ...LATIN1_NAMES.map((name, i): [string, string] => [name, String.fromCodePoint(160 + i)]),
  ['ndash', '–'], ['mdash', '—'], ['lsquo', '‘'], ['rsquo', '’'], ['sbquo', '‚'], ['ldquo', '“'], ['rdquo', '”'],
  ['bdquo', '„'], ['hellip', '…'], ['bull', '•'], ['trade', '™'], ['euro', '€'], ['larr', '←'], ['rarr', '→'],
  ['uarr', '↑'], ['darr', '↓'], ['harr', '↔'], ['OElig', 'Œ'], ['oelig', 'œ'], ['Scaron', 'Š'], ['scaron', 'š'],
  ['Yuml', 'Ÿ'], ['dagger', '†'], ['Dagger', '‡'], ['permil', '‰'], ['prime', '′'], ['minus', '−'], ['ensp', ' '],
  ['emsp', ' '], ['thinsp', ' '], ['zwnj', ''], ['zwj', ''], ['lrm', ''], ['rlm', ''],
]);

/** WP: html_entity_decode($text, ENT_QUOTES): numeric entities and the named ones above; unknown names stay. */
export function decodeEntities(text: string): string {
  return decodeNumericEntities(text).replace(/&([A-Za-z][A-Za-z0-9]{1,7});/g, (whole, name: string) => NAMED_ENTITIES.get(name) ?? whole);
}

/** The text a reader sees of a post's content (or excerpt, or title): no tags, shortcodes or entities, whitespace collapsed. */
export function plainText(html: string): string {
  const withoutTags = stripAllTags(html.replace(/<\/(p|div|li|h[1-6]|tr|td|th|pre|blockquote)>|<br\s*\/?>/gi, '$& '));
  return decodeEntities(withoutTags.replace(SHORTCODE_TAG, ' ')).replace(/\s+/g, ' ').trim();
}

/** Words an excerpt keeps when the doc has none of its own (WP: excerpt_length). */
export const EXCERPT_WORDS = 55;

/** WP: wp_trim_words() on plain text: the first `words` words, then `…` when there were more. */
export function trimWords(text: string, words = EXCERPT_WORDS): string {
  const { length, cut } = firstWords(text, words);
  return cut ? `${text.slice(0, length)}…` : text.slice(0, length);
}

/** Where the first `words` words of plain text (plainText(): words one space apart) end, and whether more follow. */
function firstWords(text: string, words = EXCERPT_WORDS): { length: number; cut: boolean } {
  let space = -1;
  for (let n = 0; n < words; n++) {
    space = text.indexOf(' ', space + 1);
    if (space < 0) return { length: text.length, cut: false };
  }
  return { length: space, cut: true };
}

/**
 * Text as search compares it: lowercase, accents folded (`Café` → `cafe`), every run of characters
 * that are not letters or digits one space, with a space at each end so that a phrase is found as
 * ` reset your password ` and never inside a longer word.
 */
export function foldForMatching(text: string): string {
  return ` ${foldTerm(text).replace(/[^\p{L}\p{N}]+/gu, ' ').trim()} `;
}

/** Words of a text, for the index and for queries alike: runs of letters, digits and combining marks. */
export function tokenizeText(text: string): string[] {
  return text.split(/[^\p{L}\p{N}\p{M}]+/u).filter(Boolean);
}

/**
 * A word as the index keeps it and a query looks for it: folded, and an English plural made singular
 * (`invoices` → `invoice`, `policies` → `policy`; not `status`, `access`, `analysis`), so that either
 * form finds the other.
 */
export function searchTerm(word: string): string {
  const term = foldTerm(word);
  if (term.length > 4 && term.endsWith('ies')) return `${term.slice(0, -3)}y`;
  if (term.length > 3 && term.endsWith('s') && !/(ss|us|is)$/.test(term)) return term.slice(0, -1);
  return term;
}

/** Lowercase without diacritics: how both the index and the queries spell a term. */
export function foldTerm(term: string): string {
  return term.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}
