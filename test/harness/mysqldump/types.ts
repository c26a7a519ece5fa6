/**
 * What the mysqldump reader produces (tables, their column definitions and rows of values) and the error
 * it throws, shared by every stage of the reader and part of the public API.
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
