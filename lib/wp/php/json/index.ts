/**
 * WP: wp_json_encode() = PHP's json_encode() with flags 0 (serialize_precision -1), and the
 * json_last_error() code a body gets from json_decode() when WP_REST_Request::parse_json_params()
 * refuses it (`rest_invalid_json`).
 *
 * Encoding, as PHP writes it:
 * - strings: `"` `\` and `/` are escaped (`\/`); \b \f \n \r \t; other bytes below 0x20 as `\u00xx`;
 *   every UTF-16 unit at or above 0x80 as `\uxxxx` (lowercase hex, so astral characters become a
 *   surrogate pair). `<`, `>`, `&`, `'` and DEL stay as they are.
 * - numbers: an integer-valued number below 2^63 is printed as a PHP int; anything else as a PHP float
 *   in its shortest round-trip form: `0.1`, `1.5`, `0.0001`, `1.0e-5`, `1.0e+20` (exponent form when
 *   the decimal exponent is below -4 or above 16; `.0` is added to a one-digit mantissa; no `+0` padding).
 *   JavaScript cannot tell 1.0 from 1, so a PHP float 1.0 and PHP int 1 both come out as `1`, which is
 *   also what PHP prints for 1.0 without JSON_PRESERVE_ZERO_FRACTION.
 * - arrays are lists; a plain object is a PHP stdClass / associative array (`{}` when empty);
 *   `undefined`, functions and symbols are left out of objects and become `null` inside arrays.
 * - a `Map` is a PHP array: empty → `[]`, keys exactly 0..n-1 in order → a list, else an object in
 *   insertion order. Use it where PHP would print `[]` for an empty associative array.
 * - an object with `toJSON()` (Date, …) is encoded as what that returns, like JsonSerializable.
 * - PHP refuses NaN/INF and nesting deeper than 512: {@link PhpJsonEncodeError} with PHP's code and message.
 *
 * The modules: errors.ts (codes, depth, the encode error), string.ts, numbers.ts, encode.ts, and for
 * bodies decode-errors.ts with scanner.ts and bytes.ts.
 */
export { PHP_JSON_DEPTH, PHP_JSON_ERRORS, PhpJsonEncodeError } from './errors';
export type { PhpJsonErrorCode } from './errors';
export { phpJsonString } from './string';
export { phpFloat, phpJsonNumber } from './numbers';
export { PhpJsonEncoded, phpJsonEncode } from './encode';
export type { PhpJsonEncodeOptions } from './encode';
export { jsonErrorForBody } from './decode-errors';
export type { PhpJsonDecodeError } from './decode-errors';
