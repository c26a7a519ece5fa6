/**
 * The network tables WordPress multisite adds beside the users: `{prefix}site` (networks),
 * `{prefix}blogs` (sites) and `{prefix}sitemeta` (network options). Read-only: Understudy never
 * creates or changes a site; PHP may at any moment, so callers cache with a freshness bound.
 */
import { Database } from '../db/database';
import { maybeUnserialize } from '../php';
import { Network, NetworkSite } from './network';
import { NetworkDirectory } from './lookup';

/** The network options a lookup reads with each network. */
const NETWORK_META = ['siteurl', 'main_site'];

export class MultisiteStore {
  constructor(private readonly db: Database) {}

  private get prefix(): string { return this.db.tables.basePrefix; }

  /**
   * WP: the network of a blog, as ms-settings.php finds it: the blog's `site_id`, network 1 when the
   * blog names none (or is missing), with its siteurl and main site. One query; null without a network row.
   */
  async networkOfBlog(blogId: number): Promise<Network | null> {
    const p = this.prefix;
    const rows = await this.db.knex.raw(
      `SELECT s.id, s.domain, s.path, m.meta_key, m.meta_value FROM ${p}site s
       LEFT JOIN ${p}sitemeta m ON m.site_id = s.id AND m.meta_key IN (?, ?)
       WHERE s.id = COALESCE(NULLIF((SELECT b.site_id FROM ${p}blogs b WHERE b.blog_id = ?), 0), 1)
       ORDER BY m.meta_id`,
      [...NETWORK_META, blogId],
    );
    return networksFrom(this.rowsOf(rows))[0] ?? null;
  }

  /**
   * Every network with its options, and the sites on one of `domains` at one of `paths` (matched as
   * the database collates: case-insensitively on WordPress's MySQL tables): what a lookup compares,
   * in one query.
   */
  async directory(domains: string[], paths: string[]): Promise<NetworkDirectory> {
    const p = this.prefix;
    const marks = (list: unknown[]) => list.map(() => '?').join(', ');
    const result = await this.db.knex.raw(
      `SELECT 'network' AS kind, s.id, s.id AS network_id, s.domain, s.path, m.meta_id, m.meta_key, m.meta_value,
         NULL AS public, NULL AS archived, NULL AS mature, NULL AS spam, NULL AS deleted
       FROM ${p}site s LEFT JOIN ${p}sitemeta m ON m.site_id = s.id AND m.meta_key IN (${marks(NETWORK_META)})
       UNION ALL
       SELECT 'site' AS kind, b.blog_id, b.site_id, b.domain, b.path, NULL, NULL, NULL, b.public, b.archived, b.mature, b.spam, b.deleted
       FROM ${p}blogs b WHERE b.domain IN (${marks(domains)}) AND b.path IN (${marks(paths)})
       ORDER BY meta_id`,
      [...NETWORK_META, ...domains, ...paths],
    );
    const rows = this.rowsOf(result);
    return { networks: networksFrom(rows.filter((r) => r.kind === 'network')), sites: rows.filter((r) => r.kind === 'site').map(siteFrom) };
  }

  /** The network's sites that are not deleted, by blog ID (archived and spammed ones keep their work). */
  async undeletedBlogIds(networkId: number): Promise<number[]> {
    const rows: Array<{ blog_id: number }> = await this.db.knex(`${this.prefix}blogs`).select('blog_id')
      .where({ site_id: networkId }).whereNot('deleted', 1).orderBy('blog_id');
    return rows.map((row) => Number(row.blog_id));
  }

  /** Whether the database holds WordPress's network tables (`{prefix}blogs` stands for the three). */
  hasNetworkTables(): Promise<boolean> {
    return this.db.knex.schema.hasTable(`${this.prefix}blogs`);
  }

  /** Every network in `{prefix}site` with its options, by ID (for tools: `understudy nginx --network`). */
  async networks(): Promise<Network[]> {
    const p = this.prefix;
    const rows = await this.db.knex.raw(
      `SELECT s.id, s.domain, s.path, m.meta_key, m.meta_value FROM ${p}site s
       LEFT JOIN ${p}sitemeta m ON m.site_id = s.id AND m.meta_key IN (?, ?) ORDER BY s.id, m.meta_id`,
      NETWORK_META,
    );
    return networksFrom(this.rowsOf(rows));
  }

  /** Every site of every network in `{prefix}blogs`, by blog ID (for tools: `understudy network sites`). */
  async sites(): Promise<NetworkSite[]> {
    const rows = await this.db.knex(`${this.prefix}blogs`).orderBy('blog_id')
      .select({ id: 'blog_id', network_id: 'site_id' }, 'domain', 'path', 'public', 'archived', 'mature', 'spam', 'deleted');
    return rows.map(siteFrom);
  }

  /**
   * WP: get_site(): the `{prefix}blogs` row of one blog, with its flags, whatever its state; null when
   * no such blog exists. One query.
   */
  async siteById(blogId: number): Promise<NetworkSite | null> {
    const row = await this.db.knex(`${this.prefix}blogs`).where({ blog_id: blogId }).first(
      'blog_id as id', 'site_id as network_id', 'domain', 'path', 'public', 'archived', 'mature', 'spam', 'deleted',
    ) as Record<string, unknown> | undefined;
    return row ? siteFrom(row) : null;
  }

  /** knex.raw answers [rows, fields] on MySQL and rows on SQLite. */
  private rowsOf(result: unknown): Array<Record<string, unknown>> {
    return (this.db.dialect === 'mysql' ? (result as unknown[])[0] : result) as Array<Record<string, unknown>>;
  }
}

function siteFrom(row: Record<string, unknown>): NetworkSite {
  return {
    blogId: Number(row.id), networkId: Number(row.network_id), domain: String(row.domain ?? ''), path: String(row.path ?? ''),
    public: Number(row.public) === 1, archived: Number(row.archived) === 1, mature: Number(row.mature) === 1,
    spam: Number(row.spam) === 1, deleted: Number(row.deleted),
  };
}

/** Networks from rows of a network joined to its options (one row per option; the first of a key wins, as get_network_option() reads it). */
function networksFrom(rows: Array<Record<string, unknown>>): Network[] {
  const byId = new Map<number, Network>();
  for (const row of rows) {
    const id = Number(row.id);
    let network = byId.get(id);
    if (!network) {
      network = { id, domain: String(row.domain ?? ''), path: String(row.path ?? ''), siteUrl: null, mainSiteId: null };
      byId.set(id, network);
    }
    const value = row.meta_value === null || row.meta_value === undefined ? null : maybeUnserialize(String(row.meta_value));
    if (row.meta_key === 'siteurl' && network.siteUrl === null && value !== null) network.siteUrl = String(value);
    if (row.meta_key === 'main_site' && network.mainSiteId === null && Number(value) > 0) network.mainSiteId = Number(value);
  }
  return [...byId.values()];
}
