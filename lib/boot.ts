/**
 * Opening a site: connect, create WordPress's tables only on an empty database, apply the
 * plugin-owned migrations, and (for the embedded default) seed the demo site on first start.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Logger } from './logger';
import { Clock, systemClock } from './wp/clock';
import { SiteConfig } from './wp/config';
import { connect } from './wp/db/database';
import { installCoreTablesIfMissing, migrate } from './wp/db/migrate';
import { Tables } from './wp/db/tables';
import { installSite } from './wp/install';
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
    return { site, installed };
  } catch (err) {
    await db.close();
    throw err;
  }
}
