/**
 * Support-desk resources kept as one published post each, named by its `post_name` (a mailbox by its
 * key, a connected site by its site-id), titled by `post_title`, with their settings in postmeta.
 */
import { addPostMeta, insertPost, updatePostMeta, updatePostRow } from '../wp/posts';
import { Site } from '../wp/site';
import { writeSupport } from './write';

export interface NamedPost {
  type: string;
  name: string;
  title: string;
  meta: Record<string, string | number>;
}

/** Inserts the post and its meta in one write; returns the post ID. */
export async function insertNamedPost(site: Site, post: NamedPost): Promise<number> {
  return writeSupport(site, {}, async (ctx) => {
    const id = await insertPost(ctx.trx, ctx.tables, ctx.home, {
      post_type: post.type, post_status: 'publish', post_name: post.name, post_title: post.title, date: ctx.dates,
    });
    await addPostMeta(ctx.trx, ctx.tables, id, post.meta);
    return id;
  });
}

/** Updates the given meta (and the title, when given) and marks the post modified, in one write. */
export async function updateNamedPost(site: Site, postId: number, meta: Record<string, string | number>, title?: string): Promise<void> {
  await writeSupport(site, {}, async (ctx) => {
    for (const [key, value] of Object.entries(meta)) await updatePostMeta(ctx.trx, ctx.tables, postId, key, value);
    const post: Record<string, string> = { post_modified: ctx.dates.local, post_modified_gmt: ctx.dates.gmt };
    if (title !== undefined) post.post_title = title;
    await updatePostRow(ctx.trx, ctx.tables, postId, post);
  });
}
