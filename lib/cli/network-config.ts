/**
 * What the CLI needs to know of a network beyond SiteConfig (lib/wp/config.ts does not carry it yet):
 * whether the site is a network, and how the network is installed (networkInstallOf()). From
 * wp-config.php when WP_CONFIG_PATH names it; otherwise from environment variables with the same
 * names: MULTISITE, SUBDOMAIN_INSTALL, DOMAIN_CURRENT_SITE, PATH_CURRENT_SITE, SITE_ID_CURRENT_SITE,
 * BLOG_ID_CURRENT_SITE, NOBLOGREDIRECT. MULTISITE counts for an SQLite DATABASE_URL here too.
 */
import path from 'node:path';
import { SiteConfig, loadSiteConfig } from '../wp/config';
import { connect } from '../wp/db/database';
import { Tables } from '../wp/db/tables';
import { NetworkInstall } from '../wp/multisite/lookup';
import { networkInstallOf } from '../wp/multisite/install';
import { MultisiteStore } from '../wp/multisite/store';
import { WpConfigValue, readWpConfig } from '../wp/wp-config';
import { CliError, booleanSetting } from './args';

export interface NetworkSetting {
  /** is_multisite(). */
  multisite: boolean;
  install: NetworkInstall;
}

type Env = Record<string, string | undefined>;

const FROM_ENV = ['DOMAIN_CURRENT_SITE', 'PATH_CURRENT_SITE', 'SITE_ID_CURRENT_SITE', 'BLOG_ID_CURRENT_SITE', 'NOBLOGREDIRECT'];

export function networkSettingOf(config: SiteConfig, env: Env, cwd: string): NetworkSetting {
  if (config.source === 'wp-config' && env.WP_CONFIG_PATH) {
    return { multisite: config.multisite, install: networkInstallOf(readWpConfig(path.resolve(cwd, env.WP_CONFIG_PATH))) };
  }
  const constants: Record<string, WpConfigValue> = {};
  for (const name of FROM_ENV) if (env[name] !== undefined) constants[name] = env[name] as string;
  if (env.SUBDOMAIN_INSTALL !== undefined) constants.SUBDOMAIN_INSTALL = booleanSetting('SUBDOMAIN_INSTALL', env.SUBDOMAIN_INSTALL);
  return {
    multisite: config.multisite || booleanSetting('MULTISITE', env.MULTISITE),
    install: networkInstallOf({ file: 'the environment', constants, dynamic: {} }),
  };
}

/** The configuration of one blog of the network: its tables, and the object cache keys PHP gives it. */
export function configOfBlog(config: SiteConfig, blogId: number): SiteConfig {
  const cache = config.objectCache;
  const setting = cache && 'blogId' in cache.setting ? { ...cache.setting, blogId, multisite: true } : cache?.setting;
  return { ...config, multisite: true, blogId, ...(cache && setting ? { objectCache: { ...cache, setting } } : {}) };
}

/** The configured network, for tools that read its tables (no site is opened, nothing migrated). */
export interface OpenedNetwork {
  store: MultisiteStore;
  install: NetworkInstall;
}

/**
 * Runs `work` over the network's tables and closes the connection afterwards; `what` says what needed
 * a network, for the error a single site gets.
 */
export async function withNetwork<T>(ctx: { env: Env; cwd: string }, what: string, work: (network: OpenedNetwork) => Promise<T>): Promise<T> {
  const config = loadSiteConfig(ctx.env, ctx.cwd);
  const setting = networkSettingOf(config, ctx.env, ctx.cwd);
  if (!setting.multisite) throw new CliError(`${what} needs a network, but ${config.description} is a single site (MULTISITE is off)`);
  const db = connect({ target: config.db, tables: new Tables({ prefix: config.tablePrefix }) });
  try {
    const store = new MultisiteStore(db);
    if (!(await store.hasNetworkTables())) {
      throw new CliError(`${what} needs a network, but ${config.description} has no ${config.tablePrefix}blogs table (MULTISITE is on: is it the network's database and table prefix?)`);
    }
    return await work({ store, install: setting.install });
  } finally {
    await db.close();
  }
}
