/**
 * WP: wp_insert_post() and add_post_meta() at the row level: the columns WordPress fills when a
 * plugin inserts a post, so rows written here look like rows written by PHP.
 */
import { randomBytes } from 'node:crypto';
import { Knex } from 'knex';
import { changesOf, postUpdated } from './change-feed';
import { Tables } from './db/tables';

/** SQLite's smallest default bound on the variables of one statement (999 before SQLite 3.32). */
const MAX_SQL_VARIABLES = 999;
/** A meta row is three variables. */
const META_ROWS_PER_INSERT = Math.floor(MAX_SQL_VARIABLES / 3);
/** A post row is 22 variables. */
const POSTS_PER_INSERT = Math.floor(MAX_SQL_VARIABLES / 22);

export interface NewPost {
  post_type: string;
  post_status: string;
  post_title?: string;
  post_content?: string;
  post_author?: number;
  post_parent?: number;
  /** The slug; a function makes it from the ID the insert gives the post (`svc-ticket-000042`). */
  post_name?: string | ((id: number) => string);
  post_mime_type?: string;
  menu_order?: number;
  comment_status?: string;
  ping_status?: string;
  /** Site-local and UTC creation time (`YYYY-MM-DD HH:MM:SS`); modified defaults to the same. */
  date: { local: string; gmt: string };
  modified?: { local: string; gmt: string };
}

/** The post at this index in the same insertMany(), as the parent of another: its ID is not known before. */
export interface SiblingRef {
  sibling: number;
}

/** A post for insertMany(): its parent may be another post of the same call. */
export type BatchPost = Omit<NewPost, 'post_parent'> & { post_parent?: number | SiblingRef };

/** Inserts a post and sets its guid as WordPress does (`<home>/?post_type=<type>&p=<id>`); returns the ID. */
export async function insertPost(db: Knex | Knex.Transaction, tables: Tables, home: string, post: NewPost): Promise<number> {
  const writes = new PostWrites(db, tables, home);
  const id = await writes.insert(post);
  await writes.flush();
  return id;
}

/** What WordPress sets on a post once its ID is known (and a parent inserted with it, once its ID is). */
interface IdDependentColumns {
  id: number;
  guid: string;
  post_name?: string;
  post_parent?: number;
}

interface MetaRow {
  post_id: number;
  meta_key: string;
  meta_value: string;
}

/**
 * Several posts written in one transaction at a few statements' cost: post rows are inserted at once
 * (their IDs are needed), one by one or several in one statement, while the columns that depend on the
 * ID (guid, a slug made from it) and the posts' meta wait for flush(), which writes them all in one
 * UPDATE and one INSERT. Until then nothing may read those columns or that meta.
 */
export class PostWrites {
  private fixes: IdDependentColumns[] = [];
  private meta: MetaRow[] = [];

  constructor(private readonly db: Knex | Knex.Transaction, private readonly tables: Tables, private readonly home: string) {}

  /** Inserts the post row; its guid (and a slug from its ID) follow at flush(). Returns the ID. */
  async insert(post: NewPost): Promise<number> {
    const [id] = await this.db(this.tables.posts).insert(postRow(post, typeof post.post_name === 'string' ? post.post_name : ''));
    const postId = Number(id);
    this.fixes.push(idDependentColumns(this.home, post, postId));
    changesOf(this.db).post(postId, post.post_type, post.post_parent ?? 0);
    return postId;
  }

  /**
   * Inserts several posts in one statement (a few, past SQLite's variable bound) and returns their IDs
   * in order. How a database numbers the rows of one INSERT is its own business (auto_increment_increment,
   * lock modes), so each row carries a placeholder slug of its own and the IDs are read back by it
   * through the post_name index; flush() then sets every row's real slug.
   */
  async insertMany(posts: BatchPost[]): Promise<number[]> {
    const placeholder = `svc-pending-${randomBytes(8).toString('hex')}-`;
    const names = posts.map((_, i) => `${placeholder}${i}`);
    const rows = posts.map((post, i) => postRow(post, names[i] as string));
    for (const chunk of chunks(rows, POSTS_PER_INSERT)) await this.db(this.tables.posts).insert(chunk);
    const idByName = new Map<string, number>();
    for (const chunk of chunks(names, MAX_SQL_VARIABLES)) {
      for (const row of await this.db(this.tables.posts).whereIn('post_name', chunk).select('ID', 'post_name')) idByName.set(String(row.post_name), Number(row.ID));
    }
    const ids = names.map((name) => {
      const id = idByName.get(name);
      if (id === undefined) throw new Error(`A post inserted as ${name} cannot be read back.`);
      return id;
    });
    posts.forEach((post, i) => {
      const id = ids[i] as number;
      const fix = idDependentColumns(this.home, post, id);
      fix.post_name ??= typeof post.post_name === 'string' ? post.post_name : '';
      if (typeof post.post_parent === 'object') fix.post_parent = ids[post.post_parent.sibling];
      this.fixes.push(fix);
      changesOf(this.db).post(id, post.post_type, fix.post_parent ?? (typeof post.post_parent === 'number' ? post.post_parent : 0));
    });
    return ids;
  }

  /** WP: add_post_meta() for several keys of one post, written at flush(). */
  addMeta(postId: number, meta: Record<string, string | number>): void {
    this.meta.push(...metaRows(postId, meta));
    for (const key of Object.keys(meta)) changesOf(this.db).postMetaKey(postId, key);
  }

  /** Writes the queued guids, slugs and meta. */
  async flush(): Promise<void> {
    const fixes = this.fixes;
    const meta = this.meta;
    this.fixes = [];
    this.meta = [];
    // A post takes, in the UPDATE of several, its ID in the WHERE and an ID and a value in each CASE.
    const cases = 1 + (['post_name', 'post_parent'] as const).filter((column) => fixes.some((f) => f[column] !== undefined)).length;
    for (const chunk of chunks(fixes, Math.floor(MAX_SQL_VARIABLES / (1 + 2 * cases)))) await this.setIdDependentColumns(chunk);
    for (const chunk of chunks(meta, META_ROWS_PER_INSERT)) await this.db(this.tables.postmeta).insert(chunk);
  }

  /** One UPDATE for all: a post each is a plain update; several choose their values by ID (CASE). */
  private async setIdDependentColumns(fixes: IdDependentColumns[]): Promise<void> {
    const [only] = fixes;
    if (!only) return;
    const posts = this.db(this.tables.posts);
    if (fixes.length === 1) {
      const { id, ...columns } = only;
      await posts.where({ ID: id }).update(columns);
      return;
    }
    const byId = (column: keyof Omit<IdDependentColumns, 'id'>, of: Array<[number, string | number]>) => this.db.raw(
      `CASE ?? ${of.map(() => 'WHEN ? THEN ?').join(' ')} ELSE ?? END`, ['ID', ...of.flat(), column],
    );
    const update: Record<string, Knex.Raw> = { guid: byId('guid', fixes.map((f) => [f.id, f.guid])) };
    for (const column of ['post_name', 'post_parent'] as const) {
      const set = fixes.flatMap((f): Array<[number, string | number]> => (f[column] === undefined ? [] : [[f.id, f[column]]]));
      if (set.length) update[column] = byId(column, set);
    }
    await posts.whereIn('ID', fixes.map((f) => f.id)).update(update);
  }
}

/** The row wp_insert_post() writes for `post`, its guid (and a parent inserted with it) still empty. */
function postRow(post: BatchPost, postName: string): Record<string, string | number> {
  const modified = post.modified ?? post.date;
  return {
    post_author: post.post_author ?? 0,
    post_date: post.date.local,
    post_date_gmt: post.date.gmt,
    post_content: post.post_content ?? '',
    post_title: post.post_title ?? '',
    post_excerpt: '',
    post_status: post.post_status,
    comment_status: post.comment_status ?? 'closed',
    ping_status: post.ping_status ?? 'closed',
    post_password: '',
    post_name: postName,
    to_ping: '',
    pinged: '',
    post_modified: modified.local,
    post_modified_gmt: modified.gmt,
    post_content_filtered: '',
    post_parent: typeof post.post_parent === 'number' ? post.post_parent : 0,
    guid: '',
    menu_order: post.menu_order ?? 0,
    post_type: post.post_type,
    post_mime_type: post.post_mime_type ?? '',
    comment_count: 0,
  };
}

function idDependentColumns(home: string, post: BatchPost, id: number): IdDependentColumns {
  const guid = post.post_type === 'post' ? `${home}/?p=${id}` : `${home}/?post_type=${post.post_type}&p=${id}`;
  if (typeof post.post_name === 'function') return { id, guid, post_name: post.post_name(id) };
  // WP: a published post with neither slug nor title gets its ID as slug (sanitize_title's fallback).
  if (!post.post_name && !post.post_title && !['draft', 'pending', 'auto-draft'].includes(post.post_status)) return { id, guid, post_name: String(id) };
  return { id, guid };
}

function metaRows(postId: number, meta: Record<string, string | number>): MetaRow[] {
  return Object.entries(meta).map(([meta_key, value]) => ({ post_id: postId, meta_key, meta_value: String(value) }));
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

/** WP: add_post_meta() for several keys at once, in one statement. */
export async function addPostMeta(db: Knex | Knex.Transaction, tables: Tables, postId: number, meta: Record<string, string | number>): Promise<void> {
  const rows = metaRows(postId, meta);
  if (rows.length) await db(tables.postmeta).insert(rows);
  for (const row of rows) changesOf(db).postMetaKey(postId, row.meta_key);
}

/**
 * WP: update_post_meta() for a key that holds one value: updates its rows, or adds one when there is
 * none, and leaves alone a key whose one value is already this one (update_metadata() returns early
 * then: nothing changed, no cache is told); `null` deletes the key (delete_post_meta). What is stored
 * is read first: the databases disagree on the rows an UPDATE that changes nothing reports.
 */
export async function updatePostMeta(db: Knex | Knex.Transaction, tables: Tables, postId: number, key: string, value: string | number | null): Promise<void> {
  const rows = () => db(tables.postmeta).where({ post_id: postId, meta_key: key });
  if (value === null) {
    if (await rows().del()) changesOf(db).postMetaKey(postId, key);
    return;
  }
  const stored: Array<{ meta_value: string | null }> = await rows().select('meta_value').limit(2);
  if (!stored.length) return addPostMeta(db, tables, postId, { [key]: value });
  if (stored.length === 1 && stored[0]?.meta_value === String(value)) return;
  await rows().update({ meta_value: String(value) });
  changesOf(db).postMetaKey(postId, key);
}

/**
 * WP: wp_update_post() at the row level: sets `columns` on the post. Its type and parent are recorded
 * as `known` (what the caller knows of a post it does not move), else read once at the end of the write.
 */
export async function updatePostRow(
  db: Knex | Knex.Transaction, tables: Tables, postId: number, columns: Record<string, string | number>, known?: { type: string; parent: number },
): Promise<void> {
  if (!(await db(tables.posts).where({ ID: postId }).update(columns))) return;
  if (known) changesOf(db).post(postId, known.type, known.parent);
  else postUpdated(db, postId);
}

/**
 * WP: wp_delete_post() at the row level: the post and all its meta; true when it existed. The row and
 * its meta keys are read first, for the record (the post is gone when the write ends). Attachments,
 * comments and terms of the post are the caller's business.
 */
export async function deletePost(db: Knex | Knex.Transaction, tables: Tables, postId: number, type: string): Promise<boolean> {
  const post = await db(tables.posts).where({ ID: postId, post_type: type }).first('post_parent');
  if (!post) return false;
  const keys: Array<{ meta_key: string }> = await db(tables.postmeta).where({ post_id: postId }).distinct('meta_key');
  await db(tables.postmeta).where({ post_id: postId }).del();
  await db(tables.posts).where({ ID: postId }).del();
  const changes = changesOf(db).post(postId, type, Number(post.post_parent));
  for (const { meta_key } of keys) changes.postMetaKey(postId, meta_key);
  return true;
}

/** One post's meta as WordPress caches it: each key's values in the order they were added (meta_id). */
export type PostMeta = Map<string, string[]>;

/**
 * WP: update_meta_cache('post', $ids): the meta of several posts in one query (`… WHERE post_id IN (…)
 * ORDER BY meta_id`), grouped per post; `keys` narrows the read to those keys. A post without meta is
 * absent from the map. Very long ID lists are read in several queries, within SQLite's variable bound.
 */
export async function postMetaFor(db: Knex | Knex.Transaction, tables: Tables, postIds: readonly number[], keys?: readonly string[]): Promise<Map<number, PostMeta>> {
  const byPost = new Map<number, PostMeta>();
  const ids = [...new Set(postIds)];
  const perQuery = MAX_SQL_VARIABLES - (keys?.length ?? 0);
  for (const chunk of chunks(ids, perQuery)) {
    const query = db(tables.postmeta).select('post_id', 'meta_key', 'meta_value').whereIn('post_id', chunk);
    if (keys) query.whereIn('meta_key', keys);
    for (const row of await query.orderBy('meta_id')) addMetaRow(byPost, row);
  }
  return byPost;
}

function addMetaRow(byPost: Map<number, PostMeta>, row: { post_id: number | string; meta_key: string; meta_value: string | null }): void {
  const id = Number(row.post_id);
  const meta = byPost.get(id) ?? new Map<string, string[]>();
  const values = meta.get(row.meta_key) ?? [];
  values.push(row.meta_value ?? '');
  meta.set(row.meta_key, values);
  byPost.set(id, meta);
}

/**
 * WP: get_post_meta($id, $key, true) for every key: the first value of each (the lowest meta_id), as
 * a single read takes it when a key has more than one row.
 */
export function singleMetaValues(meta: PostMeta | undefined): Map<string, string> {
  const single = new Map<string, string>();
  for (const [key, values] of meta ?? []) single.set(key, values[0] ?? '');
  return single;
}
