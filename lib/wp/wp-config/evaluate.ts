/**
 * The constant-expression evaluator for wp-config values: literals, `.`, arithmetic on numbers, parentheses,
 * constants already read, array literals (`array( … )`, `[ … ]`) and the file's own place (`__FILE__`,
 * `__DIR__`, `dirname()`). Anything it cannot compute without running PHP throws DynamicValue, which the
 * parser turns into a "dynamic" entry.
 */
import path from 'node:path';
import { Token } from './token';
import { WpConfigArray, WpConfigData, WpConfigValue } from './types';
import { phpToString } from './values';

export class DynamicValue extends Error {}

/**
 * Parentheses and unary signs nested deeper than this are not evaluated (the value counts as dynamic),
 * so that a pathological file cannot exhaust the call stack of this recursive-descent evaluator.
 */
export const MAX_EXPRESSION_NESTING = 256;

/** Where the expression is evaluated: the constants read so far and the absolute path of the file, if known. */
export interface EvaluationScope {
  known: (name: string) => WpConfigValue | undefined;
  /** `__FILE__`; without it (a relative or unknown path) `__FILE__` and `__DIR__` are dynamic. */
  file?: string;
}

/** Evaluates a scalar constant expression (see evaluateData); an array counts as dynamic. */
export function evaluate(tokens: Token[], scope: EvaluationScope): WpConfigValue {
  const value = evaluateData(tokens, scope);
  if (value instanceof Map) throw new DynamicValue();
  return value;
}

/**
 * Evaluates a constant expression made of literals, `.`, arithmetic on numbers, parentheses, known
 * constants, array literals of those, `__FILE__`, `__DIR__` and `dirname()`. Throws DynamicValue for
 * anything else.
 */
export function evaluateData(tokens: Token[], scope: EvaluationScope): WpConfigData {
  const { known, file } = scope;
  let pos = 0;
  let nesting = 0;
  const nest = (): void => {
    if (++nesting > MAX_EXPRESSION_NESTING) throw new DynamicValue();
  };
  const peek = (): Token | undefined => tokens[pos];
  const isPunct = (text: string): boolean => peek()?.kind === 'punct' && peek()!.text === text;
  const numeric = (v: WpConfigData): number => {
    if (typeof v !== 'number') throw new DynamicValue();
    return v;
  };

  const scalar = (v: WpConfigData): WpConfigValue => {
    if (v instanceof Map) throw new DynamicValue(); // PHP would print "Array" with a warning
    return v;
  };
  const concat = (): WpConfigData => {
    let left = additive();
    while (isPunct('.')) {
      pos++;
      left = phpToString(scalar(left)) + phpToString(scalar(additive()));
    }
    return left;
  };
  const additive = (): WpConfigData => {
    let left = multiplicative();
    while (isPunct('+') || isPunct('-')) {
      const op = tokens[pos++].text;
      const right = numeric(multiplicative());
      left = op === '+' ? numeric(left) + right : numeric(left) - right;
    }
    return left;
  };
  const multiplicative = (): WpConfigData => {
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
  const unary = (): WpConfigData => {
    if (isPunct('-') || isPunct('+')) {
      const op = tokens[pos++].text;
      nest();
      const v = numeric(unary());
      nesting--;
      return op === '-' ? -v : v;
    }
    return primary();
  };
  const primary = (): WpConfigData => {
    const t = tokens[pos++];
    if (!t) throw new DynamicValue();
    if (t.kind === 'string') return t.text;
    if (t.kind === 'number') return t.num!;
    if (t.kind === 'punct' && t.text === '(') {
      nest();
      const v = concat();
      if (!isPunct(')')) throw new DynamicValue();
      pos++;
      nesting--;
      return v;
    }
    if (t.kind === 'punct' && t.text === '[') return arrayLiteral(']');
    let ident = t;
    if (t.kind === 'punct' && t.text === '\\' && peek()?.kind === 'ident') ident = tokens[pos++];
    if (ident.kind === 'ident' && isPunct('(')) return call(ident.text.toLowerCase());
    if (ident.kind === 'ident' && !isPunct('::') && !isPunct('\\')) {
      const lower = ident.text.toLowerCase();
      if (lower === 'true') return true;
      if (lower === 'false') return false;
      if (lower === 'null') return null;
      if (file !== undefined && ident.text === '__FILE__') return file;
      if (file !== undefined && ident.text === '__DIR__') return path.posix.dirname(file);
      const v = known(ident.text);
      if (v !== undefined) return v;
    }
    throw new DynamicValue();
  };
  /** `array( … )` and `dirname( path[, levels] )`, the only calls whose result needs no PHP. */
  const call = (name: string): WpConfigData => {
    pos++; // (
    if (name === 'array') return arrayLiteral(')');
    if (name !== 'dirname') throw new DynamicValue();
    nest();
    const [target, levels = 1] = callValues();
    nesting--;
    if (typeof target !== 'string' || typeof levels !== 'number' || !Number.isInteger(levels) || levels < 1) throw new DynamicValue();
    let dir = target;
    for (let i = 0; i < levels; i++) dir = path.posix.dirname(dir);
    return dir;
  };
  /** Comma-separated values up to `)`, consumed. */
  const callValues = (): WpConfigData[] => {
    const values: WpConfigData[] = [];
    while (!isPunct(')')) {
      values.push(concat());
      if (isPunct(',')) pos++;
      else if (!isPunct(')')) throw new DynamicValue();
    }
    pos++;
    return values;
  };
  /** An array literal's entries up to `close`, consumed, with PHP's key rules (see arrayKey). */
  const arrayLiteral = (close: ')' | ']'): WpConfigArray => {
    nest();
    const entries: WpConfigArray = new Map();
    let next = 0;
    while (!isPunct(close)) {
      let key: string | number | undefined;
      let value = concat();
      if (isPunct('=>')) {
        pos++;
        key = arrayKey(value);
        value = concat();
      }
      key ??= next;
      if (typeof key === 'number' && key >= next) next = key + 1;
      entries.set(key, value);
      if (isPunct(',')) pos++;
      else if (!isPunct(close)) throw new DynamicValue();
    }
    pos++;
    nesting--;
    return entries;
  };

  const value = concat();
  if (pos !== tokens.length) throw new DynamicValue();
  return value;
}

/** PHP's array key casts: decimal integer strings, floats and booleans become integers, null the empty string. */
function arrayKey(key: WpConfigData): string | number {
  if (key instanceof Map) throw new DynamicValue(); // "Illegal offset type"
  if (typeof key === 'string') return /^(?:0|-?[1-9][0-9]{0,17})$/.test(key) && Number.isSafeInteger(Number(key)) ? Number(key) : key;
  if (typeof key === 'number') {
    if (!Number.isFinite(key)) throw new DynamicValue();
    return Math.trunc(key);
  }
  if (typeof key === 'boolean') return key ? 1 : 0;
  return '';
}
