/**
 * The opt-in secondary indexes named `svc_*` on the posts and postmeta tables: the only change to a
 * core table the storage map allows, and only on the site admin's explicit command
 * (`understudy db index add`). WordPress upgrades leave extra indexes alone. Everything works without
 * them; the ticket list is simply much slower on a large site (the start-up log says so).
 */
import { Database } from '../wp/db/database';

export interface SvcIndex {
  name: string;
  table: (db: Database) => string;
  /** Columns, with MySQL's prefix length where the column is long text. */
  columns: Array<string | [string, number]>;
  purpose: string;
}

export const SVC_INDEXES: SvcIndex[] = [
  {
    name: 'svc_type_status_modified',
    table: (db) => db.tables.posts,
    columns: ['post_type', 'post_status', 'post_modified', 'ID'],
    purpose: 'the ticket list, newest activity first, per status',
  },
  {
    name: 'svc_type_modified',
    table: (db) => db.tables.posts,
    columns: ['post_type', 'post_modified'],
    purpose: 'the ticket list across statuses (filters by meta), newest activity first',
  },
  {
    name: 'svc_key_value',
    table: (db) => db.tables.postmeta,
    columns: [['meta_key', 32], ['meta_value', 32], 'post_id'],
    purpose: 'ticket filters by priority, assignee and customer email; incoming mail\'s Message-ID lookups',
  },
];

export interface IndexState {
  index: SvcIndex;
  table: string;
  present: boolean;
}

export async function indexStatus(db: Database): Promise<IndexState[]> {
  const states: IndexState[] = [];
  for (const index of SVC_INDEXES) {
    const table = index.table(db);
    states.push({ index, table, present: (await existingIndexes(db, table)).includes(indexName(db, index)) });
  }
  return states;
}

/** Adds the missing indexes; on MySQL without locking the table for writes (online DDL). */
export async function addIndexes(db: Database): Promise<string[]> {
  const added: string[] = [];
  for (const state of await indexStatus(db)) {
    if (state.present) continue;
    const name = indexName(db, state.index);
    if (db.dialect === 'mysql') {
      const cols = state.index.columns.map((c) => (typeof c === 'string' ? `\`${c}\`` : `\`${c[0]}\`(${c[1]})`)).join(', ');
      await db.knex.raw(`ALTER TABLE \`${state.table}\` ADD INDEX \`${name}\` (${cols}), ALGORITHM=INPLACE, LOCK=NONE`);
    } else {
      const cols = state.index.columns.map((c) => `"${typeof c === 'string' ? c : c[0]}"`).join(', ');
      await db.knex.raw(`CREATE INDEX "${name}" ON "${state.table}" (${cols})`);
    }
    added.push(`${state.table}.${name}`);
  }
  return added;
}

export async function removeIndexes(db: Database): Promise<string[]> {
  const removed: string[] = [];
  for (const state of await indexStatus(db)) {
    if (!state.present) continue;
    const name = indexName(db, state.index);
    if (db.dialect === 'mysql') await db.knex.raw(`ALTER TABLE \`${state.table}\` DROP INDEX \`${name}\``);
    else await db.knex.raw(`DROP INDEX "${name}"`);
    removed.push(`${state.table}.${name}`);
  }
  return removed;
}

/** SQLite index names are global to the database file: there they carry the table name. */
function indexName(db: Database, index: SvcIndex): string {
  return db.dialect === 'mysql' ? index.name : `${index.table(db)}_${index.name}`;
}

async function existingIndexes(db: Database, table: string): Promise<string[]> {
  if (db.dialect === 'mysql') {
    const [rows] = await db.knex.raw('SHOW INDEX FROM ??', [table]);
    return (rows as Array<{ Key_name: string }>).map((r) => r.Key_name);
  }
  const rows = await db.knex.raw(`PRAGMA index_list("${table}")`);
  return (rows as Array<{ name: string }>).map((r) => r.name);
}
