/**
 * Per-statement optimizer settings, where the server allows them. Understudy's sessions turn semi-join
 * materialization off (right for a page of posts filtered on their meta: checked in index order, the
 * scan stops after the page); a COUNT over the same filter wants it on, as it must visit every match.
 * MariaDB takes `SET STATEMENT ... FOR <query>`; elsewhere the query runs with the session's setting.
 */
import { Knex } from 'knex';
import { Database } from './database';

export async function selectWithMaterialization<T>(db: Database, query: Knex.QueryBuilder): Promise<T[]> {
  if (db.dialect !== 'mysql' || !db.server.mariadb) return (await query) as T[];
  const { sql, bindings } = query.toSQL().toNative();
  const [rows] = await db.knex.raw(`SET STATEMENT optimizer_switch='materialization=on' FOR ${sql}`, bindings as Knex.RawBinding[]);
  return rows as T[];
}
