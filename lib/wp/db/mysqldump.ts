/**
 * A reader for mysqldump / mariadb-dump output: the rows of every INSERT (one-row and extended
 * multi-row) and the columns of every CREATE TABLE, so a real WordPress dump can be loaded into
 * SQLite and inspected by tests without a MySQL server.
 *
 * Values: quoted literals → string (MySQL escapes decoded), unquoted numbers → number, NULL → null.
 * Unquoted integers outside JS's safe range (BIGINT UNSIGNED) stay strings so no digit is lost.
 * Everything else (comments, SET, LOCK TABLES, DROP, conditional comments) is skipped.
 * Malformed input throws {@link DumpParseError} with the line number.
 */

/** One column value as it appears in the dump. */
export type DumpValue = string | number | null;

/** One row: values in column order. */
export type DumpRow = DumpValue[];

/** A column from CREATE TABLE: its name and the rest of its definition (`bigint(20) unsigned NOT NULL ...`). */
export interface DumpColumn {
  name: string;
  definition: string;
}

/** Everything the dump says about one table. */
export interface DumpTable {
  table: string;
  /** Column names the row values line up with (the INSERT's column list, else CREATE TABLE's), if known. */
  columns: string[] | undefined;
  /** Column definitions from CREATE TABLE, if the dump has one. */
  definitions: DumpColumn[] | undefined;
  rows: DumpRow[];
}

/** The dump is not valid SQL of the shape mysqldump writes. */
export class DumpParseError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`${message} (line ${line})`);
    this.name = 'DumpParseError';
  }
}

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

// Words that open a CREATE TABLE item that is not a column.
const NON_COLUMN_ITEMS = new Set(['PRIMARY', 'KEY', 'INDEX', 'UNIQUE', 'CONSTRAINT', 'FULLTEXT', 'SPATIAL', 'FOREIGN', 'CHECK', 'PERIOD']);
const NUMBER = /[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/y;
const WORD = /[A-Za-z_][A-Za-z0-9_$]*/y;
const BARE_IDENTIFIER = /[A-Za-z0-9_$]+/y;
const HEX = /0x([0-9A-Fa-f]*)|[xX]'([0-9A-Fa-f]*)'/y;
// One whole value of a VALUES tuple plus the ',' or ')' after it: a '...' body (escapes and doubled quotes
// allowed, written unrolled so long strings do not backtrack), NULL, or a number.
const INSERT_HEAD = /INSERT\s+INTO\s+`((?:[^`]|``)+)`\s+VALUES\s*/y;
const FAST_VALUE =
  /[ \t\r\n]*(?:'([^'\\]*(?:(?:\\[\s\S]|'')[^'\\]*)*)'|([Nn][Uu][Ll][Ll])|([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?))[ \t\r\n]*([,)])/y;
// The next quote or backslash inside a quoted literal; one pattern per quote character.
const SPECIAL_IN_SINGLE = /['\\]/g;
const SPECIAL_IN_DOUBLE = /["\\]/g;

/** MySQL string-literal escapes. `\%` and `\_` keep their backslash (MySQL does that outside LIKE). */
const ESCAPES: Record<string, string> = {
  '0': '\0',
  "'": "'",
  '"': '"',
  b: '\b',
  n: '\n',
  r: '\r',
  t: '\t',
  Z: '\x1a',
  '\\': '\\',
  '%': '\\%',
  _: '\\_',
};

class DumpReader {
  private pos = 0;
  private delimiter = ';';
  private readonly tables = new Map<string, DumpTable>();
  // CREATE TABLE's column names, kept as one array per table so the per-INSERT layout check is a reference compare.
  private readonly definitionNames = new Map<DumpTable, string[]>();

  constructor(private readonly sql: string) {}

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

  private fail(message: string): never {
    let line = 1;
    for (let i = this.sql.indexOf('\n'); i !== -1 && i < this.pos; i = this.sql.indexOf('\n', i + 1)) line++;
    throw new DumpParseError(message, line);
  }

  private table(name: string): DumpTable {
    let table = this.tables.get(name);
    if (!table) {
      table = { table: name, columns: undefined, definitions: undefined, rows: [] };
      this.tables.set(name, table);
    }
    return table;
  }

  /** Skips whitespace and all comment forms (`-- `, `#`, `/* *\/`, including `/*!40101 ... *\/`). */
  private skipSpace(): void {
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

  private peekWord(): string {
    WORD.lastIndex = this.pos;
    const m = WORD.exec(this.sql);
    return m ? m[0] : '';
  }

  private readWord(): string {
    const word = this.peekWord();
    this.pos += word.length;
    return word;
  }

  private expectWord(...allowed: string[]): string {
    this.skipSpace();
    const word = this.readWord().toUpperCase();
    if (!allowed.includes(word)) this.fail(`expected ${allowed.join(' or ')}`);
    return word;
  }

  private expectChar(ch: string): void {
    this.skipSpace();
    if (this.sql[this.pos] !== ch) this.fail(`expected '${ch}'`);
    this.pos++;
  }

  /** A possibly qualified name (`db`.`t`); returns the last part. */
  private identifier(): string {
    this.skipSpace();
    let name = this.identifierPart();
    while (this.sql[this.pos] === '.') {
      this.pos++;
      name = this.identifierPart();
    }
    return name;
  }

  private identifierPart(): string {
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

  private endStatement(): void {
    if (!this.atDelimiter()) this.fail('unexpected text at the end of the statement');
    this.pos = Math.min(this.sql.length, this.pos + this.delimiter.length);
  }

  /** Moves past the next delimiter that is outside quotes and comments. */
  private skipStatement(): void {
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

  private comma(): boolean {
    this.skipSpace();
    if (this.sql[this.pos] !== ',') return false;
    this.pos++;
    return true;
  }

  private tuple(): DumpRow {
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

  /** A '...' or "..." literal with backslash escapes and doubled quotes decoded. */
  private quoted(quote: string): string {
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

  private create(): void {
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

/**
 * Reads `(...),(...);` starting at `pos` with one regex match per value, appending rows to `out`.
 * Returns the position after the `;`, or -1 as soon as anything falls outside what mysqldump writes
 * (comments, hex, double quotes, spaces between tuples), so the caller can use the general parser.
 */
function readTuplesFast(sql: string, pos: number, out: DumpRow[]): number {
  for (;;) {
    if (sql.charCodeAt(pos) !== 40 /* ( */) return -1;
    pos++;
    const row: DumpRow = [];
    for (;;) {
      FAST_VALUE.lastIndex = pos;
      const m = FAST_VALUE.exec(sql);
      if (m === null) return -1;
      pos = FAST_VALUE.lastIndex;
      const text = m[1];
      if (text !== undefined) row.push(text.indexOf('\\') === -1 && text.indexOf("''") === -1 ? text : decodeQuoted(text));
      else if (m[2] !== undefined) row.push(null);
      else row.push(numberValue(m[3]!));
      if (m[4] === ')') break;
    }
    out.push(row);
    const next = sql.charCodeAt(pos);
    if (next === 44 /* , */) pos++;
    else if (next === 59 /* ; */) return pos + 1;
    else return -1;
  }
}

/** An unquoted numeric literal; an integer JS cannot hold exactly (e.g. BIGINT UNSIGNED max) stays a string of its digits. */
function numberValue(text: string): DumpValue {
  const value = Number(text);
  if (Number.isSafeInteger(value)) return value === 0 ? 0 : value; // no -0
  if (/[.eE]/.test(text)) return value;
  return text.replace(/^\+/, '');
}

/** Decodes backslash escapes and doubled quotes in the body of a '...' literal. */
function decodeQuoted(body: string): string {
  return body.replace(/\\([\s\S])|''/g, (_match, escaped: string | undefined) => (escaped === undefined ? "'" : (ESCAPES[escaped] ?? escaped)));
}

// MySQL only treats `--` as a comment when a space or control character (or the end) follows.
function isCommentDashEnd(code: number): boolean {
  return Number.isNaN(code) || code <= 32;
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
