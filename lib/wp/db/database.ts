import knexFactory, { Knex } from 'knex';
import { Tables } from './tables';

export type Dialect = 'mysql' | 'sqlite';

/** Where the site's database lives, as the configuration resolved it. */
export type DbTarget =
  | { client: 'mysql'; host?: string; port?: number; socketPath?: string; user: string; password: string; database: string; charset: string }
  | { client: 'sqlite'; filename: string };

/** The one handle to the site's database: the query builder, its dialect and the site's table names. */
export interface Database {
  knex: Knex;
  dialect: Dialect;
  tables: Tables;
  /** What the server told about itself on the first connection (MariaDB and MySQL differ in SQL they accept). */
  server: { mariadb: boolean };
  close(): Promise<void>;
}

export interface ConnectOptions {
  target: DbTarget;
  tables: Tables;
  /** Connection pool size for MySQL (SQLite always uses one connection). */
  poolMax?: number;
}

/** Opens the site's database with WordPress's session settings (see `configureMysqlSession`). */
export function connect({ target, tables, poolMax = 10 }: ConnectOptions): Database {
  const server = { mariadb: false };
  const knex = target.client === 'mysql' ? mysqlKnex(target, poolMax, server) : sqliteKnex(target.filename);
  return { knex, dialect: target.client, tables, server, close: () => knex.destroy() };
}

function mysqlKnex(target: Extract<DbTarget, { client: 'mysql' }>, poolMax: number, server: { mariadb: boolean }): Knex {
  return knexFactory({
    client: 'mysql2',
    connection: {
      host: target.socketPath ? undefined : target.host,
      port: target.socketPath ? undefined : target.port,
      socketPath: target.socketPath,
      user: target.user,
      password: target.password,
      database: target.database,
      charset: target.charset === 'utf8' ? 'utf8mb4' : target.charset,
      // WordPress stores DATETIME as site-local strings; never let the driver shift them.
      dateStrings: true,
      supportBigNumbers: true,
      bigNumberStrings: false,
    },
    pool: {
      min: 0,
      max: poolMax,
      afterCreate: (conn: any, done: (err: Error | null, conn: unknown) => void) => configureMysqlSession(conn, server, done),
    },
  });
}

/**
 * WP: wpdb::set_sql_mode() drops the strict modes, because core writes zero dates
 * (`0000-00-00 00:00:00`) into DATETIME columns. We write the same rows, so we need the same mode.
 */
function configureMysqlSession(conn: any, server: { mariadb: boolean }, done: (err: Error | null, conn: unknown) => void): void {
  const incompatible = ['NO_ZERO_DATE', 'ONLY_FULL_GROUP_BY', 'STRICT_TRANS_TABLES', 'STRICT_ALL_TABLES', 'TRADITIONAL', 'ANSI'];
  conn.query('SELECT @@SESSION.sql_mode AS mode, VERSION() AS version', (err: Error | null, rows: Array<{ mode: string; version: string }>) => {
    if (err) return done(err, conn);
    server.mariadb = /mariadb/i.test(String(rows[0]?.version ?? ''));
    const modes = String(rows[0]?.mode ?? '').split(',').filter((m) => m && !incompatible.includes(m.toUpperCase()));
    // Our queries ask for a page of posts matching conditions on their meta (EXISTS per post): checking
    // each post in index order and stopping after the page beats materializing every matching meta row.
    conn.query(`SET SESSION sql_mode = ?, SESSION optimizer_switch = 'materialization=off'`, [modes.join(',')],
      (setErr: Error | null) => done(setErr, conn));
  });
}

function sqliteKnex(filename: string): Knex {
  return knexFactory({
    client: 'better-sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    pool: {
      min: 1,
      max: 1,
      afterCreate(conn: any, done: (err: Error | null, conn: unknown) => void) {
        // WAL lets a CLI process read while the server writes; busy_timeout makes writers queue, not fail.
        conn.pragma('journal_mode = WAL');
        conn.pragma('busy_timeout = 5000');
        conn.pragma('foreign_keys = OFF');
        done(null, conn);
      },
    },
  });
}
