/**
 * PHP JSON: a validating port of PHP's JSON scanner and parser (ext/json), which reports the
 * json_last_error() code of the first problem met reading left to right. No values are built.
 */
import { PHP_JSON_DEPTH, type PhpJsonErrorCode } from './errors';
import { hex4, isDigit, utf8Length } from './bytes';

/** Token kinds of PHP's JSON scanner. */
type Token = '{' | '}' | '[' | ']' | ':' | ',' | 'string' | 'scalar' | 'eoi';

class DecodeFailure {
  constructor(readonly code: PhpJsonErrorCode) {}
}

/** A validating port of the rules of PHP's json scanner + parser (no values are built). */
export class PhpJsonScanner {
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
      // Plain ASCII, most of any body, without the sequence check's per-call work: an 8 MiB string
      // took the event loop ten seconds before this.
      if (c < 0x80) {
        this.pos++;
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
