/**
 * The tables the dump describes, and CREATE TABLE: the column names and definitions of each table, which
 * INSERTs without a column list line up with. Sits between the value reader and the statement loop.
 */
import { DumpColumn, DumpTable } from './types';
import { ValueReader } from './values';

// Words that open a CREATE TABLE item that is not a column.
const NON_COLUMN_ITEMS = new Set(['PRIMARY', 'KEY', 'INDEX', 'UNIQUE', 'CONSTRAINT', 'FULLTEXT', 'SPATIAL', 'FOREIGN', 'CHECK', 'PERIOD']);

export abstract class TableReader extends ValueReader {
  protected readonly tables = new Map<string, DumpTable>();
  // CREATE TABLE's column names, kept as one array per table so the per-INSERT layout check is a reference compare.
  protected readonly definitionNames = new Map<DumpTable, string[]>();

  protected table(name: string): DumpTable {
    let table = this.tables.get(name);
    if (!table) {
      table = { table: name, columns: undefined, definitions: undefined, rows: [] };
      this.tables.set(name, table);
    }
    return table;
  }

  protected create(): void {
    const statementStart = this.pos;
    this.readWord(); // CREATE
    this.skipSpace();
    if (this.peekWord().toUpperCase() === 'TEMPORARY') this.readWord();
    this.skipSpace();
    if (this.peekWord().toUpperCase() !== 'TABLE') {
      this.pos = statementStart;
      this.skipStatement(); // CREATE VIEW / TRIGGER / DATABASE ...
      return;
    }
    this.readWord();
    this.skipSpace();
    if (this.peekWord().toUpperCase() === 'IF') {
      this.expectWord('IF');
      this.expectWord('NOT');
      this.expectWord('EXISTS');
    }
    const table = this.table(this.identifier());
    this.skipSpace();
    if (this.sql[this.pos] !== '(') {
      this.skipStatement(); // CREATE TABLE ... LIKE / AS SELECT: no column list to read
      return;
    }
    this.pos++;
    const definitions: DumpColumn[] = [];
    for (;;) {
      this.skipSpace();
      const itemStart = this.pos;
      const word = this.sql[this.pos] === '`' ? '' : this.peekWord().toUpperCase();
      if (!NON_COLUMN_ITEMS.has(word)) {
        const name = this.identifier();
        const definitionStart = this.pos;
        this.skipItem();
        definitions.push({ name, definition: this.sql.slice(definitionStart, this.pos).trim() });
      } else {
        this.pos = itemStart;
        this.skipItem();
      }
      if (this.sql[this.pos] === ',') {
        this.pos++;
        continue;
      }
      this.pos++; // the closing ')'
      break;
    }
    table.definitions = definitions;
    const names = definitions.map((d) => d.name);
    this.definitionNames.set(table, names);
    // Rows already read keep the layout their INSERT gave them.
    if (table.rows.length === 0) table.columns = names;
    this.skipStatement(); // table options: ENGINE=..., DEFAULT CHARSET=...
  }

  /** Moves to the ',' or ')' that ends a CREATE TABLE item, skipping nested parentheses and quotes. */
  private skipItem(): void {
    const sql = this.sql;
    let depth = 0;
    while (this.pos < sql.length) {
      const c = sql[this.pos];
      if (c === "'" || c === '"') {
        this.quoted(c);
        continue;
      }
      if (c === '`') {
        this.identifierPart();
        continue;
      }
      if (c === '(') depth++;
      else if (c === ')') {
        if (depth === 0) return;
        depth--;
      } else if (c === ',' && depth === 0) return;
      this.pos++;
    }
    this.fail('unterminated CREATE TABLE');
  }
}
