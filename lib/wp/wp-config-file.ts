/**
 * Reads a WordPress wp-config.php without running PHP.
 *
 * The file is tokenized like PHP would (inline HTML outside `<?php … ?>`, `//` `#` `/* *\/` comments,
 * single/double-quoted strings, heredoc/nowdoc, numbers), and only two kinds of statement are understood:
 *
 * - `define( 'NAME', <value> )` (any case, optionally `\define`): the value is evaluated when it is made of
 *   literals (strings, numbers, true/false/null), `.` concatenation, `+ - * / %` on numbers, parentheses and
 *   references to constants already read from the same file. Anything else (`getenv('X')`, `__DIR__ . '/'`,
 *   `$var`, `"interpolated $x"`) is **dynamic**: the name is still recorded in `constants` with the value
 *   `null` (so `name in constants` answers PHP's `defined()`), and the PHP source of the value is kept in
 *   `dynamic[name]` so callers can tell a literal `null` from a value we could not compute.
 * - `$table_prefix = <value>;` (and `.=` on it), evaluated the same way.
 *
 * Control flow is not executed: a define inside `if ( ! defined( 'X' ) ) { … }` counts as defined. When one
 * constant is defined more than once, PHP keeps the first definition that runs; we approximate "runs" by
 * preferring the first top-level definition (outside any `{ … }` block) and otherwise the first nested one.
 * For `$table_prefix` the last top-level assignment wins, else the first nested one (so the common
 * `if ( ! isset( $table_prefix ) ) { $table_prefix = 'wp_'; }` fallback does not override a real value).
 * Included files (`require_once`) are not followed. `#` always starts a comment, as in PHP 7 (PHP 8 would read
 * `#[` as an attribute, which has no place in a wp-config file).
 */
import * as fs from 'node:fs';

export type WpConfigValue = string | number | boolean | null;

export interface WpConfigFile {
  /** The path the source came from, used in error messages. */
  file: string;
  /** Every constant the file defines. Dynamic (not computable) values are `null`; see `dynamic`. */
  constants: Record<string, WpConfigValue>;
  /** `$table_prefix` if assigned a computable value; `undefined` if never assigned or dynamic. */
  tablePrefix: string | undefined;
  /**
   * Names (constants, or `$table_prefix`) whose value could not be computed without running PHP,
   * mapped to the PHP source of that value. Optional so hand-built configs need not carry it.
   */
  dynamic?: Record<string, string>;
}

export interface DbHostParts {
  host?: string;
  port?: number;
  socketPath?: string;
  /**
   * True when PHP's mysqli would connect through its default Unix socket: no socket in DB_HOST and the
   * host is `localhost` or empty (mysqli ignores a port then). The caller picks the socket with
   * `resolveLocalhostSocket()` and falls back to TCP 127.0.0.1 (see `connectionTarget()`).
   */
  defaultSocket?: boolean;
}

export interface WpSalts {
  AUTH_KEY: string;
  SECURE_AUTH_KEY: string;
  LOGGED_IN_KEY: string;
  NONCE_KEY: string;
  AUTH_SALT: string;
  SECURE_AUTH_SALT: string;
  LOGGED_IN_SALT: string;
  NONCE_SALT: string;
}

export interface WpDbConfig extends DbHostParts {
  user: string;
  password: string;
  database: string;
  /** DB_CHARSET lower-cased; missing or empty → `utf8mb4`; `utf8` → `utf8mb4` (wpdb::determine_charset). */
  charset: string;
}

export interface WpSiteConfig {
  file: string;
  db: WpDbConfig;
  tablePrefix: string;
  salts: WpSalts;
  multisite: boolean;
}

/** The eight secret constants every site must define, in wp-config-sample.php order. */
export const SALT_NAMES = [
  'AUTH_KEY',
  'SECURE_AUTH_KEY',
  'LOGGED_IN_KEY',
  'NONCE_KEY',
  'AUTH_SALT',
  'SECURE_AUTH_SALT',
  'LOGGED_IN_SALT',
  'NONCE_SALT',
] as const satisfies readonly (keyof WpSalts)[];

/** The placeholder wp-config-sample.php ships with; WordPress treats a key holding it as unusable. */
export const PLACEHOLDER_PHRASE = 'put your unique phrase here';

/** Where PHP's mysqli finds "localhost", in the order we try them (Debian/Ubuntu, older layouts, mysqlnd default). */
export const DEFAULT_MYSQL_SOCKETS = ['/run/mysqld/mysqld.sock', '/var/run/mysqld/mysqld.sock', '/tmp/mysql.sock'] as const;

// ---------------------------------------------------------------------------------------------------------
// Tokenizer

type TokenKind = 'string' | 'number' | 'ident' | 'variable' | 'punct' | 'opaque';

interface Token {
  kind: TokenKind;
  /** string: the decoded value; number: unused; ident/variable/punct: the text (variable without `$`). */
  text: string;
  num?: number;
  /** Offsets in the source, for quoting dynamic expressions. */
  start: number;
  end: number;
}

const IDENT_START = /[A-Za-z_\u0080-\uffff]/;
const IDENT_REST = /[A-Za-z0-9_\u0080-\uffff]/;
const NUMBER_RE = /0[xX][0-9a-fA-F]+(?:_[0-9a-fA-F]+)*|0[bB][01]+(?:_[01]+)*|0[oO][0-7]+(?:_[0-7]+)*|(?:\d+(?:_\d+)*(?:\.(?:\d+(?:_\d+)*)?)?|\.\d+(?:_\d+)*)(?:[eE][+-]?\d+(?:_\d+)*)?/y;
const OPEN_TAG_RE = /<\?(?:php(?=\s|$)|=)/gi;
const HEREDOC_RE = /<<<[ \t]*(["']?)([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)\1\r?\n/y;
const OPERATORS = [
  '<=>', '**=', '...', '<<=', '>>=', '===', '!==', '??=', '?->',
  '->', '::', '=>', '==', '!=', '<>', '<=', '>=', '&&', '||', '??', '++', '--', '+=', '-=', '*=', '/=', '.=',
  '%=', '&=', '|=', '^=', '<<', '>>', '**',
];

interface QuotedString {
  end: number;
  value: string;
  /** True when the string interpolates variables, so its value depends on runtime state. */
  dynamic: boolean;
}

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = src.length;

  /** Skips inline HTML up to and including the next open tag; returns false at end of input. */
  const enterPhp = (): boolean => {
    OPEN_TAG_RE.lastIndex = i;
    const m = OPEN_TAG_RE.exec(src);
    if (!m) {
      i = n;
      return false;
    }
    i = m.index + m[0].length;
    return true;
  };

  if (!enterPhp()) return tokens;
  while (i < n) {
    const c = src[i];
    const start = i;
    let heredoc: QuotedString | undefined;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '?' && src[i + 1] === '>') {
      // A close tag ends the statement, then we are back in inline HTML.
      tokens.push({ kind: 'punct', text: ';', start, end: i + 2 });
      i += 2;
      if (!enterPhp()) break;
    } else if (c === '#' || (c === '/' && src[i + 1] === '/')) {
      // Line comment: ends at a newline or just before `?>`, as in PHP.
      while (i < n && src[i] !== '\n' && src[i] !== '\r' && !(src[i] === '?' && src[i + 1] === '>')) i++;
    } else if (c === '/' && src[i + 1] === '*') {
      const close = src.indexOf('*/', i + 2);
      i = close < 0 ? n : close + 2;
    } else if (c === "'") {
      const s = scanSingleQuoted(src, i);
      tokens.push({ kind: 'string', text: s.value, start, end: s.end });
      i = s.end;
    } else if (c === '"' || c === '`') {
      const s = scanDoubleQuoted(src, i + 1, c);
      // Backticks run a shell command: never a literal.
      const kind = s.dynamic || c === '`' ? 'opaque' : 'string';
      tokens.push({ kind, text: s.value, start, end: s.end });
      i = s.end;
    } else if (c === '<' && src.startsWith('<<<', i) && (heredoc = scanHeredoc(src, i))) {
      tokens.push({ kind: heredoc.dynamic ? 'opaque' : 'string', text: heredoc.value, start, end: heredoc.end });
      i = heredoc.end;
    } else if (c === '$' && i + 1 < n && IDENT_START.test(src[i + 1])) {
      i++;
      while (i < n && IDENT_REST.test(src[i])) i++;
      tokens.push({ kind: 'variable', text: src.slice(start + 1, i), start, end: i });
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1] ?? ''))) {
      NUMBER_RE.lastIndex = i;
      const m = NUMBER_RE.exec(src)!;
      i += m[0].length;
      tokens.push({ kind: 'number', text: m[0], num: phpNumber(m[0]), start, end: i });
    } else if (IDENT_START.test(c)) {
      while (i < n && IDENT_REST.test(src[i])) i++;
      tokens.push({ kind: 'ident', text: src.slice(start, i), start, end: i });
    } else {
      const op = OPERATORS.find((o) => src.startsWith(o, i)) ?? c;
      i += op.length;
      tokens.push({ kind: 'punct', text: op, start, end: i });
    }
  }
  return tokens;
}

/** `'…'`: only `\'` and `\\` are escapes. An unterminated string runs to the end of the input. */
function scanSingleQuoted(src: string, open: number): QuotedString {
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
function scanDoubleQuoted(src: string, from: number, quote: '"' | '`'): QuotedString {
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

/** Skips `{$expr}` inside a double-quoted string; the expression may itself contain quoted strings. */
function skipComplexInterpolation(src: string, open: number): number {
  let depth = 0;
  let i = open;
  while (i < src.length) {
    const c = src[i];
    if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i + 1;
    else if (c === "'") {
      i = scanSingleQuoted(src, i).end;
      continue;
    } else if (c === '"') {
      i = scanDoubleQuoted(src, i + 1, '"').end;
      continue;
    }
    i++;
  }
  return i;
}

/** Decodes one backslash escape at `src[i]` into `out`; returns the index after it. */
function decodeEscape(src: string, i: number, quote: '"' | '`' | null, out: ByteBuilder): number {
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

/** `<<<ID` / `<<<"ID"` (heredoc) or `<<<'ID'` (nowdoc), PHP 7.3 flexible closing marker. */
function scanHeredoc(src: string, at: number): QuotedString | undefined {
  HEREDOC_RE.lastIndex = at;
  const m = HEREDOC_RE.exec(src);
  if (!m) return undefined;
  const nowdoc = m[1] === "'";
  const id = m[2];
  const bodyStart = at + m[0].length;
  const closeRe = new RegExp(`^([ \\t]*)${id}(?![A-Za-z0-9_\\u0080-\\uffff])`);
  let lineStart = bodyStart;
  while (lineStart <= src.length) {
    const close = closeRe.exec(src.slice(lineStart, lineStart + id.length + 200));
    if (close) {
      const indent = close[1];
      const raw = lineStart > bodyStart ? src.slice(bodyStart, lineStart).replace(/\r?\n$/, '') : '';
      const lines = raw.split('\n').map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line.trimStart()));
      const body = lines.join('\n');
      const end = lineStart + close[0].length;
      if (nowdoc) return { end, value: body, dynamic: false };
      return { ...decodeHeredocBody(body), end };
    }
    const nl = src.indexOf('\n', lineStart);
    if (nl < 0) break;
    lineStart = nl + 1;
  }
  return undefined;
}

function decodeHeredocBody(body: string): { value: string; dynamic: boolean } {
  const bytes = new ByteBuilder();
  let dynamic = false;
  let i = 0;
  while (i < body.length) {
    const c = body[i];
    if (c === '\\') {
      i = decodeEscape(body, i, null, bytes);
    } else if ((c === '$' && (body[i + 1] === '{' || IDENT_START.test(body[i + 1] ?? ''))) || (c === '{' && body[i + 1] === '$')) {
      dynamic = true;
      i++;
    } else {
      bytes.text(c);
      i++;
    }
  }
  return { value: bytes.toString(), dynamic };
}

/** PHP strings are bytes; escapes may produce any byte, so build bytes and decode UTF-8 at the end. */
class ByteBuilder {
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

function phpNumber(text: string): number {
  const t = text.replace(/_/g, '');
  if (/^0[xX]/.test(t)) return parseInt(t.slice(2), 16);
  if (/^0[bB]/.test(t)) return parseInt(t.slice(2), 2);
  if (/^0[oO]/.test(t)) return parseInt(t.slice(2), 8);
  if (/^0[0-9]+$/.test(t)) return parseInt(t, 8);
  return Number(t);
}

// ---------------------------------------------------------------------------------------------------------
// Expressions

class DynamicValue extends Error {}

/** PHP's string conversion, as `.` applies it. Floats use `precision=14` like PHP's echo. */
export function phpToString(v: WpConfigValue): string {
  if (typeof v === 'string') return v;
  if (v === true) return '1';
  if (v === false || v === null) return '';
  if (Number.isInteger(v) && Math.abs(v) < 1e15) return String(v);
  if (!Number.isFinite(v)) return Number.isNaN(v) ? 'NAN' : v > 0 ? 'INF' : '-INF';
  const rounded = Number(v.toPrecision(14));
  const [mantissa, expText] = rounded.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 15) {
    const m = mantissa.includes('.') ? mantissa : `${mantissa}.0`;
    return `${m}E${exp < 0 ? '-' : '+'}${Math.abs(exp)}`;
  }
  return String(rounded);
}

/** PHP truthiness of a scalar. */
export function phpTruthy(v: WpConfigValue): boolean {
  return !(v === false || v === null || v === 0 || v === '' || v === '0');
}

/**
 * Evaluates a constant expression made of literals, `.`, arithmetic on numbers, parentheses and known
 * constants. Throws DynamicValue for anything else.
 */
function evaluate(tokens: Token[], known: (name: string) => WpConfigValue | undefined): WpConfigValue {
  let pos = 0;
  const peek = (): Token | undefined => tokens[pos];
  const isPunct = (text: string): boolean => peek()?.kind === 'punct' && peek()!.text === text;
  const numeric = (v: WpConfigValue): number => {
    if (typeof v !== 'number') throw new DynamicValue();
    return v;
  };

  const concat = (): WpConfigValue => {
    let left = additive();
    while (isPunct('.')) {
      pos++;
      left = phpToString(left) + phpToString(additive());
    }
    return left;
  };
  const additive = (): WpConfigValue => {
    let left = multiplicative();
    while (isPunct('+') || isPunct('-')) {
      const op = tokens[pos++].text;
      const right = numeric(multiplicative());
      left = op === '+' ? numeric(left) + right : numeric(left) - right;
    }
    return left;
  };
  const multiplicative = (): WpConfigValue => {
    let left = unary();
    while (isPunct('*') || isPunct('/') || isPunct('%')) {
      const op = tokens[pos++].text;
      const a = numeric(left);
      const b = numeric(unary());
      if (op === '*') left = a * b;
      else if (b === 0) throw new DynamicValue(); // DivisionByZeroError at runtime
      else if (op === '/') left = a / b;
      else left = Math.trunc(a) % Math.trunc(b);
    }
    return left;
  };
  const unary = (): WpConfigValue => {
    if (isPunct('-') || isPunct('+')) {
      const op = tokens[pos++].text;
      const v = numeric(unary());
      return op === '-' ? -v : v;
    }
    return primary();
  };
  const primary = (): WpConfigValue => {
    const t = tokens[pos++];
    if (!t) throw new DynamicValue();
    if (t.kind === 'string') return t.text;
    if (t.kind === 'number') return t.num!;
    if (t.kind === 'punct' && t.text === '(') {
      const v = concat();
      if (!isPunct(')')) throw new DynamicValue();
      pos++;
      return v;
    }
    let ident = t;
    if (t.kind === 'punct' && t.text === '\\' && peek()?.kind === 'ident') ident = tokens[pos++];
    if (ident.kind === 'ident' && !isPunct('(') && !isPunct('::') && !isPunct('\\')) {
      const lower = ident.text.toLowerCase();
      if (lower === 'true') return true;
      if (lower === 'false') return false;
      if (lower === 'null') return null;
      const v = known(ident.text);
      if (v !== undefined) return v;
    }
    throw new DynamicValue();
  };

  const value = concat();
  if (pos !== tokens.length) throw new DynamicValue();
  return value;
}

// ---------------------------------------------------------------------------------------------------------
// Statements

/** Splits the arguments of a call whose `(` is at `open`; returns them and the index after `)`. */
function callArguments(tokens: Token[], open: number): { args: Token[][]; end: number } | undefined {
  const args: Token[][] = [[]];
  let depth = 0;
  for (let k = open + 1; k < tokens.length; k++) {
    const t = tokens[k];
    if (t.kind === 'punct') {
      if (t.text === '(' || t.text === '[' || t.text === '{') depth++;
      else if (t.text === ')' || t.text === ']' || t.text === '}') {
        if (depth === 0) return t.text === ')' ? { args, end: k + 1 } : undefined;
        depth--;
      } else if (t.text === ',' && depth === 0) {
        args.push([]);
        continue;
      } else if (t.text === ';' && depth === 0) return undefined;
    }
    args[args.length - 1].push(t);
  }
  return undefined;
}

/** Tokens of an expression from `from` up to the `;` that ends the statement (not included). */
function statementRest(tokens: Token[], from: number): Token[] {
  const out: Token[] = [];
  let depth = 0;
  for (let k = from; k < tokens.length; k++) {
    const t = tokens[k];
    if (t.kind === 'punct') {
      if (t.text === '(' || t.text === '[' || t.text === '{') depth++;
      else if (t.text === ')' || t.text === ']' || t.text === '}') {
        if (depth === 0) break;
        depth--;
      } else if (t.text === ';' && depth === 0) break;
    }
    out.push(t);
  }
  return out;
}

function sourceOf(src: string, tokens: Token[]): string {
  if (tokens.length === 0) return '';
  return src.slice(tokens[0].start, tokens[tokens.length - 1].end).replace(/\s+/g, ' ');
}

/** Parses wp-config.php source. `file` is only used to label the result. Never throws on odd PHP. */
export function parseWpConfig(source: string, file: string): WpConfigFile {
  const tokens = tokenize(source);
  const constants: Record<string, WpConfigValue> = Object.create(null);
  const dynamic: Record<string, string> = Object.create(null);
  const topLevel = new Set<string>();
  const known = (name: string): WpConfigValue | undefined =>
    name in constants && !(name in dynamic) ? constants[name] : undefined;

  // `$table_prefix`: a top-level `=` always runs, so the last one wins and `.=` appends to it; a nested
  // `=` (inside some `{ … }`) only counts while nothing else has been recorded; a nested `.=` is ignored.
  let prefix: { value: string | undefined; dynamicSource?: string } | undefined;
  const assignPrefix = (exprTokens: Token[], append: boolean, atTop: boolean): void => {
    if (!atTop && (append || prefix)) return;
    if (append && prefix?.dynamicSource !== undefined) return; // still dynamic
    let value: string | undefined;
    try {
      const v = evaluate(exprTokens, known);
      value = v === null ? undefined : phpToString(v);
    } catch (e) {
      if (!(e instanceof DynamicValue)) throw e;
      const expr = sourceOf(source, exprTokens);
      prefix = { value: undefined, dynamicSource: append ? `… .= ${expr}` : expr };
      return;
    }
    prefix = { value: append ? (prefix?.value ?? '') + (value ?? '') : value };
  };

  let depth = 0;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    const prev = tokens[k - 1];
    if (t.kind === 'punct') {
      if (t.text === '{') depth++;
      else if (t.text === '}') depth = Math.max(0, depth - 1);
      continue;
    }
    const afterMember = prev?.kind === 'punct' && (prev.text === '->' || prev.text === '?->' || prev.text === '::');
    if (
      t.kind === 'ident' &&
      t.text.toLowerCase() === 'define' &&
      tokens[k + 1]?.kind === 'punct' &&
      tokens[k + 1].text === '(' &&
      !afterMember &&
      !(prev?.kind === 'ident' && /^(function|new|const|fn)$/i.test(prev.text))
    ) {
      const call = callArguments(tokens, k + 1);
      if (!call || call.args.length < 2) continue;
      let name: WpConfigValue;
      try {
        name = evaluate(call.args[0], known);
      } catch (e) {
        if (!(e instanceof DynamicValue)) throw e;
        continue;
      }
      if (typeof name !== 'string' || name === '') continue;
      const atTop = depth === 0;
      if (name in constants && (topLevel.has(name) || !atTop)) continue; // an earlier definition stands
      try {
        constants[name] = evaluate(call.args[1], known);
        delete dynamic[name];
      } catch (e) {
        if (!(e instanceof DynamicValue)) throw e;
        constants[name] = null;
        dynamic[name] = sourceOf(source, call.args[1]);
      }
      if (atTop) topLevel.add(name);
      k = call.end - 1;
    } else if (t.kind === 'variable' && t.text === 'table_prefix' && !afterMember) {
      const op = tokens[k + 1];
      if (op?.kind === 'punct' && (op.text === '=' || op.text === '.=')) {
        const expr = statementRest(tokens, k + 2);
        assignPrefix(expr, op.text === '.=', depth === 0);
        k += 1 + expr.length;
      }
    }
  }

  if (prefix?.dynamicSource !== undefined) dynamic.$table_prefix = prefix.dynamicSource;
  return {
    file,
    constants: { ...constants },
    tablePrefix: prefix?.value,
    dynamic: { ...dynamic },
  };
}

/** Reads and parses a wp-config.php (UTF-8). Throws with the path in the message if it cannot be read. */
export function readWpConfig(file: string): WpConfigFile {
  let source: string;
  try {
    source = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`${file}: cannot read wp-config file: ${(e as Error).message}`, { cause: e });
  }
  return parseWpConfig(source, file);
}

// ---------------------------------------------------------------------------------------------------------
// DB_HOST

/**
 * Splits DB_HOST the way wpdb::parse_db_host does:
 * - a socket is whatever follows the first `:/` (`localhost:/run/mysqld/mysqld.sock`);
 * - the rest is `host[:port]`; with more than one `:` it is IPv6, optionally `[addr]:port` (brackets dropped);
 * - the port is the leading digits after `:` (anything after them is ignored; port 0 means no port).
 * `defaultSocket` is set when mysqli would use its default socket (host `localhost` or empty, no socket).
 * Throws only where WordPress gives up (an IPv6-looking value that is not an address).
 */
export function parseDbHost(dbHost: string): DbHostParts {
  let rest = dbHost;
  let socketPath: string | undefined;
  const socketAt = rest.indexOf(':/');
  if (socketAt >= 0) {
    socketPath = rest.slice(socketAt + 1);
    rest = rest.slice(0, socketAt);
  }

  let host: string;
  let portText: string | undefined;
  if ((rest.match(/:/g) ?? []).length > 1) {
    const m = /^\[?([0-9a-fA-F:]+)(?:\]:(\d+))?/.exec(rest);
    if (!m) throw new Error(`DB_HOST '${dbHost}' is neither host[:port], [IPv6]:port nor host:/socket`);
    host = m[1];
    portText = m[2];
  } else {
    const m = /^([^:/]*)(?::(\d+))?/.exec(rest)!;
    host = m[1];
    portText = m[2];
  }

  const out: DbHostParts = {};
  if (host !== '') out.host = host;
  const port = portText === undefined ? 0 : parseInt(portText, 10);
  if (port > 0) out.port = port;
  if (socketPath !== undefined) out.socketPath = socketPath;
  else if (host === '' || host.toLowerCase() === 'localhost') out.defaultSocket = true;
  return out;
}

/**
 * The Unix socket mysqli would use for `localhost`: the first of DEFAULT_MYSQL_SOCKETS that exists,
 * or `undefined` (then connect over TCP to 127.0.0.1).
 */
export function resolveLocalhostSocket(exists: (path: string) => boolean = fs.existsSync): string | undefined {
  return DEFAULT_MYSQL_SOCKETS.find((p) => exists(p));
}

/** Where to connect for parsed DB_HOST parts: a socket path, or TCP host and port (default 3306). */
export function connectionTarget(
  parts: DbHostParts,
  exists: (path: string) => boolean = fs.existsSync,
): { socketPath: string } | { host: string; port: number } {
  if (parts.socketPath) return { socketPath: parts.socketPath };
  if (parts.defaultSocket) {
    const socketPath = resolveLocalhostSocket(exists);
    if (socketPath) return { socketPath };
    return { host: '127.0.0.1', port: parts.port ?? 3306 };
  }
  return { host: parts.host ?? '127.0.0.1', port: parts.port ?? 3306 };
}

// ---------------------------------------------------------------------------------------------------------
// Site configuration

/** Values never shown in error messages. */
const SECRET_NAMES = new Set<string>(['DB_PASSWORD', ...SALT_NAMES, 'SECRET_KEY', 'SECRET_SALT']);

/**
 * Checks a parsed wp-config and turns it into what Understudy needs. Throws one Error naming the file and
 * every problem: `<file>: missing A, B (placeholder …); cannot evaluate C (getenv(…)); invalid D (…)`.
 * Keys that are empty, still the sample placeholder, or equal to another KEY/SALT constant (all holders of
 * a shared value) are unusable to WordPress and reported as missing.
 */
export function siteConfigFromWpConfig(cfg: WpConfigFile): WpSiteConfig {
  const missing: string[] = [];
  const unevaluable: string[] = [];
  const invalid: string[] = [];
  const dynamic = cfg.dynamic ?? {};
  const has = (name: string): boolean => Object.prototype.hasOwnProperty.call(cfg.constants, name);
  const isDynamic = (name: string): boolean => Object.prototype.hasOwnProperty.call(dynamic, name);
  const describeDynamic = (name: string): string =>
    SECRET_NAMES.has(name) ? `${name} (computed at runtime)` : `${name} (${dynamic[name]})`;

  /** The constant as PHP would use it as a string, or undefined (after recording why) if unusable. */
  const stringConstant = (name: string, allowNull: boolean): string | undefined => {
    if (!has(name)) {
      missing.push(name);
      return undefined;
    }
    if (isDynamic(name)) {
      unevaluable.push(describeDynamic(name));
      return undefined;
    }
    const v = cfg.constants[name];
    if (v === null && !allowNull) {
      missing.push(`${name} (defined as null)`);
      return undefined;
    }
    return phpToString(v);
  };

  const database = stringConstant('DB_NAME', false);
  const user = stringConstant('DB_USER', false);
  const password = stringConstant('DB_PASSWORD', true); // null or '' means "no password" to mysqli
  const dbHost = stringConstant('DB_HOST', false);
  let hostParts: DbHostParts = {};
  if (dbHost !== undefined) {
    try {
      hostParts = parseDbHost(dbHost);
    } catch (e) {
      invalid.push((e as Error).message);
    }
  }

  let charset = 'utf8mb4';
  if (has('DB_CHARSET')) {
    if (isDynamic('DB_CHARSET')) unevaluable.push(describeDynamic('DB_CHARSET'));
    else {
      const raw = phpToString(cfg.constants.DB_CHARSET).trim().toLowerCase();
      charset = raw === '' || raw === 'utf8' ? 'utf8mb4' : raw;
    }
  }

  // Salts: WordPress compares all ten KEY/SALT constants (the eight plus legacy SECRET_KEY/SECRET_SALT).
  const keyValues = new Map<string, string>();
  for (const name of [...SALT_NAMES, 'SECRET_KEY', 'SECRET_SALT']) {
    if (has(name) && !isDynamic(name)) keyValues.set(name, phpToString(cfg.constants[name]));
  }
  const salts: Partial<WpSalts> = {};
  for (const name of SALT_NAMES) {
    if (!has(name)) {
      missing.push(name);
      continue;
    }
    if (isDynamic(name)) {
      unevaluable.push(describeDynamic(name));
      continue;
    }
    const value = keyValues.get(name)!;
    if (value === '') {
      missing.push(`${name} (empty)`);
    } else if (value === PLACEHOLDER_PHRASE) {
      missing.push(`${name} (placeholder '${PLACEHOLDER_PHRASE}')`);
    } else {
      const twins = [...keyValues].filter(([other, v]) => other !== name && v === value).map(([other]) => other);
      if (twins.length > 0) missing.push(`${name} (same value as ${twins.join(', ')})`);
      else salts[name] = value;
    }
  }

  let tablePrefix = cfg.tablePrefix;
  if (Object.prototype.hasOwnProperty.call(dynamic, '$table_prefix')) {
    unevaluable.push(`$table_prefix (${dynamic.$table_prefix})`);
  } else if (tablePrefix === undefined) {
    missing.push('$table_prefix');
  } else if (/[^A-Za-z0-9_]/.test(tablePrefix)) {
    invalid.push(`$table_prefix '${tablePrefix}' (only A-Z, a-z, 0-9 and _ are allowed)`);
  }

  // is_multisite(): MULTISITE if defined, else any of SUBDOMAIN_INSTALL, VHOST, SUNRISE being defined.
  let multisite = false;
  if (has('MULTISITE')) {
    if (isDynamic('MULTISITE')) unevaluable.push(describeDynamic('MULTISITE'));
    else multisite = phpTruthy(cfg.constants.MULTISITE);
  } else {
    multisite = has('SUBDOMAIN_INSTALL') || has('VHOST') || has('SUNRISE');
  }

  const problems: string[] = [];
  if (missing.length) problems.push(`missing ${missing.join(', ')}`);
  if (unevaluable.length) problems.push(`cannot evaluate ${unevaluable.join(', ')}`);
  if (invalid.length) problems.push(`invalid ${invalid.join(', ')}`);
  if (problems.length) throw new Error(`${cfg.file}: ${problems.join('; ')}`);

  return {
    file: cfg.file,
    db: { ...hostParts, user: user!, password: password!, database: database!, charset },
    tablePrefix: tablePrefix!,
    salts: salts as WpSalts,
    multisite,
  };
}

