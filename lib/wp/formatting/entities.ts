/**
 * HTML entities and escaping: kses's entity normalization, esc_html(), the save-time
 * _wp_specialchars(), and the numeric-entity decoding the protocol check uses.
 */

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
export function decodeNumericEntities(input: string): string {
  return input
    .replace(/&#(0*[0-9]{1,7});/g, (_m, d: string) => safeFromCodePoint(Number(d)))
    .replace(/&#[Xx](0*[0-9A-Fa-f]{1,6});/g, (_m, h: string) => safeFromCodePoint(parseInt(h, 16)));
}

function safeFromCodePoint(code: number): string {
  return code <= 0x10ffff ? String.fromCodePoint(code) : '';
}
