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
 * The code lives in ./mysqldump/ (lexer, literals, fast path, VALUES, CREATE TABLE, statement loop);
 * this facade keeps one import path for it.
 */
export type { DumpColumn, DumpRow, DumpTable, DumpValue } from './mysqldump/types';
export { DumpParseError } from './mysqldump/types';
export { parseCreateTables, parseDump, parseDumpInserts } from './mysqldump/reader';
