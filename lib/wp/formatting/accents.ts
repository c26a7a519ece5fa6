/**
 * remove_accents() for the en_US locale, used by sanitize_user() and sanitize_title().
 */

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
