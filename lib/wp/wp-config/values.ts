/**
 * PHP's scalar conversions (string conversion and truthiness) for wp-config values. Shared by the
 * evaluator, the parser and the site-config checks, and part of the public API.
 */
import { WpConfigValue } from './types';

/** PHP's string conversion, as `.` applies it. Floats use `precision=14` like PHP's echo. */
export function phpToString(v: WpConfigValue): string {
  if (typeof v === 'string') return v;
  if (v === true) return '1';
  if (v === false || v === null) return '';
  if (Number.isInteger(v) && Math.abs(v) < 1e15) return String(v);
  if (!Number.isFinite(v)) return Number.isNaN(v) ? 'NAN' : v > 0 ? 'INF' : '-INF';
  const rounded = Number(v.toPrecision(14));
  const [mantissa, expText] = rounded.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 15) {
    const m = mantissa.includes('.') ? mantissa : `${mantissa}.0`;
    return `${m}E${exp < 0 ? '-' : '+'}${Math.abs(exp)}`;
  }
  return String(rounded);
}

/** PHP truthiness of a scalar. */
export function phpTruthy(v: WpConfigValue): boolean {
  return !(v === false || v === null || v === 0 || v === '' || v === '0');
}
