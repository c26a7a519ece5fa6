/**
 * The support desk's SQL about its storage as a whole, not one area's rows: whether its own tables
 * exist (./storage-check.ts) and the opt-in `svc_*` indexes on core tables (./db-indexes.ts decides
 * which; here they are listed, added and dropped in each database's dialect).
 */
import { Database } from '../wp/db/database';

/** The first of these plugin tables (names without prefix, as `tables.plugin('svc', name)` takes them) that is missing, or null. */
export async function missingPluginTable(db: Database, names: readonly string[]): Promise<string | null> {
  for (const name of names) {
    if (!(await db.knex.schema.hasTable(db.tables.plugin('svc', name)))) return db.tables.plugin('svc', name);
  }
  return null;
}

/** The names of the indexes on `table`. */
export async function existingIndexes(db: Database, table: string): Promise<string[]> {
  if (db.dialect === 'mysql') {
    const [rows] = await db.knex.raw('SHOW INDEX FROM ??', [table]);
    return (rows as Array<{ Key_name: string }>).map((r) => r.Key_name);
  }
  const rows = await db.knex.raw(`PRAGMA index_list("${table}")`);
  return (rows as Array<{ name: string }>).map((r) => r.name);
}

/** Adds an index; on MySQL without locking the table for writes (online DDL). Columns carry MySQL's prefix length where given. */
export async function addIndex(db: Database, table: string, name: string, columns: ReadonlyArray<string | [string, number]>): Promise<void> {
  if (db.dialect === 'mysql') {
    const cols = columns.map((c) => (typeof c === 'string' ? `\`${c}\`` : `\`${c[0]}\`(${c[1]})`)).join(', ');
    await db.knex.raw(`ALTER TABLE \`${table}\` ADD INDEX \`${name}\` (${cols}), ALGORITHM=INPLACE, LOCK=NONE`);
  } else {
    const cols = columns.map((c) => `"${typeof c === 'string' ? c : c[0]}"`).join(', ');
    await db.knex.raw(`CREATE INDEX "${name}" ON "${table}" (${cols})`);
  }
}

export async function dropIndex(db: Database, table: string, name: string): Promise<void> {
  if (db.dialect === 'mysql') await db.knex.raw(`ALTER TABLE \`${table}\` DROP INDEX \`${name}\``);
  else await db.knex.raw(`DROP INDEX "${name}"`);
}
