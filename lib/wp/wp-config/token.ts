/**
 * The token shape of the wp-config tokenizer, and the identifier character classes shared by the
 * tokenizer and the string scanners (for `$name` interpolation). Its own module so the evaluator and the
 * statement reader can use tokens without depending on how they are scanned.
 */
type TokenKind = 'string' | 'number' | 'ident' | 'variable' | 'punct' | 'opaque';

export interface Token {
  kind: TokenKind;
  /** string: the decoded value; number: unused; ident/variable/punct: the text (variable without `$`). */
  text: string;
  num?: number;
  /** Offsets in the source, for quoting dynamic expressions. */
  start: number;
  end: number;
}

export const IDENT_START = /[A-Za-z_\u0080-\uffff]/;
export const IDENT_REST = /[A-Za-z0-9_\u0080-\uffff]/;
