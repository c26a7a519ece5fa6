/**
 * PHP JSON: numbers as PHP prints them: json_encode()'s int or float, and php_gcvt()'s float layout
 * (also used for PHP's string cast of a float).
 */
import { PhpJsonEncodeError } from './errors';

const INT64_LIMIT = 2 ** 63;

/** A number as json_encode() prints it (see the file comment of ../php-json.ts for int versus float). */
export function phpJsonNumber(n: number): string {
  if (!Number.isFinite(n)) throw new PhpJsonEncodeError(7);
  if (Number.isInteger(n) && Math.abs(n) < INT64_LIMIT) return BigInt(n).toString();
  return phpFloat(n, 'e');
}

/**
 * PHP's php_gcvt() layout for the shortest digits of `n`: exponent form when the decimal point would
 * sit more than `ndigit` places right or more than 3 zeros left of the first digit. json_encode()
 * (serialize_precision -1) uses 17 and `e`; a string cast uses precision 14 and `E` (round the digits
 * to 14 first).
 */
export function phpFloat(n: number, expChar: 'e' | 'E', ndigit = 17): string {
  const sign = n < 0 || Object.is(n, -0) ? '-' : '';
  const [mantissa, exp] = Math.abs(n).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const e = Number(exp);
  const decpt = e + 1;
  if (decpt < -3 || decpt > ndigit) {
    const rest = digits.slice(1) || '0';
    return `${sign}${digits[0]}.${rest}${expChar}${e < 0 ? '-' : '+'}${Math.abs(e)}`;
  }
  if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
  if (digits.length <= decpt) return sign + digits + '0'.repeat(decpt - digits.length);
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
}
