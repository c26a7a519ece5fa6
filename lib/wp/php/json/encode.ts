/**
 * PHP JSON: wp_json_encode(): walking a value (arrays, objects, Maps as PHP arrays, toJSON()) and
 * laying it out compact or pretty. The rules are in the file comment of ../php-json.ts.
 */
import { PHP_JSON_DEPTH, PhpJsonEncodeError } from './errors';
import { phpJsonNumber } from './numbers';
import { phpJsonString } from './string';

export interface PhpJsonEncodeOptions {
  /** JSON_PRETTY_PRINT: four-space indent, `": "` between key and value. */
  pretty?: boolean;
}

/** WP: wp_json_encode( $value ) (or with JSON_PRETTY_PRINT for `_pretty`). */
export function phpJsonEncode(value: unknown, opts: PhpJsonEncodeOptions = {}): string {
  const encoded = encodeValue(value, 0, opts.pretty === true);
  return encoded === undefined ? 'null' : encoded;
}

/**
 * A value encoded once and kept, for a value answered again and again unchanged (a ticket as lists
 * show it): compact JSON writes the kept text, pretty JSON (and `_fields`) read `value`. The value
 * must not change afterwards. Its depth was checked against PHP's limit from its own top when it was
 * encoded, not from where it is placed: only shallow values belong here (a ticket, a few levels deep
 * inside a list, is nowhere near PHP's 512).
 */
export class PhpJsonEncoded {
  readonly json: string;

  constructor(readonly value: unknown) {
    // PHP's JSON is ASCII (every unit from 0x80 is escaped), but pieces of a two-byte string leave it
    // two-byte, which every answer holding it would convert again: kept flat, one byte a character.
    this.json = Buffer.from(phpJsonEncode(value), 'latin1').toString('latin1');
  }
}

function encodeValue(value: unknown, depth: number, pretty: boolean): string | undefined {
  switch (typeof value) {
    case 'string':
      return phpJsonString(value);
    case 'number':
      return phpJsonNumber(value);
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (value === null) return 'null';
  if (value instanceof PhpJsonEncoded) return pretty ? encodeValue(value.value, depth, pretty) : value.json;
  const obj = value as { toJSON?: unknown };
  if (typeof obj.toJSON === 'function') return encodeValue((obj.toJSON as () => unknown)(), depth, pretty);
  if (depth >= PHP_JSON_DEPTH) throw new PhpJsonEncodeError(1);
  if (Array.isArray(value)) {
    const items: string[] = [];
    for (let i = 0; i < value.length; i++) items.push(encodeValue(value[i], depth + 1, pretty) ?? 'null');
    return wrap('[', ']', items, depth, pretty);
  }
  if (value instanceof Map) return encodePhpArray(value, depth, pretty);
  const members: string[] = [];
  for (const key of Object.keys(value as object)) {
    const encoded = encodeValue((value as Record<string, unknown>)[key], depth + 1, pretty);
    if (encoded !== undefined) members.push(phpJsonString(key) + (pretty ? ': ' : ':') + encoded);
  }
  return wrap('{', '}', members, depth, pretty);
}

function encodePhpArray(map: Map<unknown, unknown>, depth: number, pretty: boolean): string {
  let index = 0;
  let isList = true;
  for (const key of map.keys()) {
    if (key !== index && key !== String(index)) {
      isList = false;
      break;
    }
    index++;
  }
  const parts: string[] = [];
  for (const [key, item] of map) {
    const encoded = encodeValue(item, depth + 1, pretty);
    if (isList) parts.push(encoded ?? 'null');
    else if (encoded !== undefined) parts.push(phpJsonString(String(key)) + (pretty ? ': ' : ':') + encoded);
  }
  return isList ? wrap('[', ']', parts, depth, pretty) : wrap('{', '}', parts, depth, pretty);
}

function wrap(open: string, close: string, parts: string[], depth: number, pretty: boolean): string {
  if (parts.length === 0) return open + close;
  if (!pretty) return open + parts.join(',') + close;
  const inner = '    '.repeat(depth + 1);
  return `${open}\n${inner}${parts.join(`,\n${inner}`)}\n${'    '.repeat(depth)}${close}`;
}
