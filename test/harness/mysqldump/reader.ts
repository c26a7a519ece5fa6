/**
 * The statement loop of the mysqldump reader and the public parse functions: each statement goes to the
 * fast INSERT path when it can, else to the general INSERT / CREATE TABLE / DELIMITER readers; everything
 * else is skipped. Rows of all INSERTs into one table are merged and checked against one column layout.
 */
import { TableReader } from './create-table';
import { INSERT_HEAD, readTuplesFast } from './fast-path';
import { DumpColumn, DumpRow, DumpTable } from './types';

/** Every table the dump creates or inserts into, in order of first appearance. */
export function parseDump(sql: string): DumpTable[] {
  return new DumpReader(sql).run();
}

/** The tables that have INSERTed rows, with all their rows (statements for one table are merged). */
export function parseDumpInserts(sql: string): DumpTable[] {
  return parseDump(sql).filter((t) => t.rows.length > 0);
}

/** The columns of each CREATE TABLE in the dump. */
export function parseCreateTables(sql: string): Array<{ table: string; columns: DumpColumn[] }> {
  return parseDump(sql).flatMap((t) => (t.definitions ? [{ table: t.table, columns: t.definitions }] : []));
}

class DumpReader extends TableReader {
  run(): DumpTable[] {
    for (;;) {
      this.skipSpace();
      if (this.pos >= this.sql.length) break;
      if (this.sql.startsWith(this.delimiter, this.pos)) {
        this.pos += this.delimiter.length; // empty statement, e.g. after `/*!40000 ALTER TABLE ... */`
        continue;
      }
      if (this.fastInsert()) continue;
      const word = this.peekWord().toUpperCase();
      if (word === 'INSERT' || word === 'REPLACE') this.insert();
      else if (word === 'CREATE') this.create();
      else if (word === 'DELIMITER') this.changeDelimiter();
      else this.skipStatement();
    }
    return Array.from(this.tables.values());
  }

  /**
   * The statement exactly as mysqldump writes it (`INSERT INTO \`t\` VALUES (...),(...);`), read by one
   * tight loop of native regex matches. Returns false, having consumed nothing, for anything else.
   */
  private fastInsert(): boolean {
    if (this.delimiter !== ';') return false;
    INSERT_HEAD.lastIndex = this.pos;
    const head = INSERT_HEAD.exec(this.sql);
    if (head === null) return false;
    const rows: DumpRow[] = [];
    const end = readTuplesFast(this.sql, INSERT_HEAD.lastIndex, rows);
    if (end === -1) return false;
    const name = head[1]!;
    const table = this.table(name.includes('``') ? name.split('``').join('`') : name);
    this.useLayout(table, this.definitionNames.get(table));
    for (const row of rows) this.addRow(table, row);
    this.pos = end;
    return true;
  }

  /** Checks that a statement's column layout matches the table's earlier rows, then adopts it. */
  private useLayout(table: DumpTable, columns: string[] | undefined): void {
    if (!columns || columns === table.columns) return;
    if (table.rows.length > 0 && table.columns && !sameList(table.columns, columns)) {
      this.fail(`INSERTs into ${table.table} use different column lists`);
    }
    table.columns = columns;
  }

  private addRow(table: DumpTable, row: DumpRow): void {
    if (table.columns !== undefined && row.length !== table.columns.length) {
      this.fail(`row has ${row.length} values, table ${table.table} has ${table.columns.length} columns`);
    }
    table.rows.push(row);
  }

  private changeDelimiter(): void {
    this.readWord();
    const end = this.sql.indexOf('\n', this.pos);
    const text = this.sql.slice(this.pos, end === -1 ? this.sql.length : end).trim();
    if (!text) this.fail('DELIMITER without a delimiter');
    this.delimiter = text;
    this.pos = end === -1 ? this.sql.length : end + 1;
  }

  private insert(): void {
    this.readWord(); // INSERT or REPLACE
    for (;;) {
      this.skipSpace();
      const word = this.peekWord().toUpperCase();
      if (word === 'LOW_PRIORITY' || word === 'DELAYED' || word === 'HIGH_PRIORITY' || word === 'IGNORE') this.readWord();
      else break;
    }
    if (this.peekWord().toUpperCase() === 'INTO') this.readWord();
    const table = this.table(this.identifier());

    this.skipSpace();
    let columns: string[] | undefined;
    if (this.sql[this.pos] === '(') {
      this.pos++;
      columns = [];
      do columns.push(this.identifier());
      while (this.comma());
      this.expectChar(')');
    }
    this.expectWord('VALUES', 'VALUE');
    this.rows(table, columns);
  }

  /** The tuples after VALUES, up to and including the statement's delimiter. */
  private rows(table: DumpTable, columns: string[] | undefined): void {
    // Without a column list the values follow CREATE TABLE's columns. All rows of a table must share one layout.
    this.useLayout(table, columns ?? this.definitionNames.get(table));
    do this.addRow(table, this.tuple());
    while (this.comma());
    this.endStatement();
  }
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
