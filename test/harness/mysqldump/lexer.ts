/**
 * The lowest layer of the general mysqldump parser: a cursor over the SQL text with the statement
 * delimiter, skipping of whitespace and comments, words, identifiers, quoted strings, statement ends and
 * line-numbered errors. ValueReader, TableReader and DumpReader build on it, in that order.
 */
import { ESCAPES } from './literals';
import { DumpParseError } from './types';

const WORD = /[A-Za-z_][A-Za-z0-9_$]*/y;
const BARE_IDENTIFIER = /[A-Za-z0-9_$]+/y;
// The next quote or backslash inside a quoted literal; one pattern per quote character.
const SPECIAL_IN_SINGLE = /['\\]/g;
const SPECIAL_IN_DOUBLE = /["\\]/g;

export abstract class SqlLexer {
  protected pos = 0;
  protected delimiter = ';';

  constructor(protected readonly sql: string) {}

  protected fail(message: string): never {
    let line = 1;
    for (let i = this.sql.indexOf('\n'); i !== -1 && i < this.pos; i = this.sql.indexOf('\n', i + 1)) line++;
    throw new DumpParseError(message, line);
  }

  /** Skips whitespace and all comment forms (`-- `, `#`, `/* *\/`, including `/*!40101 ... *\/`). */
  protected skipSpace(): void {
    const sql = this.sql;
    for (;;) {
      const c = sql.charCodeAt(this.pos);
      if (c === 32 || c === 10 || c === 13 || c === 9 || c === 12 || c === 11) {
        this.pos++;
      } else if (c === 45 /* - */ && sql.charCodeAt(this.pos + 1) === 45 && isCommentDashEnd(sql.charCodeAt(this.pos + 2))) {
        this.skipLine();
      } else if (c === 35 /* # */) {
        this.skipLine();
      } else if (c === 47 /* / */ && sql.charCodeAt(this.pos + 1) === 42 /* * */) {
        const end = sql.indexOf('*/', this.pos + 2);
        if (end === -1) this.fail('unterminated /* comment');
        this.pos = end + 2;
      } else {
        return;
      }
    }
  }

  private skipLine(): void {
    const end = this.sql.indexOf('\n', this.pos);
    this.pos = end === -1 ? this.sql.length : end + 1;
  }

  protected peekWord(): string {
    WORD.lastIndex = this.pos;
    const m = WORD.exec(this.sql);
    return m ? m[0] : '';
  }

  protected readWord(): string {
    const word = this.peekWord();
    this.pos += word.length;
    return word;
  }

  protected expectWord(...allowed: string[]): string {
    this.skipSpace();
    const word = this.readWord().toUpperCase();
    if (!allowed.includes(word)) this.fail(`expected ${allowed.join(' or ')}`);
    return word;
  }

  protected expectChar(ch: string): void {
    this.skipSpace();
    if (this.sql[this.pos] !== ch) this.fail(`expected '${ch}'`);
    this.pos++;
  }

  /** A possibly qualified name (`db`.`t`); returns the last part. */
  protected identifier(): string {
    this.skipSpace();
    let name = this.identifierPart();
    while (this.sql[this.pos] === '.') {
      this.pos++;
      name = this.identifierPart();
    }
    return name;
  }

  protected identifierPart(): string {
    const sql = this.sql;
    if (sql[this.pos] === '`') {
      let name = '';
      let start = this.pos + 1;
      for (;;) {
        const end = sql.indexOf('`', start);
        if (end === -1) this.fail('unterminated `identifier`');
        name += sql.slice(start, end);
        if (sql[end + 1] === '`') {
          name += '`'; // doubled backtick inside a quoted identifier
          start = end + 2;
        } else {
          this.pos = end + 1;
          return name;
        }
      }
    }
    BARE_IDENTIFIER.lastIndex = this.pos;
    const m = BARE_IDENTIFIER.exec(sql);
    if (!m) this.fail('expected an identifier');
    this.pos = BARE_IDENTIFIER.lastIndex;
    return m[0];
  }

  private atDelimiter(): boolean {
    this.skipSpace();
    return this.pos >= this.sql.length || this.sql.startsWith(this.delimiter, this.pos);
  }

  protected endStatement(): void {
    if (!this.atDelimiter()) this.fail('unexpected text at the end of the statement');
    this.pos = Math.min(this.sql.length, this.pos + this.delimiter.length);
  }

  /** Moves past the next delimiter that is outside quotes and comments. */
  protected skipStatement(): void {
    const sql = this.sql;
    while (this.pos < sql.length) {
      this.skipSpace();
      if (this.pos >= sql.length) return;
      if (sql.startsWith(this.delimiter, this.pos)) {
        this.pos += this.delimiter.length;
        return;
      }
      const c = sql[this.pos];
      if (c === "'" || c === '"') this.quoted(c);
      else if (c === '`') this.identifierPart();
      else this.pos++;
    }
  }

  protected comma(): boolean {
    this.skipSpace();
    if (this.sql[this.pos] !== ',') return false;
    this.pos++;
    return true;
  }

  /** A '...' or "..." literal with backslash escapes and doubled quotes decoded. */
  protected quoted(quote: string): string {
    const sql = this.sql;
    const special = quote === "'" ? SPECIAL_IN_SINGLE : SPECIAL_IN_DOUBLE;
    let out = '';
    let start = this.pos + 1;
    for (;;) {
      special.lastIndex = start;
      const m = special.exec(sql);
      if (!m) {
        this.pos = sql.length;
        this.fail('unterminated string literal');
      }
      const at = m.index;
      if (m[0] === quote) {
        if (sql[at + 1] === quote) {
          out += sql.slice(start, at + 1); // a doubled quote is one quote character
          start = at + 2;
          continue;
        }
        this.pos = at + 1;
        return out + sql.slice(start, at);
      }
      const escaped = sql[at + 1];
      if (escaped === undefined) {
        this.pos = at;
        this.fail('unterminated string literal');
      }
      out += sql.slice(start, at) + (ESCAPES[escaped] ?? escaped); // unknown escapes drop the backslash
      start = at + 2;
    }
  }
}

// MySQL only treats `--` as a comment when a space or control character (or the end) follows.
function isCommentDashEnd(code: number): boolean {
  return Number.isNaN(code) || code <= 32;
}
