/**
 * MySQL literal values as mysqldump writes them: the string-literal escapes, and the conversion of
 * unquoted numbers and quoted-string bodies to values. Shared by the fast path and the general parser.
 */
import { DumpValue } from './types';

/** MySQL string-literal escapes. `\%` and `\_` keep their backslash (MySQL does that outside LIKE). */
export const ESCAPES: Record<string, string> = {
  '0': '\0',
  "'": "'",
  '"': '"',
  b: '\b',
  n: '\n',
  r: '\r',
  t: '\t',
  Z: '\x1a',
  '\\': '\\',
  '%': '\\%',
  _: '\\_',
};

/** An unquoted numeric literal; an integer JS cannot hold exactly (e.g. BIGINT UNSIGNED max) stays a string of its digits. */
export function numberValue(text: string): DumpValue {
  const value = Number(text);
  if (Number.isSafeInteger(value)) return value === 0 ? 0 : value; // no -0
  if (/[.eE]/.test(text)) return value;
  return text.replace(/^\+/, '');
}

/** Decodes backslash escapes and doubled quotes in the body of a '...' literal. */
export function decodeQuoted(body: string): string {
  return body.replace(/\\([\s\S])|''/g, (_match, escaped: string | undefined) => (escaped === undefined ? "'" : (ESCAPES[escaped] ?? escaped)));
}
