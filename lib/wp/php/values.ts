/**
 * The JS shapes of PHP values: the PhpValue type and the classes for what a plain JS value cannot
 * carry (integral floats, ordered maps, objects, `C:`/`E:`/`r:` values). Everything else in php/
 * builds on these, so this module imports only the leaf helpers (floats, keys).
 */

import { phpFloatToString } from './floats';
import { type PhpKey, demanglePropertyName, normalizeKey } from './keys';

/** Any value PHP's unserialize() can produce, as this module represents it. */
export type PhpValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | PhpFloat
  | PhpArray
  | PhpObject
  | PhpCustomObject
  | PhpEnum
  | PhpReference
  | PhpValue[];

/** A PHP float whose value is integral, kept wrapped so it re-serializes as `d:` rather than `i:`. */
export class PhpFloat {
  constructor(readonly value: number) {}

  /** Lets `+f` and arithmetic see the number. */
  valueOf(): number {
    return this.value;
  }

  /** PHP's `(string)` form of the float (e.g. `1`, `1.0E+25`). */
  toString(): string {
    return phpFloatToString(this.value);
  }

  /** JSON sees the plain number, as json_encode would. */
  toJSON(): number {
    return this.value;
  }
}

/**
 * A PHP array that is not a plain list: an ordered map whose keys are ints or strings.
 * Keys are normalized the way PHP does on write (`"5"` → `5`, `true` → `1`, `null` → `""`),
 * and insertion order is kept, which a JS object cannot do for integer-like keys.
 */
export class PhpArray implements Iterable<[PhpKey, PhpValue]> {
  private readonly map = new Map<PhpKey, PhpValue>();
  // PHP's nNextFreeElement: where `$a[] = x` goes. Undefined until an int key is used (PHP >= 8.3 rules).
  private nextIndex: number | undefined;

  /** Builds an array from [key, value] pairs in order (later duplicates overwrite, as in PHP). */
  constructor(entries?: Iterable<readonly [PhpKey | boolean | null, PhpValue]>) {
    if (entries) for (const [key, value] of entries) this.set(key, value);
  }

  /** Builds an array from a plain object (JS's own key order: integer-like keys first). */
  static fromObject(object: { readonly [key: string]: PhpValue }): PhpArray {
    return new PhpArray(Object.entries(object));
  }

  /** Number of elements. */
  get size(): number {
    return this.map.size;
  }

  /** Whether `key` (normalized) is present. */
  has(key: PhpKey | boolean | null): boolean {
    return this.map.has(normalizeKey(key));
  }

  /** The value at `key` (normalized), or undefined when absent. */
  get(key: PhpKey | boolean | null): PhpValue | undefined {
    return this.map.get(normalizeKey(key));
  }

  /** `$a[key] = value`: overwrites in place or appends at the end. */
  set(key: PhpKey | boolean | null, value: PhpValue): this {
    const k = normalizeKey(key);
    this.map.set(k, value);
    if (typeof k === 'number' && (this.nextIndex === undefined || k >= this.nextIndex)) this.nextIndex = k + 1;
    return this;
  }

  /** `unset($a[key])`; like PHP, this does not lower the next free index. */
  delete(key: PhpKey | boolean | null): boolean {
    return this.map.delete(normalizeKey(key));
  }

  /** `$a[] = value`: appends at the next free int key. */
  push(value: PhpValue): this {
    return this.set(this.nextIndex ?? 0, value);
  }

  /** Keys in order. */
  keys(): IterableIterator<PhpKey> {
    return this.map.keys();
  }

  /** Values in order. */
  values(): IterableIterator<PhpValue> {
    return this.map.values();
  }

  /** [key, value] pairs in order. */
  entries(): IterableIterator<[PhpKey, PhpValue]> {
    return this.map.entries();
  }

  [Symbol.iterator](): IterableIterator<[PhpKey, PhpValue]> {
    return this.map.entries();
  }

  /** True when the keys are exactly 0..n-1 in order (PHP's array_is_list). */
  isList(): boolean {
    let expected = 0;
    for (const key of this.map.keys()) if (key !== expected++) return false;
    return true;
  }

  /** A shallow plain object (keys stringified; note JS moves integer-like keys first). */
  toObject(): Record<string, PhpValue> {
    const out: Record<string, PhpValue> = {};
    for (const [key, value] of this.map) out[String(key)] = value;
    return out;
  }
}

/**
 * A PHP object (`O:`): class name plus properties in order. Property names are kept exactly as
 * stored (private ones are `"\0Class\0name"`, protected ones `"\0*\0name"`), so they round-trip.
 */
export class PhpObject {
  readonly properties: Map<PhpKey, PhpValue>;

  /** Creates an object of `className` with properties given as pairs or a plain object. */
  constructor(
    public className: string,
    properties?: Iterable<readonly [PhpKey, PhpValue]> | { readonly [name: string]: PhpValue },
  ) {
    const pairs =
      properties === undefined ? [] : isIterable(properties) ? properties : Object.entries(properties);
    this.properties = new Map(pairs as Iterable<[PhpKey, PhpValue]>);
  }

  /** The property called `name` whatever its visibility (public first, then protected, then private). */
  get(name: string): PhpValue | undefined {
    if (this.properties.has(name)) return this.properties.get(name);
    if (this.properties.has(`\0*\0${name}`)) return this.properties.get(`\0*\0${name}`);
    for (const [key, value] of this.properties) {
      if (typeof key === 'string' && demanglePropertyName(key).name === name) return value;
    }
    return undefined;
  }
}

/** A `C:` value (a class implementing Serializable): class name plus its opaque payload. */
export class PhpCustomObject {
  constructor(
    public className: string,
    public data: string,
  ) {}
}

/** A PHP 8.1 enum case (`E:11:"Suit:Hearts";`). */
export class PhpEnum {
  constructor(
    public className: string,
    public caseName: string,
  ) {}
}

/**
 * A back-reference to an earlier value (`r:n;` object identity, `R:n;` PHP reference). Kept opaque:
 * it round-trips, but its number is only meaningful in the exact structure it was read from.
 */
export class PhpReference {
  constructor(
    readonly kind: 'r' | 'R',
    readonly index: number,
  ) {}
}

function isIterable(value: object): value is Iterable<unknown> {
  return typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function';
}
