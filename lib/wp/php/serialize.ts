/**
 * PHP 7.1+'s serialize(): the Writer that turns a PhpValue (or plain JS data) into the string
 * WordPress stores, and utf8Length, the byte count that `s:<len>:` uses.
 */

import { phpFloatRepr } from './floats';
import { INT64_MAX, INT64_MIN, type PhpKey, intString, isInt64String, isPhpInt } from './keys';
import { PhpArray, PhpCustomObject, PhpEnum, PhpFloat, PhpObject, PhpReference, type PhpValue } from './values';

/** Serializes a value as PHP 7.1+ serialize() would; throws TypeError for functions, symbols, cycles, class instances. */
export function serialize(value: unknown): string {
  const writer = new Writer();
  writer.value(value);
  return writer.out;
}

class Writer {
  out = '';
  private readonly active = new Set<object>();

  value(value: unknown): void {
    switch (typeof value) {
      case 'undefined':
        this.out += 'N;';
        return;
      case 'boolean':
        this.out += value ? 'b:1;' : 'b:0;';
        return;
      case 'number':
        // An integral number that fits PHP's int is an int; anything else is a float.
        this.out += isPhpInt(value) ? `i:${intString(value)};` : `d:${phpFloatRepr(value)};`;
        return;
      case 'bigint':
        if (value > INT64_MAX || value < INT64_MIN) throw new TypeError(`serialize: ${value} does not fit a PHP int`);
        this.out += `i:${value};`;
        return;
      case 'string':
        this.string(value);
        return;
      case 'object':
        break;
      default:
        throw new TypeError(`serialize: cannot serialize a ${typeof value}`);
    }
    if (value === null) {
      this.out += 'N;';
      return;
    }
    if (value instanceof PhpFloat) {
      this.out += `d:${phpFloatRepr(value.value)};`;
      return;
    }
    if (value instanceof PhpEnum) {
      const name = `${value.className}:${value.caseName}`;
      this.out += `E:${utf8Length(name)}:"${name}";`;
      return;
    }
    if (value instanceof PhpReference) {
      this.out += `${value.kind}:${value.index};`;
      return;
    }
    if (value instanceof PhpCustomObject) {
      this.out += `C:${utf8Length(value.className)}:"${value.className}":${utf8Length(value.data)}:{${value.data}}`;
      return;
    }
    if (this.active.has(value)) throw new TypeError('serialize: circular structure');
    this.active.add(value);
    if (Array.isArray(value)) {
      this.out += `a:${value.length}:{`;
      for (let i = 0; i < value.length; i++) {
        this.out += `i:${i};`;
        this.value(value[i]);
      }
      this.out += '}';
    } else if (value instanceof PhpArray) {
      this.out += 'a:';
      this.entries(value.size, value.entries(), false);
    } else if (value instanceof Map) {
      // Normalize through PhpArray so "5" and 5 collapse into one key, as they would in PHP.
      const array = new PhpArray(value as Map<PhpKey, PhpValue>);
      this.out += 'a:';
      this.entries(array.size, array.entries(), false);
    } else if (value instanceof PhpObject) {
      this.out += `O:${utf8Length(value.className)}:"${value.className}":`;
      this.entries(value.properties.size, value.properties.entries(), true);
    } else if (isPlainObject(value)) {
      const keys = Object.keys(value);
      this.out += 'a:';
      this.entries(
        keys.length,
        keys.map((k) => [k, (value as Record<string, unknown>)[k]] as [string, unknown]),
        false,
      );
    } else {
      throw new TypeError(`serialize: cannot serialize an instance of ${value.constructor?.name ?? 'unknown class'}`);
    }
    this.active.delete(value);
  }

  private string(text: string): void {
    this.out += `s:${utf8Length(text)}:"${text}";`;
  }

  /** Writes `<count>:{key value ...}`; the caller has written the `a:` or `O:...:` prefix. */
  private entries(count: number, entries: Iterable<[PhpKey, unknown]>, verbatimKeys: boolean): void {
    this.out += `${count}:{`;
    for (const [key, item] of entries) {
      if (typeof key === 'number') this.out += `i:${intString(key)};`;
      // PHP writes integer-like array keys as ints; object property names stay strings.
      else if (!verbatimKeys && isInt64String(key)) this.out += `i:${key};`;
      else this.string(key);
      this.value(item);
    }
    this.out += '}';
  }
}

/** UTF-8 byte length of a JS string (what `s:<len>:` counts). */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
