/**
 * Opening a site: connect, create WordPress's tables only on an empty database, apply the
 * plugin-owned migrations, and (for the embedded default) seed the demo site on first start.
 */
import fs from 'node:fs';
import path from 'node:path';
import { enqueueInvalidationRetry } from './jobs/object-cache-retry';
import { Logger, withFields } from './logger';
import { COLLECTION_TAXONOMY, DOC_POST_TYPE } from './support/docs/store';
import { Clock, systemClock } from './wp/clock';
import { SiteConfig, configOfBlog } from './wp/config';
import { connect } from './wp/db/database';
import { installCoreTablesIfMissing, migrate } from './wp/db/migrate';
import { Tables } from './wp/db/tables';
import { installSite } from './wp/install';
import { invalidatorFor } from './wp/object-cache/adapter';
import { ObjectCacheCoherence } from './wp/object-cache/coherence';
import { NetworkSites } from './wp/multisite/sites';
import { MultisiteStore } from './wp/multisite/store';
import { Database } from './wp/db/database';
import { Site, createSite } from './wp/site';
import { MIGRATIONS } from '../schema/db/migrations';

export interface BootOptions {
  logger: Logger;
  clock?: Clock;
  /** The address a freshly installed site gets as `siteurl`/`home`. */
  siteUrl?: string;
  /** Connection pool size for MySQL. */
  poolMax?: number;
}

export interface OpenedSite {
  site: Site;
  /** True when this start created WordPress's tables (an empty database). */
  installed: boolean;
}

/**
 * Every process that opens a site (servers and CLI commands alike) invalidates PHP's persistent object
 * cache after each of its writes; what fails is retried by the job workers of the serving processes.
 */
async function keepObjectCacheCoherent(site: Site): Promise<void> {
  if (site.objectCache.setting.kind === 'none') return;
  const invalidator = await invalidatorFor(site, site.objectCache.setting, { postTypeTaxonomies: PLUGIN_POST_TYPE_TAXONOMIES });
  site.objectCache.keep(new ObjectCacheCoherence(site, invalidator, { retry: (changes) => enqueueInvalidationRetry(site, changes) }));
}

/** The plugins' post types filed in taxonomies: WordPress caches their term relationships per post. */
const PLUGIN_POST_TYPE_TAXONOMIES = { [DOC_POST_TYPE]: [COLLECTION_TAXONOMY] };

export async function openSite(config: SiteConfig, options: BootOptions): Promise<OpenedSite> {
  if (config.db.client === 'sqlite') fs.mkdirSync(path.dirname(config.db.filename), { recursive: true });
  const tables = new Tables({ prefix: config.tablePrefix, blogId: config.blogId, multisite: config.multisite });
  const db = connect({ target: config.db, tables, poolMax: options.poolMax });
  try {
    const installed = await installCoreTablesIfMissing(db);
    await migrate(db, MIGRATIONS);
    const site = createSite(config, db, options.clock ?? systemClock, options.logger);
    if (installed) {
      await installSite(site, { siteUrl: options.siteUrl ?? 'http://127.0.0.1:8080', title: 'Understudy', adminEmail: 'admin@example.test' });
    }
    await keepObjectCacheCoherent(site);
    return { site, installed };
  } catch (err) {
    await db.close();
    throw err;
  }
}

/** A network one process serves whole: the one connection pool every site shares, and where requests find their site. */
export interface OpenedNetwork {
  config: SiteConfig & { network: NonNullable<SiteConfig['network']> };
  /** The pool, naming the main site's tables (users, usermeta and the network tables are the network's). */
  db: Database;
  sites: NetworkSites;
  close(): Promise<void>;
}

/** Connects to a network's database; each site is opened on its own (openSiteOfNetwork()). */
export function openNetwork(config: OpenedNetwork['config'], options: Pick<BootOptions, 'poolMax'>): OpenedNetwork {
  const tables = new Tables({ prefix: config.tablePrefix, blogId: config.blogId, multisite: true });
  const db = connect({ target: config.db, tables, poolMax: options.poolMax });
  return { config, db, sites: new NetworkSites(new MultisiteStore(db), config.network), close: () => db.close() };
}

/**
 * One site of a served network over the network's pool: its own table names, options, caches and
 * object cache keys; its plugin tables made when missing (a network-activated plugin makes them per
 * site). Closing the site leaves the pool to the network.
 */
export async function openSiteOfNetwork(network: OpenedNetwork, blogId: number, options: BootOptions): Promise<Site> {
  const db = siteDatabase(network, blogId);
  await migrate(db, MIGRATIONS);
  const config = configOfBlog(network.config, blogId);
  const site = createSite(config, db, options.clock ?? systemClock, withFields(options.logger, { blog_id: blogId }));
  await keepObjectCacheCoherent(site);
  return site;
}

/** One site's tables over the network's pool; closing it leaves the pool open. */
export function siteDatabase(network: OpenedNetwork, blogId: number): Database {
  const tables = new Tables({ prefix: network.config.tablePrefix, blogId, multisite: true });
  return { ...network.db, tables, close: async () => {} };
}
