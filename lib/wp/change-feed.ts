/**
 * Every write tells what it changed in WordPress's tables (a WordPressChanges), after it committed and
 * before it is answered, to whatever caches those rows: this process's stores and PHP's persistent
 * object cache. The feed knows nothing of the plugins; the row-level writers (./posts.ts, the option
 * and user stores, ./user-queries.ts) record into the record of the transaction they write in, so most
 * callers record nothing by hand.
 */
import { Knex } from 'knex';
import { Logger } from '../logger';
import { WordPressChanges } from './changes';
import { Database } from './db/database';
import { Tables } from './db/tables';
import { inTransaction } from './db/transaction';
import { errorText } from './errors';
import { ObjectCacheStatus, assertWritesAllowed } from './object-cache/status';

/** Within SQLite's smallest bound on a statement's variables (999). */
const IDS_PER_QUERY = 900;

export type ChangeListener = (changes: WordPressChanges) => void | Promise<void>;

/** One site's subscribers to what its writes changed. */
export class ChangeFeed {
  private readonly listeners = new Set<ChangeListener>();

  constructor(private readonly logger: Logger) {}

  /** Adds a listener; returns what removes it. */
  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Tells every listener, all at once, and waits for them. The write is committed: a listener that
   * fails is logged and fails nothing (retrying is its own business).
   */
  async publish(changes: WordPressChanges): Promise<void> {
    if (changes.empty || !this.listeners.size) return;
    await Promise.all([...this.listeners].map(async (listener) => {
      try {
        await listener(changes);
      } catch (err) {
        this.logger.error('A listener to committed WordPress changes failed; the write stands.', { error: errorText(err) });
      }
    }));
  }
}

/** A write under way: its record, and the posts it updated whose type and parent it has yet to read. */
interface OpenWrite {
  changes: WordPressChanges;
  unnamedPosts: Set<number>;
}

const openWrites = new WeakMap<Knex.Transaction, OpenWrite>();

/**
 * What the write on `db` has changed so far, for a row writer to add to. A handle that is not a
 * transaction of writeWordPress() (the demo seed's) gets a record nobody reads: such writes report
 * nothing, so only seeding may write that way.
 */
export function changesOf(db: Knex | Knex.Transaction): WordPressChanges {
  return openWrites.get(db as Knex.Transaction)?.changes ?? new WordPressChanges();
}

/** A post row the write updated: its type and parent are read when the work is done, for all such posts in one query. */
export function postUpdated(db: Knex | Knex.Transaction, postId: number): void {
  const open = openWrites.get(db as Knex.Transaction);
  if (open && !open.changes.posts.has(postId)) open.unnamedPosts.add(postId);
}

/** What writeWordPress() needs of a site: the database, its feed, and whether writes may go on beside PHP's object cache. */
export interface WriteTarget {
  db: Database;
  changes: ChangeFeed;
  objectCache: ObjectCacheStatus;
}

/**
 * Runs `work` in one transaction (./db/transaction.ts: retried as a deadlock victim) and, once it has
 * committed, publishes what it changed. Each try starts a new record: a rolled-back try changed nothing.
 * Nothing is written while writes are refused beside an object cache Understudy cannot keep coherent.
 */
export async function writeWordPress<T>(site: WriteTarget, work: (trx: Knex.Transaction, changes: WordPressChanges) => Promise<T>): Promise<T> {
  assertWritesAllowed(site.objectCache);
  let committed = new WordPressChanges();
  const result = await inTransaction(site.db, async (trx) => {
    const open: OpenWrite = { changes: new WordPressChanges(), unnamedPosts: new Set() };
    openWrites.set(trx, open);
    const done = await work(trx, open.changes);
    await nameUpdatedPosts(trx, site.db.tables, open);
    committed = open.changes;
    return done;
  });
  await site.changes.publish(committed);
  return result;
}

/** Adds the type and parent of the updated posts the record does not name yet (a post deleted since is named by its delete). */
async function nameUpdatedPosts(trx: Knex.Transaction, tables: Tables, open: OpenWrite): Promise<void> {
  const ids = [...open.unnamedPosts].filter((id) => !open.changes.posts.has(id));
  for (let start = 0; start < ids.length; start += IDS_PER_QUERY) {
    const rows = await trx(tables.posts).whereIn('ID', ids.slice(start, start + IDS_PER_QUERY)).select('ID', 'post_type', 'post_parent');
    for (const row of rows) open.changes.post(Number(row.ID), String(row.post_type), Number(row.post_parent));
  }
}
