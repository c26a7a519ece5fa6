/**
 * WP: wp_json_encode() = PHP's json_encode() with flags 0 (serialize_precision -1), and the
 * json_last_error() code a body gets from json_decode() when WP_REST_Request::parse_json_params()
 * refuses it (`rest_invalid_json`).
 *
 * Encoding, as PHP writes it:
 * - strings: `"` `\` and `/` are escaped (`\/`); \b \f \n \r \t; other bytes below 0x20 as `\u00xx`;
 *   every UTF-16 unit at or above 0x80 as `\uxxxx` (lowercase hex, so astral characters become a
 *   surrogate pair). `<`, `>`, `&`, `'` and DEL stay as they are.
 * - numbers: an integer-valued number below 2^63 is printed as a PHP int; anything else as a PHP float
 *   in its shortest round-trip form: `0.1`, `1.5`, `0.0001`, `1.0e-5`, `1.0e+20` (exponent form when
 *   the decimal exponent is below -4 or above 16; `.0` is added to a one-digit mantissa; no `+0` padding).
 *   JavaScript cannot tell 1.0 from 1, so a PHP float 1.0 and PHP int 1 both come out as `1`, which is
 *   also what PHP prints for 1.0 without JSON_PRESERVE_ZERO_FRACTION.
 * - arrays are lists; a plain object is a PHP stdClass / associative array (`{}` when empty);
 *   `undefined`, functions and symbols are left out of objects and become `null` inside arrays.
 * - a `Map` is a PHP array: empty → `[]`, keys exactly 0..n-1 in order → a list, else an object in
 *   insertion order. Use it where PHP would print `[]` for an empty associative array.
 * - an object with `toJSON()` (Date, …) is encoded as what that returns, like JsonSerializable.
 * - PHP refuses NaN/INF and nesting deeper than 512: {@link PhpJsonEncodeError} with PHP's code and message.
 */

/** PHP's json_last_error() codes and json_last_error_msg() texts (PHP 7.0–8.x). */
export const PHP_JSON_ERRORS = {
  0: 'No error',
  1: 'Maximum stack depth exceeded',
  3: 'Control character error, possibly incorrectly encoded',
  4: 'Syntax error',
  5: 'Malformed UTF-8 characters, possibly incorrectly encoded',
  7: 'Inf and NaN cannot be JSON encoded',
  10: 'Single unpaired UTF-16 surrogate in unicode escape',
} as const;

export type PhpJsonErrorCode = keyof typeof PHP_JSON_ERRORS;

/** json_encode()/json_decode() default depth. */
export const PHP_JSON_DEPTH = 512;

export interface PhpJsonEncodeOptions {
  /** JSON_PRETTY_PRINT: four-space indent, `": "` between key and value. */
  pretty?: boolean;
}

/** json_encode() failed (wp_json_encode() would return false; the REST server answers `rest_encode_error`). */
export class PhpJsonEncodeError extends Error {
  readonly code: PhpJsonErrorCode;

  constructor(code: PhpJsonErrorCode) {
    super(PHP_JSON_ERRORS[code]);
    this.name = 'PhpJsonEncodeError';
    this.code = code;
  }
}

/** WP: wp_json_encode( $value ) (or with JSON_PRETTY_PRINT for `_pretty`). */
export function phpJsonEncode(value: unknown, opts: PhpJsonEncodeOptions = {}): string {
  const encoded = encodeValue(value, 0, opts.pretty === true);
  return encoded === undefined ? 'null' : encoded;
}

const HEX = '0123456789abcdef';

/** A PHP JSON string literal for `text`. */
export function phpJsonString(text: string): string {
  let out = '"';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    let escape: string | undefined;
    if (unit >= 0x80 || unit < 0x20) {
      escape = SHORT_ESCAPES[unit] ?? `\\u${HEX[unit >> 12]}${HEX[(unit >> 8) & 15]}${HEX[(unit >> 4) & 15]}${HEX[unit & 15]}`;
    } else if (unit === 0x22) {
      escape = '\\"';
    } else if (unit === 0x5c) {
      escape = '\\\\';
    } else if (unit === 0x2f) {
      escape = '\\/';
    }
    if (escape !== undefined) {
      out += text.slice(start, i) + escape;
      start = i + 1;
    }
  }
  return out + text.slice(start) + '"';
}

const SHORT_ESCAPES: Record<number, string> = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r' };

const INT64_LIMIT = 2 ** 63;

/** A number as json_encode() prints it (see the file comment for int versus float). */
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

// ---------------------------------------------------------------------------------------------
// Decoding errors
// ---------------------------------------------------------------------------------------------

export interface PhpJsonDecodeError {
  /** json_last_error(): 1 depth, 3 control character, 4 syntax, 5 UTF-8, 10 lone UTF-16 surrogate escape. */
  code: PhpJsonErrorCode;
  /** json_last_error_msg(). */
  message: string;
}

/**
 * WP: the json_last_error() that WP_REST_Request::parse_json_params() reports for a JSON request body,
 * or null when WordPress accepts the body. A body PHP calls empty (`''` or `'0'`) is never parsed, so it
 * is accepted; so is any valid JSON text, `null` included.
 *
 * Follows PHP's own scanner (ext/json) rather than JSON.parse: the first problem met reading left to
 * right decides the code, so an unterminated string is 3 (it runs into the terminating NUL), a raw
 * control character is 3, an invalid UTF-8 byte is 5, `\ud800` without its pair is 10, a bad escape
 * or any grammar error is 4, and nesting deeper than 512 is 1. Pass the raw bytes (a Buffer) so that
 * invalid UTF-8 can be seen; a JS string has already lost it.
 */
export function jsonErrorForBody(body: string | Uint8Array): PhpJsonDecodeError | null {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  if (bytes.length === 0 || (bytes.length === 1 && bytes[0] === 0x30)) return null;
  const code = new PhpJsonScanner(bytes).check();
  return code === 0 ? null : { code, message: PHP_JSON_ERRORS[code] };
}

/** Token kinds of PHP's JSON scanner. */
type Token = '{' | '}' | '[' | ']' | ':' | ',' | 'string' | 'scalar' | 'eoi';

class DecodeFailure {
  constructor(readonly code: PhpJsonErrorCode) {}
}

/** A validating port of the rules of PHP's json scanner + parser (no values are built). */
class PhpJsonScanner {
  private pos = 0;
  private depth = 0;

  constructor(private readonly bytes: Uint8Array) {}

  check(): PhpJsonErrorCode {
    try {
      this.value(this.next());
      if (this.next() !== 'eoi') return 4;
      return 0;
    } catch (err) {
      if (err instanceof DecodeFailure) return err.code;
      throw err;
    }
  }

  private fail(code: PhpJsonErrorCode): never {
    throw new DecodeFailure(code);
  }

  private value(token: Token): void {
    if (token === 'string' || token === 'scalar') return;
    if (token === '[') return this.list();
    if (token === '{') return this.object();
    this.fail(4);
  }

  private enter(): void {
    if (++this.depth > PHP_JSON_DEPTH) this.fail(1);
  }

  private list(): void {
    this.enter();
    let token = this.next();
    if (token !== ']') {
      for (;;) {
        this.value(token);
        token = this.next();
        if (token === ']') break;
        if (token !== ',') this.fail(4);
        token = this.next();
      }
    }
    this.depth--;
  }

  private object(): void {
    this.enter();
    let token = this.next();
    if (token !== '}') {
      for (;;) {
        if (token !== 'string') this.fail(4);
        if (this.next() !== ':') this.fail(4);
        this.value(this.next());
        token = this.next();
        if (token === '}') break;
        if (token !== ',') this.fail(4);
        token = this.next();
      }
    }
    this.depth--;
  }

  /** The next token; a lexical error throws with the scanner's code. */
  private next(): Token {
    const b = this.bytes;
    for (;;) {
      if (this.pos >= b.length) return 'eoi';
      const c = b[this.pos];
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) {
        this.pos++;
        continue;
      }
      switch (c) {
        case 0x7b: this.pos++; return '{';
        case 0x7d: this.pos++; return '}';
        case 0x5b: this.pos++; return '[';
        case 0x5d: this.pos++; return ']';
        case 0x3a: this.pos++; return ':';
        case 0x2c: this.pos++; return ',';
        case 0x22: this.pos++; return this.string();
      }
      if (this.literal('null') || this.literal('true') || this.literal('false') || this.number()) return 'scalar';
      if (c < 0x20) this.fail(3);
      this.fail(utf8Length(b, this.pos) > 0 ? 4 : 5);
    }
  }

  private literal(word: string): boolean {
    for (let i = 0; i < word.length; i++) {
      if (this.bytes[this.pos + i] !== word.charCodeAt(i)) return false;
    }
    this.pos += word.length;
    return true;
  }

  /** INT, FLOAT or EXP of the scanner, longest match (so `01` is two tokens and `1.` stops after 1). */
  private number(): boolean {
    const b = this.bytes;
    let p = this.pos;
    if (b[p] === 0x2d) p++;
    if (b[p] === 0x30) p++;
    else if (isDigit(b[p]) && b[p] !== 0x30) while (isDigit(b[p])) p++;
    else return false;
    if (b[p] === 0x2e && isDigit(b[p + 1])) {
      p += 2;
      while (isDigit(b[p])) p++;
    }
    if (b[p] === 0x65 || b[p] === 0x45) {
      let q = p + 1;
      if (b[q] === 0x2b || b[q] === 0x2d) q++;
      if (isDigit(b[q])) {
        while (isDigit(b[q])) q++;
        p = q;
      }
    }
    this.pos = p;
    return true;
  }

  /** The body of a string, the opening quote already read. */
  private string(): Token {
    const b = this.bytes;
    for (;;) {
      // The end of the buffer is PHP's terminating NUL: a control character.
      if (this.pos >= b.length) this.fail(3);
      const c = b[this.pos];
      if (c === 0x22) {
        this.pos++;
        return 'string';
      }
      if (c < 0x20) this.fail(3);
      if (c === 0x5c) {
        this.escape();
        continue;
      }
      const len = utf8Length(b, this.pos);
      if (len === 0) this.fail(5);
      this.pos += len;
    }
  }

  private escape(): void {
    const b = this.bytes;
    const sym = b[this.pos + 1];
    if (sym === 0x22 || sym === 0x5c || sym === 0x2f || sym === 0x62 || sym === 0x66 || sym === 0x6e || sym === 0x72 || sym === 0x74) {
      this.pos += 2;
      return;
    }
    const unit = sym === 0x75 ? hex4(b, this.pos + 2) : -1;
    if (unit < 0) this.fail(4);
    if (unit < 0xd800 || unit > 0xdfff) {
      this.pos += 6;
      return;
    }
    const low = unit <= 0xdbff && b[this.pos + 6] === 0x5c && b[this.pos + 7] === 0x75 ? hex4(b, this.pos + 8) : -1;
    if (low < 0xdc00 || low > 0xdfff) this.fail(10);
    this.pos += 12;
  }
}

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= 0x30 && c <= 0x39;
}

function hex4(b: Uint8Array, at: number): number {
  let v = 0;
  for (let i = 0; i < 4; i++) {
    const c = b[at + i];
    const d = c === undefined ? -1 : HEX.indexOf(String.fromCharCode(c).toLowerCase());
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

/** Length of the well-formed UTF-8 sequence at `at` (no overlongs, surrogates or > U+10FFFF), or 0. */
function utf8Length(b: Uint8Array, at: number): number {
  const c = b[at];
  const t = (i: number, lo = 0x80, hi = 0xbf) => b[at + i] !== undefined && b[at + i] >= lo && b[at + i] <= hi;
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) return t(1) ? 2 : 0;
  if (c === 0xe0) return t(1, 0xa0) && t(2) ? 3 : 0;
  if ((c >= 0xe1 && c <= 0xec) || c === 0xee || c === 0xef) return t(1) && t(2) ? 3 : 0;
  if (c === 0xed) return t(1, 0x80, 0x9f) && t(2) ? 3 : 0;
  if (c === 0xf0) return t(1, 0x90) && t(2) && t(3) ? 4 : 0;
  if (c >= 0xf1 && c <= 0xf3) return t(1) && t(2) && t(3) ? 4 : 0;
  if (c === 0xf4) return t(1, 0x80, 0x8f) && t(2) && t(3) ? 4 : 0;
  return 0;
}
