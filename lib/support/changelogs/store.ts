/**
 * Changelogs in the storage map's shape (docs/changelogs.md):
 * - a product is an `svc_changelog` post: `post_name` its slug, `post_title` its name, meta `_svc_type`,
 *   `_svc_url` (its page), `_svc_source` and `_svc_source_kind` (where sync reads it), `_svc_last_sync`
 *   (the last sync's outcome, a serialized array);
 * - a release is an `svc_release` post with `post_parent` = the product: `post_title` its version,
 *   `post_content` its notes (markdown), `post_date`/`post_date_gmt` its release date, meta
 *   `_svc_version`, `_svc_stability`, `_svc_url`, `_svc_undated` ('1' when the changelog gave no date),
 *   `_svc_rendered_notes` (the notes' view, rendered once: ./rendered.ts).
 * Every read goes to the tables (a release the PHP site adds shows at once): a release without the
 * meta, as a PHP screen may write it, is read from its title and its version's own pre-release part.
 */
import { Knex } from 'knex';
import { Database } from '../../wp/db/database';
import { maybeUnserialize, phpEntries, serialize } from '../../wp/php';
import { postMetaFor, singleMetaValues } from '../../wp/posts';
import { changelogOperations } from '../../../schema/support/changelog-args';
import { releaseSchema } from '../../../schema/support/release';
import { RenderedNotes } from './renderer';
import { currentRendered } from './rendered';
import { isPrerelease, normalizeVersion } from './version';

export const PRODUCT_POST_TYPE = 'svc_changelog';
export const RELEASE_POST_TYPE = 'svc_release';

export const PRODUCT_META = {
  type: '_svc_type',
  url: '_svc_url',
  source: '_svc_source',
  sourceKind: '_svc_source_kind',
  lastSync: '_svc_last_sync',
} as const;

export const RELEASE_META = {
  version: '_svc_version',
  stability: '_svc_stability',
  url: '_svc_url',
  undated: '_svc_undated',
  rendered: '_svc_rendered_notes',
} as const;

const STABILITIES = releaseSchema.properties.stability.enum;
export type Stability = (typeof STABILITIES)[number];

/** Where sync reads a product's releases: a readme.txt, a CHANGELOG.md, GitHub-releases-style JSON, or whichever the content is. */
export const SOURCE_KINDS = changelogOperations.probe.kind.enum;
export type SourceKind = (typeof SOURCE_KINDS)[number];

export const DEFAULT_PRODUCT_TYPE = 'plugin';

/** The outcome of the last sync (or probe-free sync attempt), as `understudy changelog list` shows it. */
export interface SyncStatus {
  /** UTC, `YYYY-MM-DD HH:MM:SS`. */
  at: string;
  ok: boolean;
  /** What went wrong, or what was done. */
  message: string;
  found: number;
  added: number;
  updated: number;
}

export interface Product {
  postId: number;
  slug: string;
  name: string;
  type: string;
  url: string;
  source: string;
  sourceKind: SourceKind;
  lastSync: SyncStatus | null;
  authorId: number;
  status: string;
  modifiedGmt: string;
}

/** What lists and sorting need of a release. */
export interface ReleaseHead {
  postId: number;
  productId: number;
  version: string;
  stability: Stability;
}

export interface StoredRelease extends ReleaseHead {
  url: string;
  /** `YYYY-MM-DD` (the UTC day of post_date_gmt), or null when the changelog gave no date. */
  date: string | null;
  /** UTC `YYYY-MM-DD HH:MM:SS`. */
  publishedGmt: string;
  modifiedGmt: string;
  notes: string;
  /** The notes' stored view, or null when there is none rendered from these notes (the PHP site wrote them). */
  rendered: RenderedNotes | null;
}

const PRODUCT_COLUMNS = ['ID', 'post_name', 'post_title', 'post_author', 'post_status', 'post_modified_gmt'];

/** The published product with this slug (exactly: MySQL's collation would match other spellings), or null. */
export async function findProductBySlug(db: Database, slug: string): Promise<Product | null> {
  if (!slug) return null;
  const row = await db.knex(db.tables.posts).where({ post_type: PRODUCT_POST_TYPE, post_name: slug, post_status: 'publish' })
    .orderBy('ID').first(PRODUCT_COLUMNS);
  if (!row || String(row.post_name) !== slug) return null;
  return (await withProductMeta(db.knex, db, [row]))[0] ?? null;
}

/** The product post with this ID, whatever its status, or null. */
export async function findProductById(db: Database, id: number): Promise<Product | null> {
  const row = await db.knex(db.tables.posts).where({ post_type: PRODUCT_POST_TYPE, ID: id }).first(PRODUCT_COLUMNS);
  return row ? ((await withProductMeta(db.knex, db, [row]))[0] ?? null) : null;
}

/** Every published product, by slug. */
export async function listProducts(db: Database): Promise<Product[]> {
  const rows = await db.knex(db.tables.posts).where({ post_type: PRODUCT_POST_TYPE, post_status: 'publish' })
    .orderBy('post_name').orderBy('ID').select(PRODUCT_COLUMNS);
  return withProductMeta(db.knex, db, rows);
}

/** The published releases of these products (all statuses with `anyStatus`), unsorted. */
export async function releaseHeads(db: Database, productIds: number[], anyStatus = false, trx?: Knex.Transaction): Promise<ReleaseHead[]> {
  if (!productIds.length) return [];
  const knex = trx ?? db.knex;
  const query = knex(db.tables.posts).where({ post_type: RELEASE_POST_TYPE }).whereIn('post_parent', productIds).select('ID', 'post_parent', 'post_title');
  if (!anyStatus) query.where({ post_status: 'publish' });
  const rows: Array<{ ID: number | string; post_parent: number | string; post_title: string }> = await query;
  const meta = await postMetaFor(knex, db.tables, rows.map((r) => Number(r.ID)), [RELEASE_META.version, RELEASE_META.stability]);
  return rows.map((row) => {
    const m = singleMetaValues(meta.get(Number(row.ID)));
    const version = normalizeVersion(m.get(RELEASE_META.version) || String(row.post_title ?? ''));
    return { postId: Number(row.ID), productId: Number(row.post_parent), version, stability: stabilityOf(m.get(RELEASE_META.stability), version) };
  });
}

/** The full releases (notes, dates, URL) of these heads, in the heads' order. */
export async function releasesOf(db: Database, heads: ReleaseHead[]): Promise<StoredRelease[]> {
  if (!heads.length) return [];
  const ids = heads.map((h) => h.postId);
  const rows: Array<Record<string, string | number>> = await db.knex(db.tables.posts).whereIn('ID', ids)
    .select('ID', 'post_content', 'post_date_gmt', 'post_modified_gmt');
  const byId = new Map(rows.map((r) => [Number(r.ID), r]));
  const meta = await postMetaFor(db.knex, db.tables, ids, [RELEASE_META.url, RELEASE_META.undated, RELEASE_META.rendered]);
  return heads.flatMap((head) => {
    const row = byId.get(head.postId);
    if (!row) return [];
    const m = singleMetaValues(meta.get(head.postId));
    const publishedGmt = String(row.post_date_gmt);
    const notes = String(row.post_content ?? '');
    return [{
      ...head,
      url: m.get(RELEASE_META.url) ?? '',
      date: m.get(RELEASE_META.undated) === '1' || publishedGmt.startsWith('0000') ? null : publishedGmt.slice(0, 10),
      publishedGmt,
      modifiedGmt: String(row.post_modified_gmt),
      notes,
      rendered: currentRendered(m.get(RELEASE_META.rendered), notes),
    }];
  });
}

/** Stored stability when it is one of ours, else what the version says. */
function stabilityOf(stored: string | undefined, version: string): Stability {
  if (stored !== undefined && (STABILITIES as readonly string[]).includes(stored)) return stored as Stability;
  return isPrerelease(version) ? 'pre-release' : 'stable';
}

interface ProductRow {
  ID: number | string;
  post_name: string;
  post_title: string;
  post_author: number | string;
  post_status: string;
  post_modified_gmt: string;
}

async function withProductMeta(knex: Knex | Knex.Transaction, db: Database, rows: ProductRow[]): Promise<Product[]> {
  const meta = await postMetaFor(knex, db.tables, rows.map((r) => Number(r.ID)), Object.values(PRODUCT_META));
  return rows.map((row) => {
    const m = singleMetaValues(meta.get(Number(row.ID)));
    const kind = m.get(PRODUCT_META.sourceKind) as SourceKind | undefined;
    return {
      postId: Number(row.ID),
      slug: String(row.post_name),
      name: String(row.post_title ?? ''),
      type: m.get(PRODUCT_META.type) || DEFAULT_PRODUCT_TYPE,
      url: m.get(PRODUCT_META.url) ?? '',
      source: m.get(PRODUCT_META.source) ?? '',
      sourceKind: kind && (SOURCE_KINDS as readonly string[]).includes(kind) ? kind : 'auto',
      lastSync: syncStatusOf(m.get(PRODUCT_META.lastSync)),
      authorId: Number(row.post_author),
      status: String(row.post_status),
      modifiedGmt: String(row.post_modified_gmt),
    };
  });
}

export function serializeSyncStatus(status: SyncStatus): string {
  return serialize(status);
}

function syncStatusOf(raw: string | undefined): SyncStatus | null {
  if (raw === undefined) return null;
  const fields = new Map(phpEntries(maybeUnserialize(raw)).map(([k, v]) => [String(k), v]));
  if (!fields.has('at')) return null;
  const num = (k: string) => Number(fields.get(k) ?? 0) || 0;
  return {
    at: String(fields.get('at')),
    ok: fields.get('ok') === true || fields.get('ok') === 1 || fields.get('ok') === '1',
    message: String(fields.get('message') ?? ''),
    found: num('found'),
    added: num('added'),
    updated: num('updated'),
  };
}
