/**
 * PHP quoted-string literals for the wp-config tokenizer: `'…'`, `"…"` (and backticks) with their escapes
 * and interpolation detection, plus the byte builder escapes decode into. Heredoc/nowdoc bodies reuse the
 * escape decoding from here (see heredoc.ts).
 */
import { IDENT_START } from './token';

export interface QuotedString {
  end: number;
  value: string;
  /** True when the string interpolates variables, so its value depends on runtime state. */
  dynamic: boolean;
}

/** `'…'`: only `\'` and `\\` are escapes. An unterminated string runs to the end of the input. */
export function scanSingleQuoted(src: string, open: number): QuotedString {
  let value = '';
  let i = open + 1;
  while (i < src.length) {
    const c = src[i];
    if (c === "'") return { end: i + 1, value, dynamic: false };
    if (c === '\\' && (src[i + 1] === "'" || src[i + 1] === '\\')) {
      value += src[i + 1];
      i += 2;
    } else {
      value += c;
      i++;
    }
  }
  return { end: i, value, dynamic: false };
}

/**
 * `"…"` (or a backtick string) starting just after the opening quote. Escapes are decoded to bytes and
 * the result read as UTF-8, so `"\xC3\xA9"` gives `é` as in PHP. `$name`, `${…}` and `{$…}` interpolate.
 */
export function scanDoubleQuoted(src: string, from: number, quote: '"' | '`'): QuotedString {
  const bytes = new ByteBuilder();
  let dynamic = false;
  let i = from;
  while (i < src.length) {
    const c = src[i];
    if (c === quote) return { end: i + 1, value: bytes.toString(), dynamic };
    if (c === '\\') {
      i = decodeEscape(src, i, quote, bytes);
    } else if (c === '$' && (src[i + 1] === '{' || IDENT_START.test(src[i + 1] ?? ''))) {
      dynamic = true;
      i++;
    } else if (c === '{' && src[i + 1] === '$') {
      dynamic = true;
      i = skipComplexInterpolation(src, i);
    } else {
      bytes.text(c);
      i++;
    }
  }
  return { end: i, value: bytes.toString(), dynamic };
}

/**
 * Skips `{$expr}` inside a double-quoted string. The expression may hold quoted strings, which may
 * hold `{$…}` again: what encloses the position is kept on a stack rather than in recursive calls, so
 * nesting thousands deep costs no call stack.
 */
function skipComplexInterpolation(src: string, open: number): number {
  // Each entry is an open `{$…}` (with the braces it has seen) or a double-quoted string inside one.
  const stack: Array<{ braces: number } | 'string'> = [{ braces: 0 }];
  let i = open;
  while (i < src.length) {
    const top = stack[stack.length - 1];
    const c = src[i];
    if (top === 'string') {
      if (c === '"') {
        stack.pop();
        i++;
      } else if (c === '\\') {
        // Only `\"` and `\\` can hide a character that matters here; other escapes are letters and digits.
        i += src[i + 1] === '"' || src[i + 1] === '\\' ? 2 : 1;
      } else if (c === '{' && src[i + 1] === '$') {
        stack.push({ braces: 0 });
      } else {
        i++;
      }
      continue;
    }
    if (c === '{') top.braces++;
    else if (c === '}' && --top.braces === 0) {
      stack.pop();
      if (stack.length === 0) return i + 1;
    } else if (c === "'") {
      i = scanSingleQuoted(src, i).end;
      continue;
    } else if (c === '"') {
      stack.push('string');
    }
    i++;
  }
  return i;
}

/** Decodes one backslash escape at `src[i]` into `out`; returns the index after it. */
export function decodeEscape(src: string, i: number, quote: '"' | '`' | null, out: ByteBuilder): number {
  const next = src[i + 1];
  const simple: Record<string, number> = { n: 0x0a, t: 0x09, r: 0x0d, v: 0x0b, e: 0x1b, f: 0x0c, '\\': 0x5c, $: 0x24 };
  if (next === undefined) {
    out.text('\\');
    return i + 1;
  }
  if (next in simple) {
    out.byte(simple[next]);
    return i + 2;
  }
  if (quote !== null && next === quote) {
    out.text(next);
    return i + 2;
  }
  const octal = /^[0-7]{1,3}/.exec(src.slice(i + 1, i + 4));
  if (octal) {
    out.byte(parseInt(octal[0], 8) & 0xff);
    return i + 1 + octal[0].length;
  }
  if (next === 'x') {
    const hex = /^[0-9A-Fa-f]{1,2}/.exec(src.slice(i + 2, i + 4));
    if (hex) {
      out.byte(parseInt(hex[0], 16));
      return i + 2 + hex[0].length;
    }
  }
  if (next === 'u') {
    const cp = /^\{([0-9A-Fa-f]+)\}/.exec(src.slice(i + 2, i + 12));
    if (cp && parseInt(cp[1], 16) <= 0x10ffff) {
      out.text(String.fromCodePoint(parseInt(cp[1], 16)));
      return i + 2 + cp[0].length;
    }
  }
  // Unknown escapes stay as written, backslash included.
  out.text('\\');
  return i + 1;
}

/** PHP strings are bytes; escapes may produce any byte, so build bytes and decode UTF-8 at the end. */
export class ByteBuilder {
  private readonly parts: Buffer[] = [];
  private pending = '';

  text(s: string): void {
    this.pending += s;
  }

  byte(b: number): void {
    this.flush();
    this.parts.push(Buffer.from([b]));
  }

  toString(): string {
    this.flush();
    return Buffer.concat(this.parts).toString('utf8');
  }

  private flush(): void {
    if (this.pending) {
      this.parts.push(Buffer.from(this.pending, 'utf8'));
      this.pending = '';
    }
  }
}
