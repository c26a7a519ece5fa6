/**
 * PHP's integer and array-key rules shared by the other php/ modules: the PhpKey type, the int64
 * range, PHP's array-key cast (normalizeKey), exact int printing, and the mangled property-name format.
 * They live here, below values.ts, because both the value classes and the serializer/reader need
 * them; keeping them apart keeps every import pointing one way (keys ← values ← serialize/unserialize).
 */

/** A PHP array key: an int (JS number) or a string. */
export type PhpKey = number | string;

export const INT64_MAX = 9223372036854775807n;
export const INT64_MIN = -9223372036854775808n;
const TWO_POW_63 = 2 ** 63;

/** PHP's array-key cast: canonical decimal int strings become ints, floats truncate, true→1, false→0, null→"". */
export function normalizeKey(key: PhpKey | boolean | null): PhpKey {
  if (typeof key === 'string') {
    if (!isInt64String(key)) return key;
    const n = Number(key);
    // Ints JS cannot hold exactly stay as their digits; the serializer still writes them as i:.
    return Number.isSafeInteger(n) ? n : key;
  }
  if (typeof key === 'number') {
    if (!Number.isFinite(key)) throw new TypeError(`PHP array key cannot be ${key}`);
    const n = Math.trunc(key) || 0;
    return Number.isSafeInteger(n) ? n : BigInt(n).toString();
  }
  if (key === true) return 1;
  if (key === false) return 0;
  if (key === null) return '';
  throw new TypeError(`PHP array key cannot be a ${typeof key}`);
}

// PHP's ZEND_HANDLE_NUMERIC_STR: optional "-", no leading zeros (but "0"), no "-0", within int64.
export function isInt64String(key: string): boolean {
  if (!/^(?:0|-?[1-9][0-9]{0,18})$/.test(key)) return false;
  if (key.length < 19) return true;
  const big = BigInt(key);
  return big <= INT64_MAX && big >= INT64_MIN;
}

/** Exact decimal digits of an integral number (String() would round 2**62 to "4611686018427388000"; no "-0"). */
export function intString(n: number): string {
  return Number.isSafeInteger(n) ? String(n === 0 ? 0 : n) : BigInt(n).toString();
}

export function isPhpInt(n: number): boolean {
  return Number.isInteger(n) && n < TWO_POW_63 && n >= -TWO_POW_63;
}

/** Splits a stored property name into visibility and name: `"\0*\0x"` is protected, `"\0Cls\0x"` private to Cls. */
export function demanglePropertyName(key: string): { name: string; visibility: 'public' | 'protected' | 'private'; className?: string } {
  if (!key.startsWith('\0')) return { name: key, visibility: 'public' };
  const end = key.indexOf('\0', 1);
  if (end === -1) return { name: key, visibility: 'public' };
  const owner = key.slice(1, end);
  const name = key.slice(end + 1);
  return owner === '*' ? { name, visibility: 'protected' } : { name, visibility: 'private', className: owner };
}
