/**
 * PHP's serialize()/unserialize() exactly as WordPress stores values in the database, plus
 * WordPress's is_serialized / maybe_serialize / maybe_unserialize rules (functions.php).
 *
 * How PHP values look in JS:
 * - `N;` → `null`, `b:` → boolean, `s:` → string (lengths on the wire are UTF-8 BYTES).
 * - `i:` → number; an int outside JS's safe range comes back as `bigint` so no digit is lost.
 * - `d:` → number, except a float with no fractional part (`d:1;`, `d:1.0E+25;`, `d:-0;`) comes
 *   back as a {@link PhpFloat}, because a plain integral number re-serializes as `i:`.
 * - `a:` → a JS array when its keys are exactly 0..n-1 in order (a PHP "list"), otherwise a
 *   {@link PhpArray} (an ordered map keeping key order and int/string key types).
 * - `O:` → {@link PhpObject}; `C:`, `E:`, `r:`/`R:` → {@link PhpCustomObject}, {@link PhpEnum},
 *   {@link PhpReference}, kept opaque so they round-trip.
 *
 * Round-trip: `serialize(unserialize(s)) === s` for everything PHP 7.1+'s serialize() writes.
 * Spellings PHP never writes (`i:+5;`, `d:1e3;`, `d:0.10000000000000001;` from PHP < 7.1,
 * an array key `s:1:"5";`) are normalized exactly as PHP itself normalizes them on re-save.
 *
 * Failure: {@link unserialize} returns `undefined` for malformed input (never throws);
 * {@link unserializeOrThrow} throws {@link PhpUnserializeError} with the offset instead.
 *
 * The modules: values, keys, floats, the unserialize reader, serialize, maybe_*, plain, truthy; and PHP's
 * json_encode() in ./json/.
 */

export type { PhpKey } from './keys';
export { demanglePropertyName, normalizeKey } from './keys';
export type { PhpValue } from './values';
export { PhpArray, PhpCustomObject, PhpEnum, PhpFloat, PhpObject, PhpReference } from './values';
export { phpFloatRepr, phpFloatToString } from './floats';
export { PhpUnserializeError } from './unserialize-error';
export type { UnserializeOptions } from './unserialize';
export { unserialize, unserializeOrThrow } from './unserialize';
export { serialize, utf8Length } from './serialize';
export { isSerialized, maybeSerialize, maybeUnserialize } from './maybe';
export type { PlainValue } from './plain';
export { phpEntries, phpGet, toPlain } from './plain';
export { phpFlag, phpTruthy } from './truthy';
