/**
 * Token-level helpers for the wp-config statement reader: the arguments of a call, the rest of a statement
 * up to its `;`, and the PHP source of a token run (kept for values that cannot be evaluated).
 */
import { Token } from './token';

/** Splits the arguments of a call whose `(` is at `open`; returns them and the index after `)`. */
export function callArguments(tokens: Token[], open: number): { args: Token[][]; end: number } | undefined {
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
