/**
 * The cursor that walks a PHP-serialized string and builds PhpValues (used by unserialize.ts).
 * String lengths on the wire are UTF-8 bytes; the walk is over UTF-16 units.
 */

import { INT64_MAX, INT64_MIN, type PhpKey } from './keys';
import { BOOL_SEMI, CLASS_NAME, FLOAT_SEMI, INT_SEMI, UINT_COLON, UINT_COLON_QUOTE, UINT_SEMI, parseFloatToken } from './tokens';
import { PhpUnserializeError } from './unserialize-error';
import { PhpArray, PhpCustomObject, PhpEnum, PhpObject, PhpReference, type PhpValue } from './values';

// PHP's default unserialize_max_depth; also keeps hostile input from overflowing our stack.
const MAX_DEPTH = 4096;

/** A cursor over the input; string lengths are measured in UTF-8 bytes while walking UTF-16 units. */
export class Reader {
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
