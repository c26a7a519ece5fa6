/**
 * Writing products and releases (./store.ts has the shape), each change one write through
 * writeSupport(). A sync upserts by version: a version already stored is updated only where the
 * changelog now says something else, a new one is inserted, and nothing is ever deleted (a release
 * dropped from the source, or unpublished on the site, stays as it is).
 */
import { siteDates } from '../../wp/dates';
import { addPostMeta, insertPost, postMetaFor, singleMetaValues, updatePostMeta, updatePostRow } from '../../wp/posts';
import { sanitizeTitleWithDashes } from '../../wp/formatting';
import { Site } from '../../wp/site';
import { insertNamedPost, updateNamedPost } from '../named-posts';
import { WriteContext, writeSupport } from '../write';
import { ParsedRelease } from './parse';
import {
  PRODUCT_META, PRODUCT_POST_TYPE, RELEASE_META, RELEASE_POST_TYPE, ReleaseHead, SourceKind, Stability, SyncStatus,
  releaseHeads, serializeSyncStatus,
} from './store';
import { RenderedNotes } from './renderer';
import { encodeRendered } from './rendered';
import { compareVersions, isPrerelease } from './version';

export interface ProductFields {
  name: string;
  type: string;
  url: string;
  source: string;
  sourceKind: SourceKind;
}

export async function insertProduct(site: Site, slug: string, p: ProductFields): Promise<number> {
  return insertNamedPost(site, { type: PRODUCT_POST_TYPE, name: slug, title: p.name, meta: productMeta(p) });
}

export async function updateProduct(site: Site, postId: number, change: Partial<ProductFields>): Promise<void> {
  await updateNamedPost(site, postId, productMeta(change), change.name);
}

/** Records the outcome of a sync in the product's meta (not a change of the product: post_modified stays). */
export async function recordSyncStatus(site: Site, postId: number, status: SyncStatus): Promise<void> {
  await writeSupport(site, {}, (ctx) => updatePostMeta(ctx.trx, ctx.tables, postId, PRODUCT_META.lastSync, serializeSyncStatus(status)));
}

function productMeta(p: Partial<ProductFields>): Record<string, string> {
  const meta: Record<string, string> = {};
  if (p.type !== undefined) meta[PRODUCT_META.type] = p.type;
  if (p.url !== undefined) meta[PRODUCT_META.url] = p.url;
  if (p.source !== undefined) meta[PRODUCT_META.source] = p.source;
  if (p.sourceKind !== undefined) meta[PRODUCT_META.sourceKind] = p.sourceKind;
  return meta;
}

/** Stores the releases' rendered views (not a change of the release: post_modified stays). */
export async function storeRenderedNotes(site: Site, releases: Array<{ postId: number; notes: string; rendered: RenderedNotes }>): Promise<void> {
  await writeSupport(site, {}, async (ctx) => {
    for (const r of releases) await updatePostMeta(ctx.trx, ctx.tables, r.postId, RELEASE_META.rendered, encodeRendered(r.notes, r.rendered));
  });
}

export interface UpsertResult {
  added: number;
  updated: number;
}

type Dates = { local: string; gmt: string };

/** Inserts the releases not stored yet and updates those whose notes, date, URL or stability changed; one transaction. */
export async function upsertReleases(site: Site, productId: number, releases: ParsedRelease[]): Promise<UpsertResult> {
  // Site time depends on options: read before the transaction (on SQLite it holds the only connection).
  const releaseDates = new Map<string, Dates>();
  for (const date of new Set(releases.map((r) => r.date).filter((d): d is string => d !== null))) {
    releaseDates.set(date, await siteDates(site.options, Date.parse(`${date}T00:00:00Z`)));
  }
  return writeSupport(site, {}, async (ctx) => {
    // Two syncs of one product (the route and a job) take turns here: the second then reads what the
    // first stored, instead of inserting the same versions again.
    await ctx.trx(ctx.tables.posts).where({ ID: productId }).forUpdate().first('ID');
    const stored = await releaseHeads(site.db, [productId], true, ctx.trx);
    const result: UpsertResult = { added: 0, updated: 0 };
    for (const release of releases) {
      const dates = release.date ? (releaseDates.get(release.date) as Dates) : null;
      // The same version however written: `1.0` is `1.0.0`, `v1.2` is `1.2`.
      const head = stored.find((h) => compareVersions(h.version, release.version) === 0);
      if (!head) {
        await insertRelease(ctx, productId, release, dates);
        result.added++;
      } else if (await updateRelease(ctx, head, release, dates)) {
        result.updated++;
      }
    }
    return result;
  });
}

function stabilityOf(release: ParsedRelease): Stability {
  return (release.prerelease ?? isPrerelease(release.version)) ? 'pre-release' : 'stable';
}

async function insertRelease(ctx: WriteContext, productId: number, release: ParsedRelease, dates: Dates | null): Promise<void> {
  const id = await insertPost(ctx.trx, ctx.tables, ctx.home, {
    post_type: RELEASE_POST_TYPE, post_status: 'publish', post_parent: productId, post_title: release.version,
    post_name: sanitizeTitleWithDashes(release.version, 'save'), post_content: release.notes,
    // An undated release is dated when first seen; `_svc_undated` keeps that from being shown as its date.
    date: dates ?? ctx.dates, modified: ctx.dates,
  });
  const meta: Record<string, string> = { [RELEASE_META.version]: release.version, [RELEASE_META.stability]: stabilityOf(release), [RELEASE_META.url]: release.url ?? '' };
  if (!dates) meta[RELEASE_META.undated] = '1';
  await addPostMeta(ctx.trx, ctx.tables, id, meta);
}

/** Brings a stored release in line with the changelog; false when nothing differed (nothing written). */
async function updateRelease(ctx: WriteContext, head: ReleaseHead, release: ParsedRelease, dates: Dates | null): Promise<boolean> {
  const row = await ctx.trx(ctx.tables.posts).where({ ID: head.postId }).first('post_content', 'post_date_gmt');
  const meta = singleMetaValues((await postMetaFor(ctx.trx, ctx.tables, [head.postId], Object.values(RELEASE_META))).get(head.postId));
  const post: Record<string, string> = {};
  if (String(row.post_content ?? '') !== release.notes) post.post_content = release.notes;
  if (dates && String(row.post_date_gmt) !== dates.gmt) Object.assign(post, { post_date: dates.local, post_date_gmt: dates.gmt });
  const wantedMeta: Record<string, string | null> = {
    [RELEASE_META.version]: release.version,
    [RELEASE_META.stability]: stabilityOf(release),
    [RELEASE_META.url]: release.url ?? (meta.get(RELEASE_META.url) ?? ''),
    [RELEASE_META.undated]: dates ? null : (meta.get(RELEASE_META.undated) ?? null),
  };
  const metaChanges = Object.entries(wantedMeta).filter(([key, value]) => (meta.get(key) ?? null) !== value);
  if (!Object.keys(post).length && !metaChanges.length) return false;
  for (const [key, value] of metaChanges) await updatePostMeta(ctx.trx, ctx.tables, head.postId, key, value);
  await updatePostRow(ctx.trx, ctx.tables, head.postId, { ...post, post_modified: ctx.dates.local, post_modified_gmt: ctx.dates.gmt }, { type: RELEASE_POST_TYPE, parent: head.productId });
  return true;
}
