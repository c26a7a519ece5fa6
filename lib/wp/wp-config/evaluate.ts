/**
 * The constant-expression evaluator for wp-config values: literals, `.`, arithmetic on numbers, parentheses
 * and constants already read. Anything it cannot compute without running PHP throws DynamicValue, which the
 * parser turns into a "dynamic" entry.
 */
import { Token } from './token';
import { WpConfigValue } from './types';
import { phpToString } from './values';

export class DynamicValue extends Error {}

/**
 * Parentheses and unary signs nested deeper than this are not evaluated (the value counts as dynamic),
 * so that a pathological file cannot exhaust the call stack of this recursive-descent evaluator.
 */
export const MAX_EXPRESSION_NESTING = 256;

/**
 * Evaluates a constant expression made of literals, `.`, arithmetic on numbers, parentheses and known
 * constants. Throws DynamicValue for anything else.
 */
export function evaluate(tokens: Token[], known: (name: string) => WpConfigValue | undefined): WpConfigValue {
  let pos = 0;
  let nesting = 0;
  const nest = (): void => {
    if (++nesting > MAX_EXPRESSION_NESTING) throw new DynamicValue();
  };
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
      nest();
      const v = numeric(unary());
      nesting--;
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
      nest();
      const v = concat();
      if (!isPunct(')')) throw new DynamicValue();
      pos++;
      nesting--;
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
