/**
 * PHP's boolean cast, and a flag read from an option or postmeta as a plugin's PHP reads it
 * (`(bool) get_post_meta( $id, $key, true )`, `! empty( $settings['key'] )`).
 */
import { PhpArray, PhpFloat, PhpValue } from './values';
import { PlainValue } from './plain';

/**
 * PHP's `(bool)`: '', '0', 0, 0.0, null, false and empty arrays are false; everything else is true,
 * '0.0', ' ', 'false', 'off' and 'no' included. Takes PhpValues and their plain forms (toPlain()).
 */
export function phpTruthy(value: PhpValue | PlainValue | undefined): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value !== '' && value !== '0';
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return Number(value) !== 0;
  if (value instanceof PhpFloat) return value.value !== 0;
  if (Array.isArray(value)) return value.length > 0;
  if (value instanceof PhpArray) return value.size > 0;
  return true;
}

/**
 * A stored flag: `fallback` when there is none (no row, no key, or null), else PHP's boolean cast.
 * So '' (what update_post_meta() stores for `false`) and '0' are off, and any other string is on.
 */
export function phpFlag(value: PhpValue | PlainValue | undefined, fallback: boolean): boolean {
  return value === undefined || value === null ? fallback : phpTruthy(value);
}
