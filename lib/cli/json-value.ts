/**
 * WP-CLI's `--format=json` for values: PHP's json_decode($text, true), so that what is stored is what
 * `wp option update --format=json` would store. Objects become PHP arrays in their written key order
 * (JSON.parse would move integer-like keys first), numeric-string keys become int keys, integer literals
 * stay ints (beyond 64 bits they become floats, as in PHP) and `1.0` stays a float.
 */
import { PhpArray, PhpFloat, PhpValue } from '../wp/php';
import { CliError } from './args';

const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;
const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;

/** Decodes `text` as PHP would; a JSON syntax error, or a decoded `null`, is WP-CLI's `Invalid JSON: …`. */
export function decodeJsonValue(text: string): PhpValue {
  try {
    JSON.parse(text);
  } catch {
    throw new CliError(`Invalid JSON: ${text}`);
  }
  // WP-CLI cannot tell a JSON null from a syntax error (json_decode returns null for both) and refuses both.
  const value = new Decoder(text).document();
  if (value === null) throw new CliError(`Invalid JSON: ${text}`);
  return value;
}

/** A reader over text that JSON.parse has already accepted, so it needs no error reporting of its own. */
class Decoder {
  private pos = 0;

  constructor(private readonly src: string) {}

  document(): PhpValue {
    this.skipWhitespace();
    return this.value();
  }

  private skipWhitespace(): void {
    WHITESPACE.lastIndex = this.pos;
    WHITESPACE.exec(this.src);
    this.pos = WHITESPACE.lastIndex;
  }

  private value(): PhpValue {
    const ch = this.src[this.pos];
    if (ch === '{') return this.object();
    if (ch === '[') return this.array();
    if (ch === '"') return this.string();
    if (this.src.startsWith('true', this.pos)) return this.literal(4, true);
    if (this.src.startsWith('false', this.pos)) return this.literal(5, false);
    if (this.src.startsWith('null', this.pos)) return this.literal(4, null);
    return this.number();
  }

  private literal(length: number, value: boolean | null): boolean | null {
    this.pos += length;
    return value;
  }

  private object(): PhpArray {
    const result = new PhpArray();
    this.pos++;
    this.skipWhitespace();
    if (this.src[this.pos] === '}') {
      this.pos++;
      return result;
    }
    for (;;) {
      this.skipWhitespace();
      const key = this.string();
      this.skipWhitespace();
      this.pos++; // ':'
      this.skipWhitespace();
      result.set(key, this.value());
      this.skipWhitespace();
      if (this.src[this.pos++] === '}') return result;
    }
  }

  private array(): PhpValue[] {
    const result: PhpValue[] = [];
    this.pos++;
    this.skipWhitespace();
    if (this.src[this.pos] === ']') {
      this.pos++;
      return result;
    }
    for (;;) {
      this.skipWhitespace();
      result.push(this.value());
      this.skipWhitespace();
      if (this.src[this.pos++] === ']') return result;
    }
  }

  private string(): string {
    const start = this.pos;
    let i = start + 1;
    while (this.src[i] !== '"') i += this.src[i] === '\\' ? 2 : 1;
    this.pos = i + 1;
    return JSON.parse(this.src.slice(start, this.pos)) as string;
  }

  private number(): number | bigint | PhpFloat {
    NUMBER.lastIndex = this.pos;
    const match = NUMBER.exec(this.src) as RegExpExecArray;
    this.pos = NUMBER.lastIndex;
    const text = match[0];
    if (match[1] === undefined && match[2] === undefined) {
      const big = BigInt(text);
      if (big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(big);
      if (big >= INT64_MIN && big <= INT64_MAX) return big;
    }
    const value = Number(text);
    // A float with no fractional part must stay a float, or it would be stored as an int.
    return Number.isInteger(value) ? new PhpFloat(value) : value;
  }
}
