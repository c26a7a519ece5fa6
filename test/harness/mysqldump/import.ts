/**
 * Loading a mysqldump of a WordPress site (the oracle's) into an SQLite database for the tests. Core
 * tables are created from Understudy's own spec; the dump's rows are inserted by column name. (On
 * MySQL, the tests run the dump's statements on the server itself.)
 */
import { Database } from '../../../lib/wp/db/database';
import { installCoreTablesIfMissing } from '../../../lib/wp/db/migrate';
import { parseDump } from './index';

export async function importDumpIntoSqlite(db: Database, sql: string): Promise<{ tables: number; rows: number }> {
  if (db.dialect !== 'sqlite') throw new Error('importDumpIntoSqlite: the target is not SQLite');
  await installCoreTablesIfMissing(db);
  let tables = 0;
  let rows = 0;
  for (const table of parseDump(sql)) {
    if (!table.rows.length) continue;
    if (!table.columns) throw new Error(`The dump inserts into ${table.table} without creating it: its columns are unknown`);
    if (!(await db.knex.schema.hasTable(table.table))) continue;
    const columns = table.columns;
    const records = table.rows.map((row) => Object.fromEntries(columns.map((c, i) => [c, row[i]])));
    await db.knex.batchInsert(table.table, records, 100);
    tables += 1;
    rows += records.length;
  }
  return { tables, rows };
}
