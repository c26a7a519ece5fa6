/**
 * Route args: the `format` checks, as WordPress does them (date-time, email, ip, uuid, hex-color).
 * Registered with ajv by ajv-schema.ts and used directly by forms and the user presenter.
 * PCRE's `$` also matches before a final "\n"; so do these.
 */
import { isIPv6 } from 'node:net';
import { phpTrim } from './php';

/** WP: rest_parse_date() !== false: the RFC 3339-ish shape, and a date strtotime() accepts. */
export function isRestDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-](\d{2})(?::(\d{2}))?)?\n?$/.exec(s);
  if (!m) return false;
  const [, , month, day, hour, minute, second, tzHour, tzMinute] = m.map(Number);
  return month >= 1 && month <= 12 && day <= 31 && hour <= 24 && minute <= 59 && second <= 60 && !(tzHour > 24) && !(tzMinute > 59);
}

/** WP: is_email(). */
export function isEmail(s: string): boolean {
  if (Buffer.byteLength(s) < 6) return false;
  const at = s.indexOf('@', 1);
  if (at < 0) return false;
  const local = s.slice(0, at);
  const domain = s.slice(at + 1);
  if (!/^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~.-]+\n?$/.test(local)) return false;
  if (/\.{2,}/.test(domain)) return false;
  if (phpTrim(domain, ' \t\n\r\0\x0B.') !== domain) return false;
  const subs = domain.split('.');
  if (subs.length < 2) return false;
  return subs.every((sub) => phpTrim(sub, ' \t\n\r\0\x0B-') === sub && /^[a-z0-9-]+\n?$/i.test(sub));
}

/** WP: rest_is_ip_address(): dotted IPv4 (leading zeros allowed) or IPv6. */
export function isIpAddress(s: string): boolean {
  return IPV4.test(s) || isIPv6(s);
}

const IPV4 = /^(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\n?$/;

/** WP: wp_is_uuid() (any version, lowercase hex only). */
export function isUuid(s: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\n?$/.test(s);
}

/** WP: rest_parse_hex_color(). */
export function isHexColor(s: string): boolean {
  return /^#(?:[A-Fa-f0-9]{3}){1,2}\n?$/.test(s);
}
