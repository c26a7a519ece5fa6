/**
 * PHP built-ins the WordPress sanitizers lean on (empty(), trim(), mb_strlen(), string `==`), as the
 * other formatting/ modules need them. A leaf: it imports nothing.
 */

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

/**
 * PCRE's `\s` as WordPress's patterns use it, without the `u` modifier: only the ASCII white space
 * (space, tab, line feed, vertical tab, form feed, carriage return). JavaScript's `\s` also takes
 * U+00A0, U+2028, U+FEFF and the other Unicode spaces, which PHP leaves alone.
 */
export const PCRE_SPACE = '[ \\t\\n\\v\\f\\r]';

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
