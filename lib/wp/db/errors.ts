/** Recognising the database errors that the domain handles, whichever engine raised them. */

/** A unique or primary key already holds this value (MySQL 1062, SQLite UNIQUE/PRIMARY KEY constraint). */
export function isDuplicateKeyError(err: unknown): boolean {
  const e = err as { code?: string; errno?: number };
  return e?.code === 'ER_DUP_ENTRY' || e?.errno === 1062
    || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** InnoDB chose this transaction as a deadlock victim, or gave up waiting for a lock: safe to run again. */
export function isRetryableTransactionError(err: unknown): boolean {
  const e = err as { code?: string; errno?: number };
  return e?.code === 'ER_LOCK_DEADLOCK' || e?.errno === 1213 || e?.code === 'ER_LOCK_WAIT_TIMEOUT' || e?.errno === 1205
    || e?.code === 'SQLITE_BUSY';
}

/** The database cannot be reached or lost the connection (the setup-failed state, until it answers again). */
export function isUnavailableError(err: unknown): boolean {
  const e = err as { code?: string; errno?: number; message?: string };
  const codes = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'PROTOCOL_CONNECTION_LOST',
    'ER_CON_COUNT_ERROR', 'ER_SERVER_SHUTDOWN', 'ER_ACCESS_DENIED_ERROR', 'ER_BAD_DB_ERROR', 'ER_NO_SUCH_TABLE',
    'SQLITE_CANTOPEN', 'SQLITE_IOERR', 'SQLITE_CORRUPT', 'SQLITE_READONLY'];
  if (e?.code && codes.includes(e.code)) return true;
  // knex: the pool could not hand out a connection in time.
  return typeof e?.message === 'string' && /Knex: Timeout acquiring a connection|no such table/i.test(e.message);
}
