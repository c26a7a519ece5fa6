/**
 * Creating what Understudy needs, and nothing else: WordPress's core tables only on an empty
 * database, and the plugin-owned tables through dated migrations recorded in `{p}svc_migrations`.
 * Core tables of an existing site are never created, altered or dropped here.
 */
import { CORE_TABLES, createTableStatements } from './core-schema';
import { Database } from './database';

export interface Migration {
  /** `YYYYMMDD-NN-verb-noun`, applied in name order. */
  name: string;
  up(db: Database): Promise<void>;
}

/** True when the site's options table exists: then this is an existing WordPress database. */
export async function hasWordPressTables(db: Database): Promise<boolean> {
  return db.knex.schema.hasTable(db.tables.options);
}

/** Creates the core tables on an empty database; returns false (and touches nothing) when they exist. */
export async function installCoreTablesIfMissing(db: Database): Promise<boolean> {
  if (await hasWordPressTables(db)) return false;
  for (const spec of CORE_TABLES) {
    if (await db.knex.schema.hasTable(spec.name(db.tables))) continue;
    for (const sql of createTableStatements(spec, db.tables, db.dialect)) await db.knex.raw(sql);
  }
  return true;
}

/** Applies the migrations not yet recorded; safe to run from several processes at once. */
export async function migrate(db: Database, migrations: Migration[]): Promise<string[]> {
  const { knex, tables } = db;
  const ledger = tables.plugin('svc', 'migrations');
  if (!(await knex.schema.hasTable(ledger))) {
    await createIfMissing(db, ledger, (t) => {
      t.string('name', 191).primary();
      t.string('applied_at', 19).notNullable();
    });
  }
  const done = new Set((await knex(ledger).select('name')).map((r: { name: string }) => r.name));
  const applied: string[] = [];
  // By code unit, not localeCompare: the names are ASCII, and a collator would page in ICU's data (docs/performance.md).
  for (const migration of [...migrations].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (done.has(migration.name)) continue;
    await migration.up(db);
    await knex(ledger).insert({ name: migration.name, applied_at: new Date().toISOString().slice(0, 19).replace('T', ' ') })
      .onConflict('name').ignore();
    applied.push(migration.name);
  }
  return applied;
}

/**
 * Creates a plugin table unless it exists. Another process may create it between the check and the
 * create; that race is lost gracefully. `build` names its indexes through `index()` (indexNameFor()).
 */
export async function createIfMissing(
  db: Database, table: string, build: (t: import('knex').Knex.CreateTableBuilder, index: (name: string) => string) => void,
): Promise<void> {
  if (await db.knex.schema.hasTable(table)) return;
  try {
    await db.knex.schema.createTable(table, (t) => {
      build(t, (name) => indexNameFor(db, table, name));
      if (db.dialect === 'mysql') {
        t.engine('InnoDB');
        t.charset('utf8mb4');
        t.collate('utf8mb4_unicode_520_ci');
      }
    });
  } catch (err) {
    if (!(await db.knex.schema.hasTable(table))) throw err;
  }
}

/**
 * The name of an index of `table`. SQLite's index names are global to the database file, so there
 * they carry the table name: on a network each site's `{prefix}{blog_id}_` tables get their own
 * (a second CREATE INDEX with the same name fails, and createIfMissing() would take that for a lost
 * race, leaving the site's table without its unique keys). MySQL's are per table and stay as named.
 */
export function indexNameFor(db: Database, table: string, name: string): string {
  return db.dialect === 'mysql' ? name : `${table}_${name}`;
}
