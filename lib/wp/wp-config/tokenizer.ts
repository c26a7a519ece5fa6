/**
 * The wp-config tokenizer: splits the file like PHP would (inline HTML outside `<?php … ?>`, `//` `#` `/* *\/`
 * comments, single/double-quoted strings, heredoc/nowdoc, numbers) into the tokens the statement reader
 * walks. `#` always starts a comment, as in PHP 7. String literals are scanned by strings.ts and heredoc.ts.
 */
import { ClosingMarkers, scanHeredoc } from './heredoc';
import { QuotedString, scanDoubleQuoted, scanSingleQuoted } from './strings';
import { IDENT_REST, IDENT_START, Token } from './token';

const NUMBER_RE = /0[xX][0-9a-fA-F]+(?:_[0-9a-fA-F]+)*|0[bB][01]+(?:_[01]+)*|0[oO][0-7]+(?:_[0-7]+)*|(?:\d+(?:_\d+)*(?:\.(?:\d+(?:_\d+)*)?)?|\.\d+(?:_\d+)*)(?:[eE][+-]?\d+(?:_\d+)*)?/y;
const OPEN_TAG_RE = /<\?(?:php(?=\s|$)|=)/gi;
const OPERATORS = [
  '<=>', '**=', '...', '<<=', '>>=', '===', '!==', '??=', '?->',
  '->', '::', '=>', '==', '!=', '<>', '<=', '>=', '&&', '||', '??', '++', '--', '+=', '-=', '*=', '/=', '.=',
  '%=', '&=', '|=', '^=', '<<', '>>', '**',
];

export function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = src.length;
  // Indexed on the first heredoc, for all of them.
  let markers: ClosingMarkers | undefined;

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
    } else if (c === '<' && src.startsWith('<<<', i) && (heredoc = scanHeredoc(src, i, (markers ??= new ClosingMarkers(src))))) {
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

function phpNumber(text: string): number {
  const t = text.replace(/_/g, '');
  if (/^0[xX]/.test(t)) return parseInt(t.slice(2), 16);
  if (/^0[bB]/.test(t)) return parseInt(t.slice(2), 2);
  if (/^0[oO]/.test(t)) return parseInt(t.slice(2), 8);
  if (/^0[0-9]+$/.test(t)) return parseInt(t, 8);
  return Number(t);
}
