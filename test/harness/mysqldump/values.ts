/**
 * The VALUES tuples of a general (not fast-path) INSERT: each literal form MySQL accepts there (quoted
 * strings, hex, numbers, NULL, TRUE/FALSE, charset introducers), read on top of the SQL lexer.
 */
import { SqlLexer } from './lexer';
import { numberValue } from './literals';
import { DumpRow, DumpValue } from './types';

const NUMBER = /[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/y;
const HEX = /0x([0-9A-Fa-f]*)|[xX]'([0-9A-Fa-f]*)'/y;

export abstract class ValueReader extends SqlLexer {
  protected tuple(): DumpRow {
    this.expectChar('(');
    const row: DumpRow = [];
    this.skipSpace();
    if (this.sql[this.pos] === ')') {
      this.pos++;
      return row;
    }
    do row.push(this.literal());
    while (this.comma());
    this.expectChar(')');
    return row;
  }

  private literal(): DumpValue {
    this.skipSpace();
    const sql = this.sql;
    const c = sql[this.pos];
    if (c === "'" || c === '"') return this.quoted(c);
    if (c === '0' && (sql[this.pos + 1] === 'x' || sql[this.pos + 1] === 'X')) return this.hex();
    if (c !== undefined && ((c >= '0' && c <= '9') || c === '-' || c === '+' || c === '.')) return this.number();
    if ((c === 'x' || c === 'X') && sql[this.pos + 1] === "'") return this.hex();
    const word = this.peekWord();
    const upper = word.toUpperCase();
    if (upper === 'NULL') {
      this.pos += word.length;
      return null;
    }
    if (upper === 'TRUE' || upper === 'FALSE') {
      this.pos += word.length;
      return upper === 'TRUE' ? 1 : 0;
    }
    if (word.startsWith('_')) {
      // A charset introducer such as `_binary 'x'` (MySQL 8's mysqldump writes these for BLOBs).
      this.pos += word.length;
      this.skipSpace();
      const next = sql[this.pos];
      if (next === "'" || next === '"') return this.quoted(next);
      if (next === '0' || next === 'x' || next === 'X') return this.hex();
    }
    return this.fail('unsupported value in VALUES');
  }

  private number(): DumpValue {
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(this.sql);
    if (!m) this.fail('malformed number');
    this.pos = NUMBER.lastIndex;
    return numberValue(m[0]);
  }

  private hex(): string {
    HEX.lastIndex = this.pos;
    const m = HEX.exec(this.sql);
    if (!m) this.fail('malformed hex literal');
    this.pos = HEX.lastIndex;
    const digits = m[1] ?? m[2] ?? '';
    if (digits.length % 2 === 1) return Buffer.from(`0${digits}`, 'hex').toString('utf8');
    return Buffer.from(digits, 'hex').toString('utf8');
  }
}
