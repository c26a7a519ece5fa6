/**
 * The opt-in secondary indexes named `svc_*` on the posts and postmeta tables: the only change to a
 * core table the storage map allows, and only on the site admin's explicit command
 * (`understudy db index add`). WordPress upgrades leave extra indexes alone. Everything works without
 * them; the ticket list is simply much slower on a large site (the start-up log says so).
 */
import { Database } from '../wp/db/database';
import { indexNameFor } from '../wp/db/migrate';
import { addIndex, dropIndex, existingIndexes } from './store';

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

/** Adds the missing indexes (on MySQL online, see addIndex()). */
export async function addIndexes(db: Database): Promise<string[]> {
  const added: string[] = [];
  for (const state of await indexStatus(db)) {
    if (state.present) continue;
    const name = indexName(db, state.index);
    await addIndex(db, state.table, name, state.index.columns);
    added.push(`${state.table}.${name}`);
  }
  return added;
}

export async function removeIndexes(db: Database): Promise<string[]> {
  const removed: string[] = [];
  for (const state of await indexStatus(db)) {
    if (!state.present) continue;
    const name = indexName(db, state.index);
    await dropIndex(db, state.table, name);
    removed.push(`${state.table}.${name}`);
  }
  return removed;
}

function indexName(db: Database, index: SvcIndex): string {
  return indexNameFor(db, index.table(db), index.name);
}
