/**
 * WordPress's is_serialized / maybe_serialize / maybe_unserialize rules (functions.php), on top of
 * serialize.ts and unserialize.ts; nothing below imports this module.
 */

import { phpTrim } from '../formatting/php';
import { phpFloatToString } from './floats';
import { intString, isPhpInt } from './keys';
import { serialize } from './serialize';
import { unserialize } from './unserialize';
import { PhpFloat, type PhpValue } from './values';

/**
 * WordPress's is_serialized(): a cheap shape check, not a parse. Strict mode (the default, used by
 * maybe_unserialize) requires the value to end in `;` or `}`; loose mode (used by maybe_serialize)
 * only requires one of them somewhere past the start.
 */
export function isSerialized(data: unknown, strict = true): boolean {
  if (typeof data !== 'string') return false;
  const text = phpTrim(data);
  if (text === 'N;') return true;
  // PHP counts bytes here and we count UTF-16 units. Every branch that can return true needs the first
  // four characters to be ASCII, and then the two counts agree, so the outcome is the same.
  if (text.length < 4) return false;
  if (text[1] !== ':') return false;
  if (strict) {
    const last = text[text.length - 1];
    if (last !== ';' && last !== '}') return false;
  } else {
    const semicolon = text.indexOf(';');
    const brace = text.indexOf('}');
    if (semicolon === -1 && brace === -1) return false;
    if (semicolon !== -1 && semicolon < 3) return false;
    if (brace !== -1 && brace < 4) return false;
  }
  const token = text[0];
  // A string must also have its closing quote (strict) or some quote (loose), then the `s:<digits>:` shape.
  if (token === 's' && (strict ? text[text.length - 2] !== '"' : !text.includes('"'))) return false;
  switch (token) {
    case 's':
    case 'a':
    case 'O':
    case 'E':
      return /^.:[0-9]+:/.test(text);
    case 'b':
    case 'i':
    case 'd':
      return (strict ? /^.:[0-9.E+-]+;$/ : /^.:[0-9.E+-]+;/).test(text);
    default:
      return false;
  }
}

/**
 * WordPress's maybe_serialize() followed by the string conversion the database write does: arrays and
 * objects are serialized, a string that already looks serialized (loose check) is serialized again,
 * and other scalars become PHP strings (true → "1", false/null → "", 1.5 → "1.5").
 */
export function maybeSerialize(value: unknown): string {
  if (typeof value === 'string') return isSerialized(value, false) ? serialize(value) : value;
  if (value === true) return '1';
  if (value === false || value === null || value === undefined) return '';
  if (typeof value === 'number') return isPhpInt(value) ? intString(value) : phpFloatToString(value);
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof PhpFloat) return phpFloatToString(value.value);
  return serialize(value);
}

/**
 * WordPress's maybe_unserialize(): unserializes only what passes the strict is_serialized check,
 * after trimming; a value that looks serialized but does not parse yields `false`, as PHP's
 * `@unserialize()` does. Anything else comes back unchanged.
 */
export function maybeUnserialize<T>(data: T): PhpValue | T {
  if (typeof data !== 'string' || !isSerialized(data)) return data;
  const value = unserialize(phpTrim(data), { allowTrailingData: true });
  return value === undefined ? false : value;
}
