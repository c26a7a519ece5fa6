/**
 * A reader for mysqldump / mariadb-dump output: the rows of every INSERT (one-row and extended
 * multi-row) and the columns of every CREATE TABLE, so a real WordPress dump can be loaded into
 * SQLite and inspected by tests without a MySQL server.
 *
 * Values: quoted literals → string (MySQL escapes decoded), unquoted numbers → number, NULL → null.
 * Unquoted integers outside JS's safe range (BIGINT UNSIGNED) stay strings so no digit is lost.
 * Everything else (comments, SET, LOCK TABLES, DROP, conditional comments) is skipped.
 * Malformed input throws {@link DumpParseError} with the line number.
 *
 * The modules: lexer, literals, fast path, VALUES, CREATE TABLE and the statement loop. Only the tests
 * load dumps (the oracle database), so the reader lives in the test harness.
 */
export type { DumpColumn, DumpRow, DumpTable, DumpValue } from './types';
export { DumpParseError } from './types';
export { parseCreateTables, parseDump, parseDumpInserts } from './reader';
