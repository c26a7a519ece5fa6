/**
 * Reading PhpValues from JS code: toPlain (the json_encode shape), phpGet (`$value[$key]`) and
 * phpEntries (foreach pairs). normalizeKey and demanglePropertyName, which the value classes also
 * need, live in keys.ts so this module can depend on values.ts without a cycle.
 */

import { type PhpKey, normalizeKey } from './keys';
import { PhpArray, PhpFloat, PhpObject, type PhpValue } from './values';

/** A JSON-friendly form of a PHP value, as json_encode would shape it. */
export type PlainValue = null | boolean | number | bigint | string | PlainValue[] | { [key: string]: PlainValue };

/**
 * Deep-converts to plain JS the way json_encode shapes data: lists → arrays, other arrays → objects,
 * PhpFloat → number, objects → their public properties. `C:`/`E:`/`r:` values have no plain form and become null.
 */
export function toPlain(value: PhpValue): PlainValue {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(toPlain);
  if (value instanceof PhpFloat) return value.value;
  if (value instanceof PhpArray) {
    if (value.isList()) return Array.from(value.values(), toPlain);
    const out: { [key: string]: PlainValue } = {};
    for (const [key, item] of value) out[String(key)] = toPlain(item);
    return out;
  }
  if (value instanceof PhpObject) {
    const out: { [key: string]: PlainValue } = {};
    for (const [key, item] of value.properties) {
      if (typeof key === 'string' && key.startsWith('\0')) continue; // json_encode skips non-public properties
      out[String(key)] = toPlain(item);
    }
    return out;
  }
  return null;
}

/** `$value[$key]` for a list, PhpArray or PhpObject property; undefined when absent or not a container. */
export function phpGet(value: PhpValue | undefined, key: PhpKey): PhpValue | undefined {
  if (Array.isArray(value)) {
    const k = normalizeKey(key);
    return typeof k === 'number' ? value[k] : undefined;
  }
  if (value instanceof PhpArray) return value.get(key);
  if (value instanceof PhpObject) return value.properties.get(key);
  return undefined;
}

/** [key, value] pairs of a list or PhpArray (empty for anything else), for foreach-style loops. */
export function phpEntries(value: PhpValue | undefined): Array<[PhpKey, PhpValue]> {
  if (Array.isArray(value)) return value.map((item, i) => [i, item]);
  if (value instanceof PhpArray) return Array.from(value.entries());
  return [];
}
