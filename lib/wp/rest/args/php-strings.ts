/**
 * Route args: PHP's ways of turning values into text, shared by coercion (a scalar split into a
 * list) and by the WordPress messages (numbers, lists, enum values): is a value a PHP scalar, its
 * string conversion, wp_sprintf()'s %l, sprintf('%d') and number_format_i18n().
 */
import { phpFloat } from '../../php/json';

export function isScalar(v: unknown): v is string | number | boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

/** wp_sprintf()'s %l: `a`, `a and b`, `a, b, and c`. */
export function phpList(items: readonly string[]): string {
  if (items.length <= 2) return items.join(' and ');
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`;
}

/** PHP's string conversion of a scalar: true → '1', false → '', floats with precision 14. */
export function phpScalarString(v: string | number | boolean): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? '1' : '';
  if (Number.isInteger(v) && Math.abs(v) < 2 ** 63) return BigInt(v).toString();
  if (!Number.isFinite(v)) return Number.isNaN(v) ? 'NAN' : v > 0 ? 'INF' : '-INF';
  return phpFloat(Number(v.toPrecision(14)), 'E', 14);
}

/** sprintf('%d', $n): the integer part. */
export function phpIntString(n: number): string {
  return Number.isFinite(n) ? BigInt(Math.trunc(n)).toString() : '0';
}

/** number_format_i18n() in en_US: rounded, thousands separated by commas. */
export function numberFormat(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
