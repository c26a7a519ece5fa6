/**
 * Running work in one transaction, committed before anything is answered. A transaction that the
 * database aborted as a deadlock victim is run again from the start, a bounded number of times.
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
