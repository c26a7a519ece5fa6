/**
 * Running work in one transaction, committed before anything is answered. A transaction that the
 * database aborted as a deadlock victim is run again from the start, a bounded number of times.
 * Claiming a key inside one (insertUnlessTaken) for the writes that must happen once.
 */
import { Knex } from 'knex';
import { Database } from './database';
import { isRetryableTransactionError } from './errors';

export async function inTransaction<T>(db: Database, work: (trx: Knex.Transaction) => Promise<T>, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.knex.transaction(work);
    } catch (err) {
      if (attempt >= attempts || !isRetryableTransactionError(err)) throw err;
      // A little jitter keeps two retrying transactions from colliding again in lockstep.
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
    }
  }
}

/**
 * Inserts `row` unless a row already holds its values of the unique key `keyColumns`; true when it
 * wrote. A taken key makes the insert write nothing (MySQL's INSERT IGNORE, SQLite's ON CONFLICT DO
 * NOTHING) instead of failing, so the transaction needs no savepoint to survive it (two round trips
 * fewer). A key held by a transaction still open is waited for on the unique index: the insert then
 * writes nothing if that one commits. INSERT IGNORE also turns a value too long for its column into
 * a warning, so callers bound their values to the columns (the schemas and checks do).
 */
export async function insertUnlessTaken(trx: Knex | Knex.Transaction, table: string, row: Record<string, unknown>, keyColumns: string[]): Promise<boolean> {
  return (await insertEachUnlessTaken(trx, table, [row], keyColumns)) === 1;
}

/** insertUnlessTaken() for several rows in one statement: how many it wrote. */
export async function insertEachUnlessTaken(trx: Knex | Knex.Transaction, table: string, rows: Array<Record<string, unknown>>, keyColumns: string[]): Promise<number> {
  const insert = trx(table).insert(rows).onConflict(keyColumns).ignore().toSQL();
  return insertedRows(await trx.raw(insert.sql, insert.bindings));
}

/** Rows an INSERT wrote, as the drivers report it: mysql2 in a result header, better-sqlite3 as run()'s `changes`. */
function insertedRows(result: unknown): number {
  const header = (Array.isArray(result) ? result[0] : result) as { affectedRows?: number; changes?: number };
  return Number(header.affectedRows ?? header.changes ?? 0);
}
