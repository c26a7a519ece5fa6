/**
 * WP: wp_insert_post() and add_post_meta() at the row level: the columns WordPress fills when a
 * plugin inserts a post, so rows written here look like rows written by PHP.
 */
import { Knex } from 'knex';
import { Tables } from './db/tables';

export interface NewPost {
  post_type: string;
  post_status: string;
  post_title?: string;
  post_content?: string;
  post_author?: number;
  post_parent?: number;
  post_name?: string;
  post_mime_type?: string;
  menu_order?: number;
  comment_status?: string;
  ping_status?: string;
  /** Site-local and UTC creation time (`YYYY-MM-DD HH:MM:SS`); modified defaults to the same. */
  date: { local: string; gmt: string };
  modified?: { local: string; gmt: string };
}

/** Inserts a post and sets its guid as WordPress does (`<home>/?post_type=<type>&p=<id>`); returns the ID. */
export async function insertPost(db: Knex | Knex.Transaction, tables: Tables, home: string, post: NewPost): Promise<number> {
  const modified = post.modified ?? post.date;
  const [id] = await db(tables.posts).insert({
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
    post_name: post.post_name ?? '',
    to_ping: '',
    pinged: '',
    post_modified: modified.local,
    post_modified_gmt: modified.gmt,
    post_content_filtered: '',
    post_parent: post.post_parent ?? 0,
    guid: '',
    menu_order: post.menu_order ?? 0,
    post_type: post.post_type,
    post_mime_type: post.post_mime_type ?? '',
    comment_count: 0,
  });
  const postId = Number(id);
  const guid = post.post_type === 'post' ? `${home}/?p=${postId}` : `${home}/?post_type=${post.post_type}&p=${postId}`;
  const update: Record<string, unknown> = { guid };
  // WP: a published post with neither slug nor title gets its ID as slug (sanitize_title's fallback).
  if (!post.post_name && !post.post_title && !['draft', 'pending', 'auto-draft'].includes(post.post_status)) update.post_name = String(postId);
  await db(tables.posts).where({ ID: postId }).update(update);
  return postId;
}

/** WP: add_post_meta() for several keys at once, in one statement. */
export async function addPostMeta(db: Knex | Knex.Transaction, tables: Tables, postId: number, meta: Record<string, string | number>): Promise<void> {
  const rows = Object.entries(meta).map(([meta_key, value]) => ({ post_id: postId, meta_key, meta_value: String(value) }));
  if (rows.length) await db(tables.postmeta).insert(rows);
}

/**
 * WP: update_post_meta() for a key that holds one value: updates its rows, or adds one when there is
 * none; `null` deletes the key (delete_post_meta). The existence check matters on MySQL, which reports
 * no affected row when the value is already the same.
 */
export async function updatePostMeta(db: Knex | Knex.Transaction, tables: Tables, postId: number, key: string, value: string | number | null): Promise<void> {
  const rows = () => db(tables.postmeta).where({ post_id: postId, meta_key: key });
  if (value === null) {
    await rows().del();
    return;
  }
  const changed = await rows().update({ meta_value: String(value) });
  if (!changed && !(await rows().first('meta_id'))) await addPostMeta(db, tables, postId, { [key]: value });
}

/** One post's meta as WordPress caches it: each key's values in the order they were added (meta_id). */
export type PostMeta = Map<string, string[]>;

/** SQLite's smallest default bound on the variables of one statement (999 before SQLite 3.32). */
const MAX_SQL_VARIABLES = 999;

/**
 * WP: update_meta_cache('post', $ids): the meta of several posts in one query (`… WHERE post_id IN (…)
 * ORDER BY meta_id`), grouped per post; `keys` narrows the read to those keys. A post without meta is
 * absent from the map. Very long ID lists are read in several queries, within SQLite's variable bound.
 */
export async function postMetaFor(db: Knex | Knex.Transaction, tables: Tables, postIds: readonly number[], keys?: readonly string[]): Promise<Map<number, PostMeta>> {
  const byPost = new Map<number, PostMeta>();
  const ids = [...new Set(postIds)];
  const perQuery = MAX_SQL_VARIABLES - (keys?.length ?? 0);
  for (let start = 0; start < ids.length; start += perQuery) {
    const query = db(tables.postmeta).select('post_id', 'meta_key', 'meta_value').whereIn('post_id', ids.slice(start, start + perQuery));
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
