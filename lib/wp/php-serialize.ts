/**
 * PHP's serialize()/unserialize() exactly as WordPress stores values in the database, plus
 * WordPress's is_serialized / maybe_serialize / maybe_unserialize rules (functions.php).
 *
 * How PHP values look in JS:
 * - `N;` → `null`, `b:` → boolean, `s:` → string (lengths on the wire are UTF-8 BYTES).
 * - `i:` → number; an int outside JS's safe range comes back as `bigint` so no digit is lost.
 * - `d:` → number, except a float with no fractional part (`d:1;`, `d:1.0E+25;`, `d:-0;`) comes
 *   back as a {@link PhpFloat}, because a plain integral number re-serializes as `i:`.
 * - `a:` → a JS array when its keys are exactly 0..n-1 in order (a PHP "list"), otherwise a
 *   {@link PhpArray} (an ordered map keeping key order and int/string key types).
 * - `O:` → {@link PhpObject}; `C:`, `E:`, `r:`/`R:` → {@link PhpCustomObject}, {@link PhpEnum},
 *   {@link PhpReference}, kept opaque so they round-trip.
 *
 * Round-trip: `serialize(unserialize(s)) === s` for everything PHP 7.1+'s serialize() writes.
 * Spellings PHP never writes (`i:+5;`, `d:1e3;`, `d:0.10000000000000001;` from PHP < 7.1,
 * an array key `s:1:"5";`) are normalized exactly as PHP itself normalizes them on re-save.
 *
 * Failure: {@link unserialize} returns `undefined` for malformed input (never throws);
 * {@link unserializeOrThrow} throws {@link PhpUnserializeError} with the offset instead.
 */

/** A PHP array key: an int (JS number) or a string. */
export type PhpKey = number | string;

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

/** Why unserialize failed, and at which character offset of the input. */
export class PhpUnserializeError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at offset ${offset}`);
    this.name = 'PhpUnserializeError';
  }
}

/** Options for unserialize. */
export interface UnserializeOptions {
  /** Accept bytes after the value, as PHP's unserialize() does (it only warns, since 8.3). Default false. */
  allowTrailingData?: boolean;
}

// PHP's default unserialize_max_depth; also keeps hostile input from overflowing our stack.
const MAX_DEPTH = 4096;
const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;
const TWO_POW_63 = 2 ** 63;

/** Parses a PHP-serialized string; returns `undefined` when it is malformed (never throws). */
export function unserialize(input: string, options: UnserializeOptions = {}): PhpValue | undefined {
  try {
    return unserializeOrThrow(input, options);
  } catch (err) {
    if (err instanceof PhpUnserializeError) return undefined;
    throw err;
  }
}

/** Parses a PHP-serialized string; throws {@link PhpUnserializeError} when it is malformed. */
export function unserializeOrThrow(input: string, options: UnserializeOptions = {}): PhpValue {
  if (typeof input !== 'string') throw new PhpUnserializeError('input is not a string', 0);
  const reader = new Reader(input);
  let value: PhpValue;
  try {
    value = reader.value();
  } catch (err) {
    // Near PHP's 4096-level limit the JS stack may run out first (it depends on the caller's depth);
    // report that as malformed input rather than crashing.
    if (err instanceof RangeError) throw new PhpUnserializeError('nesting too deep', reader.pos);
    throw err;
  }
  if (reader.pos !== input.length && !options.allowTrailingData) reader.fail('unexpected data after the value');
  return value;
}

// Sticky token patterns, matched at the reader's position. They follow PHP's var_unserializer grammar.
const UINT_COLON = /([0-9]+):/y;
const UINT_COLON_QUOTE = /([0-9]+):"/y;
const UINT_SEMI = /([0-9]+);/y;
const INT_SEMI = /([+-]?[0-9]+);/y;
const BOOL_SEMI = /([01]);/y;
const FLOAT_SEMI = /([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|NAN|-?INF);/y;
// PHP accepts class names made of these bytes (any byte >= 0x80, i.e. any non-ASCII character).
const CLASS_NAME = /^[A-Za-z0-9_\\\u0080-\uffff]+$/;

/** A cursor over the input; string lengths are measured in UTF-8 bytes while walking UTF-16 units. */
class Reader {
  pos = 0;
  private depth = 0;

  constructor(private readonly src: string) {}

  fail(message: string): never {
    throw new PhpUnserializeError(message, this.pos);
  }

  private expect(ch: string): void {
    if (this.src[this.pos] !== ch) this.fail(`expected '${ch}'`);
    this.pos++;
  }

  private token(pattern: RegExp, what: string): string {
    pattern.lastIndex = this.pos;
    const match = pattern.exec(this.src);
    if (!match) this.fail(`malformed ${what}`);
    this.pos = pattern.lastIndex;
    return match[1]!;
  }

  private uint(pattern: RegExp, what: string): number {
    const n = Number(this.token(pattern, what));
    if (!Number.isSafeInteger(n)) this.fail(`${what} too large`);
    return n;
  }

  /** Consumes exactly `byteLength` UTF-8 bytes of text; fails if that would split a character. */
  private bytes(byteLength: number): string {
    const src = this.src;
    const start = this.pos;
    let i = start;
    let bytes = 0;
    while (bytes < byteLength) {
      if (i >= src.length) this.fail('string runs past the end of input');
      const c = src.charCodeAt(i);
      if (c < 0x80) {
        bytes += 1;
        i += 1;
      } else if (c < 0x800) {
        bytes += 2;
        i += 1;
      } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < src.length && (src.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        bytes += 4; // a surrogate pair is one 4-byte UTF-8 character
        i += 2;
      } else {
        bytes += 3; // rest of the BMP; a lone surrogate is written as U+FFFD, also 3 bytes
        i += 1;
      }
    }
    if (bytes !== byteLength) {
      this.pos = i;
      this.fail('declared length splits a UTF-8 character');
    }
    this.pos = i;
    return src.slice(start, i);
  }

  value(): PhpValue {
    const tag = this.src[this.pos];
    if (tag === 'N') {
      this.pos++;
      this.expect(';');
      return null;
    }
    if (this.src[this.pos + 1] !== ':') this.fail('expected a type tag and ":"');
    const tagAt = this.pos;
    this.pos += 2;
    switch (tag) {
      case 'b':
        return this.token(BOOL_SEMI, 'boolean') === '1';
      case 'i':
        return parseInt64(this.token(INT_SEMI, 'integer'), this, 'integer');
      case 'd':
        return parseFloatToken(this.token(FLOAT_SEMI, 'float'));
      case 's': {
        const text = this.bytes(this.uint(UINT_COLON_QUOTE, 'string length'));
        this.expect('"');
        this.expect(';');
        return text;
      }
      case 'a':
        return this.array();
      case 'O':
        return this.object();
      case 'C':
        return this.custom();
      case 'E':
        return this.enumCase();
      case 'r':
      case 'R': {
        const index = this.uint(UINT_SEMI, 'reference');
        if (index < 1) this.fail('reference index must be at least 1');
        return new PhpReference(tag, index);
      }
      default:
        this.pos = tagAt;
        return this.fail('unknown type tag');
    }
  }

  private enter(): void {
    if (++this.depth > MAX_DEPTH) this.fail('nesting too deep');
  }

  private array(): PhpValue[] | PhpArray {
    const count = this.uint(UINT_COLON, 'array size');
    this.expect('{');
    this.enter();
    const result = new PhpArray();
    for (let i = 0; i < count; i++) {
      const key = this.key();
      // Array keys are normalized like PHP's symtable: string "5" becomes int 5.
      result.set(key, this.value());
    }
    this.expect('}');
    this.depth--;
    return result.isList() ? Array.from(result.values()) : result;
  }

  private object(): PhpObject {
    const className = this.className();
    this.expect(':');
    const count = this.uint(UINT_COLON, 'property count');
    this.expect('{');
    this.enter();
    const object = new PhpObject(className);
    // Property names are kept verbatim (no int normalization) so they re-serialize byte for byte.
    for (let i = 0; i < count; i++) object.properties.set(this.key(), this.value());
    this.expect('}');
    this.depth--;
    return object;
  }

  private custom(): PhpCustomObject {
    const className = this.className();
    this.expect(':');
    const length = this.uint(UINT_COLON, 'payload length');
    this.expect('{');
    const data = this.bytes(length);
    this.expect('}');
    return new PhpCustomObject(className, data);
  }

  private enumCase(): PhpEnum {
    const text = this.bytes(this.uint(UINT_COLON_QUOTE, 'enum length'));
    this.expect('"');
    this.expect(';');
    const colon = text.indexOf(':');
    if (colon <= 0 || colon === text.length - 1 || !CLASS_NAME.test(text.slice(0, colon))) this.fail('malformed enum name');
    return new PhpEnum(text.slice(0, colon), text.slice(colon + 1));
  }

  private className(): string {
    const name = this.bytes(this.uint(UINT_COLON_QUOTE, 'class name length'));
    if (!CLASS_NAME.test(name)) this.fail('invalid class name');
    this.expect('"');
    return name;
  }

  /** An array key or property name: only `i:` and `s:` are allowed there. */
  private key(): PhpKey {
    const tag = this.src[this.pos];
    if ((tag !== 'i' && tag !== 's') || this.src[this.pos + 1] !== ':') this.fail('array key must be an int or a string');
    const value = this.value();
    // An int key beyond JS's safe range is kept as its digits (a string PhpArray still writes as i:).
    return typeof value === 'bigint' ? value.toString() : (value as PhpKey);
  }
}

function parseInt64(text: string, reader: Reader, what: string): number | bigint {
  if (text.length <= 15) return Number(text) || 0; // `|| 0` turns "-0" into 0: PHP ints have no negative zero
  const big = BigInt(text);
  if (big > INT64_MAX || big < INT64_MIN) reader.fail(`${what} out of the 64-bit range`);
  const n = Number(big);
  return Number.isSafeInteger(n) ? n : big;
}

function parseFloatToken(text: string): number | PhpFloat {
  const value = text === 'NAN' ? NaN : text === 'INF' ? Infinity : text === '-INF' ? -Infinity : Number(text);
  // Integral floats (and -0) must stay floats: as plain numbers they would come back out as `i:`.
  return Number.isInteger(value) ? new PhpFloat(value) : value;
}

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
function isInt64String(key: string): boolean {
  if (!/^(?:0|-?[1-9][0-9]{0,18})$/.test(key)) return false;
  if (key.length < 19) return true;
  const big = BigInt(key);
  return big <= INT64_MAX && big >= INT64_MIN;
}

/** Exact decimal digits of an integral number (String() would round 2**62 to "4611686018427388000"; no "-0"). */
function intString(n: number): string {
  return Number.isSafeInteger(n) ? String(n === 0 ? 0 : n) : BigInt(n).toString();
}

function isPhpInt(n: number): boolean {
  return Number.isInteger(n) && n < TWO_POW_63 && n >= -TWO_POW_63;
}

/** A float as serialize()/json_encode()/var_export() print it (serialize_precision=-1): shortest repr, `1.0E+25`. */
export function phpFloatRepr(value: number): string {
  return formatFloat(value, 0);
}

/** A float as PHP's `(string)` cast / echo prints it (precision=14): `0.30000000000000004` → `0.3`. */
export function phpFloatToString(value: number): string {
  return formatFloat(value, 14);
}

/**
 * The layout rules of PHP's zend_gcvt: digits come from the shortest round-trip repr (precision 0)
 * or are rounded half-even to `precision` significant digits; scientific notation is used when
 * the decimal exponent is above the digit budget (17 for shortest) or the value is below 1e-4.
 */
function formatFloat(value: number, precision: number): string {
  if (Number.isNaN(value)) return 'NAN';
  if (value === Infinity) return 'INF';
  if (value === -Infinity) return '-INF';
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  const [digits, decpt] = value === 0 ? ['0', 1] : significantDigits(Math.abs(value), precision);
  const budget = precision === 0 ? 17 : precision;
  if (decpt < -3 || decpt > budget) {
    const exp = decpt - 1;
    const mantissa = digits.length === 1 ? `${digits}.0` : `${digits[0]}.${digits.slice(1)}`;
    return `${sign}${mantissa}E${exp < 0 ? '-' : '+'}${Math.abs(exp)}`;
  }
  if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
  if (digits.length <= decpt) return `${sign}${digits}${'0'.repeat(decpt - digits.length)}`;
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
}

/** Significant digits without trailing zeros, and the decimal point position (value = 0.DIGITS × 10^decpt). */
function significantDigits(abs: number, precision: number): [string, number] {
  let text = precision === 0 ? abs.toExponential() : abs.toExponential(precision - 1);
  if (precision > 0) {
    // JS rounds exact ties up; PHP's dtoa rounds them to even. Detect an exact tie from the full expansion.
    const exact = abs.toExponential(100);
    const [exactMantissa] = exact.split('e');
    const exactDigits = exactMantissa!.replace('.', '');
    const rest = exactDigits.slice(precision);
    if (/^50*$/.test(rest) && Number(exactDigits[precision - 1]) % 2 === 0) {
      text = `${exactDigits[0]}.${exactDigits.slice(1, precision)}e${exact.split('e')[1]}`;
    }
  }
  const [mantissa, exponent] = text.split('e');
  const digits = mantissa!.replace('.', '').replace(/0+$/, '') || '0';
  return [digits, Number(exponent) + 1];
}

/** PHP's trim() character set (JS's trim() strips other characters and keeps NUL). */
function phpTrim(text: string): string {
  return text.replace(/^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g, '');
}

/**
 * WordPress's is_serialized(): a cheap shape check, not a parse. Strict mode (the default, used by
 * maybe_unserialize) requires the value to end in `;` or `}`; loose mode (used by maybe_serialize)
 * only requires one of them somewhere past the start.
 */
export function isSerialized(data: unknown, strict = true): boolean {
  if (typeof data !== 'string') return false;
  const text = phpTrim(data);
  if (text === 'N;') return true;
  // PHP counts bytes here and we count UTF-16 units. Every branch that can return true needs the first
  // four characters to be ASCII, and then the two counts agree, so the outcome is the same.
  if (text.length < 4) return false;
  if (text[1] !== ':') return false;
  if (strict) {
    const last = text[text.length - 1];
    if (last !== ';' && last !== '}') return false;
  } else {
    const semicolon = text.indexOf(';');
    const brace = text.indexOf('}');
    if (semicolon === -1 && brace === -1) return false;
    if (semicolon !== -1 && semicolon < 3) return false;
    if (brace !== -1 && brace < 4) return false;
  }
  const token = text[0];
  // A string must also have its closing quote (strict) or some quote (loose), then the `s:<digits>:` shape.
  if (token === 's' && (strict ? text[text.length - 2] !== '"' : !text.includes('"'))) return false;
  switch (token) {
    case 's':
    case 'a':
    case 'O':
    case 'E':
      return /^.:[0-9]+:/.test(text);
    case 'b':
    case 'i':
    case 'd':
      return (strict ? /^.:[0-9.E+-]+;$/ : /^.:[0-9.E+-]+;/).test(text);
    default:
      return false;
  }
}

/**
 * WordPress's maybe_serialize() followed by the string conversion the database write does: arrays and
 * objects are serialized, a string that already looks serialized (loose check) is serialized again,
 * and other scalars become PHP strings (true → "1", false/null → "", 1.5 → "1.5").
 */
export function maybeSerialize(value: unknown): string {
  if (typeof value === 'string') return isSerialized(value, false) ? serialize(value) : value;
  if (value === true) return '1';
  if (value === false || value === null || value === undefined) return '';
  if (typeof value === 'number') return isPhpInt(value) ? intString(value) : phpFloatToString(value);
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof PhpFloat) return phpFloatToString(value.value);
  return serialize(value);
}

/**
 * WordPress's maybe_unserialize(): unserializes only what passes the strict is_serialized check,
 * after trimming; a value that looks serialized but does not parse yields `false`, as PHP's
 * `@unserialize()` does. Anything else comes back unchanged.
 */
export function maybeUnserialize<T>(data: T): PhpValue | T {
  if (typeof data !== 'string' || !isSerialized(data)) return data;
  const value = unserialize(phpTrim(data), { allowTrailingData: true });
  return value === undefined ? false : value;
}

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

/** Splits a stored property name into visibility and name: `"\0*\0x"` is protected, `"\0Cls\0x"` private to Cls. */
export function demanglePropertyName(key: string): { name: string; visibility: 'public' | 'protected' | 'private'; className?: string } {
  if (!key.startsWith('\0')) return { name: key, visibility: 'public' };
  const end = key.indexOf('\0', 1);
  if (end === -1) return { name: key, visibility: 'public' };
  const owner = key.slice(1, end);
  const name = key.slice(end + 1);
  return owner === '*' ? { name, visibility: 'protected' } : { name, visibility: 'private', className: owner };
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function isIterable(value: object): value is Iterable<unknown> {
  return typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function';
}
