/**
 * Connected sites in the storage map's shape: an `svc_site` post whose `post_name` is the 12-character
 * site-id and whose `post_title` is the site's name, with its key hash and settings in `_svc_*`
 * postmeta (docs/sites.md). Lookups read the tables every time: a rotated key, a changed address
 * list or a deleted site takes effect at once, in every process.
 */
import { Knex } from 'knex';
import { Database } from '../../wp/db/database';
import { maybeUnserialize, phpEntries, phpFlag, serialize } from '../../wp/php';
import { deletePost, postMetaFor, singleMetaValues } from '../../wp/posts';
import { Site } from '../../wp/site';
import { insertNamedPost, updateNamedPost } from '../named-posts';
import { writeSupport } from '../write';
import { honouredOrigins } from './origins';
import { SITE_BOUNDS, SITE_DEFAULTS, SiteSettings, isCollectionSlug } from './settings';

export const SITE_POST_TYPE = 'svc_site';

export const SITE_META = {
  keyHash: '_svc_key_hash',
  origins: '_svc_origins',
  portal: '_svc_portal',
  newTickets: '_svc_new_tickets',
  messageLimit: '_svc_message_limit',
  messageHint: '_svc_message_hint',
  customerCanResolve: '_svc_customer_can_resolve',
  customerCanReopen: '_svc_customer_can_reopen',
  docCollections: '_svc_doc_collections',
} as const;

export interface ConnectedSite extends SiteSettings {
  /** The `svc_site` post's ID. */
  postId: number;
  /** The public 12-character site-id (`post_name`). */
  siteId: string;
  /** SHA-256 (hex) of the site key; the key itself is never stored. */
  keyHash: string;
  /** Site time, `YYYY-MM-DD HH:MM:SS` (`post_date`, `post_modified`). */
  createdAt: string;
  updatedAt: string;
}

export type NewSite = SiteSettings & { siteId: string; keyHash: string };
export type SiteChange = Partial<SiteSettings> & { keyHash?: string };

const SITE_COLUMNS = ['ID', 'post_name', 'post_title', 'post_date', 'post_modified'];

/** The published site with this site-id, or null. */
export async function findSite(db: Database, siteId: string, trx?: Knex.Transaction): Promise<ConnectedSite | null> {
  if (!siteId) return null;
  const knex = trx ?? db.knex;
  const row = await knex(db.tables.posts).where({ post_type: SITE_POST_TYPE, post_name: siteId, post_status: 'publish' })
    .orderBy('ID').first(SITE_COLUMNS);
  // post_name compares under the column's collation on MySQL: only the exact site-id is that site.
  if (!row || String(row.post_name) !== siteId) return null;
  const [site] = await withMeta(knex, db, [row]);
  return site ?? null;
}

/** Every published site, by site-id. */
export async function listSites(db: Database): Promise<ConnectedSite[]> {
  const rows = await db.knex(db.tables.posts).where({ post_type: SITE_POST_TYPE, post_status: 'publish' })
    .orderBy('post_name').orderBy('ID').select(SITE_COLUMNS);
  return withMeta(db.knex, db, rows);
}

export async function insertSite(site: Site, s: NewSite): Promise<number> {
  return insertNamedPost(site, { type: SITE_POST_TYPE, name: s.siteId, title: s.name, meta: metaOf(s) });
}

/** Changes some settings of a site (the name is also its post title), or its key hash. */
export async function updateSite(site: Site, postId: number, change: SiteChange): Promise<void> {
  await updateNamedPost(site, postId, metaOf(change), change.name);
}

/** WP: wp_delete_post(): the post and all its meta. Tickets opened on the site keep its site-id. */
export async function deleteSite(site: Site, postId: number): Promise<void> {
  await writeSupport(site, {}, async (ctx) => {
    await deletePost(ctx.trx, ctx.tables, postId, SITE_POST_TYPE);
  });
}

function metaOf(s: SiteChange): Record<string, string | number> {
  const meta: Record<string, string | number> = {};
  const flag = (value: boolean) => (value ? '1' : '0');
  if (s.keyHash !== undefined) meta[SITE_META.keyHash] = s.keyHash;
  if (s.origins !== undefined) meta[SITE_META.origins] = serialize(s.origins);
  if (s.portal !== undefined) meta[SITE_META.portal] = flag(s.portal);
  if (s.newTickets !== undefined) meta[SITE_META.newTickets] = flag(s.newTickets);
  if (s.messageLimit !== undefined) meta[SITE_META.messageLimit] = s.messageLimit;
  if (s.messageHint !== undefined) meta[SITE_META.messageHint] = s.messageHint;
  if (s.customerCanResolve !== undefined) meta[SITE_META.customerCanResolve] = flag(s.customerCanResolve);
  if (s.customerCanReopen !== undefined) meta[SITE_META.customerCanReopen] = flag(s.customerCanReopen);
  if (s.docCollections !== undefined) meta[SITE_META.docCollections] = serialize(s.docCollections);
  return meta;
}

interface SiteRow {
  ID: number | string;
  post_name: string;
  post_title: string;
  post_date: string;
  post_modified: string;
}

async function withMeta(knex: Knex | Knex.Transaction, db: Database, rows: SiteRow[]): Promise<ConnectedSite[]> {
  const meta = await postMetaFor(knex, db.tables, rows.map((r) => Number(r.ID)), Object.values(SITE_META));
  return rows.map((row) => {
    const m = singleMetaValues(meta.get(Number(row.ID)));
    const limit = Number(m.get(SITE_META.messageLimit));
    const { min, max } = SITE_BOUNDS.messageLimit;
    return {
      postId: Number(row.ID),
      siteId: String(row.post_name),
      name: String(row.post_title ?? ''),
      keyHash: m.get(SITE_META.keyHash) ?? '',
      origins: honouredOrigins(storedList(m.get(SITE_META.origins))),
      portal: phpFlag(m.get(SITE_META.portal), SITE_DEFAULTS.portal),
      newTickets: phpFlag(m.get(SITE_META.newTickets), SITE_DEFAULTS.newTickets),
      messageLimit: Number.isInteger(limit) && limit >= min ? Math.min(limit, max) : SITE_DEFAULTS.messageLimit,
      messageHint: m.get(SITE_META.messageHint) ?? SITE_DEFAULTS.messageHint,
      customerCanResolve: phpFlag(m.get(SITE_META.customerCanResolve), SITE_DEFAULTS.customerCanResolve),
      customerCanReopen: phpFlag(m.get(SITE_META.customerCanReopen), SITE_DEFAULTS.customerCanReopen),
      docCollections: storedList(m.get(SITE_META.docCollections)).filter((s): s is string => typeof s === 'string' && isCollectionSlug(s)),
      createdAt: String(row.post_date),
      updatedAt: String(row.post_modified ?? row.post_date),
    };
  });
}

/** The values of a PHP-serialized array (a list as written here, or any array PHP wrote); [] for anything else. */
function storedList(raw: string | undefined): unknown[] {
  if (raw === undefined) return [];
  return phpEntries(maybeUnserialize(raw)).map(([, value]) => value);
}
