/**
 * Token-level helpers for the wp-config statement reader: the arguments of a call, the rest of a statement
 * up to its `;`, and the PHP source of a token run (kept for values that cannot be evaluated).
 */
import { Token } from './token';

/**
 * Where each `(`, `[` and `{` is closed (by a closing bracket of any kind, as callArguments counts them),
 * and which hold a `;` directly, worked out in one pass over the file. A call that is never closed is
 * then known at once, instead of each of thousands of unclosed `define(` scanning to the end of the file.
 */
export class Brackets {
  /** The index of the closing bracket, or -1. */
  readonly close: Int32Array;
  /** 1 when a `;` stands directly inside (not nested deeper). */
  readonly semicolon: Uint8Array;

  constructor(tokens: Token[]) {
    this.close = new Int32Array(tokens.length).fill(-1);
    this.semicolon = new Uint8Array(tokens.length);
    const open: number[] = [];
    for (let k = 0; k < tokens.length; k++) {
      const t = tokens[k];
      if (t.kind !== 'punct') continue;
      if (t.text === '(' || t.text === '[' || t.text === '{') open.push(k);
      else if (t.text === ')' || t.text === ']' || t.text === '}') {
        const opener = open.pop();
        if (opener !== undefined) this.close[opener] = k;
      } else if (t.text === ';' && open.length) this.semicolon[open[open.length - 1]] = 1;
    }
  }
}

/** Splits the arguments of a call whose `(` is at `open`; returns them and the index after `)`. */
export function callArguments(tokens: Token[], open: number, brackets?: Brackets): { args: Token[][]; end: number } | undefined {
  if (brackets) {
    const close = brackets.close[open];
    if (close < 0 || brackets.semicolon[open] || tokens[close].text !== ')') return undefined;
  }
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
export function statementRest(tokens: Token[], from: number): Token[] {
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

export function sourceOf(src: string, tokens: Token[]): string {
  if (tokens.length === 0) return '';
  return src.slice(tokens[0].start, tokens[tokens.length - 1].end).replace(/\s+/g, ' ');
}
