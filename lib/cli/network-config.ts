/**
 * The configured network's tables, for tools that read them without opening a site (`--url`,
 * `understudy network sites`, `understudy nginx --network`); a single site gets a clear error.
 */
import { loadSiteConfig } from '../wp/config';
import { connect } from '../wp/db/database';
import { Tables } from '../wp/db/tables';
import { NetworkInstall } from '../wp/multisite/lookup';
import { MultisiteStore } from '../wp/multisite/store';
import { CliError } from './args';

/** The configured network, for tools that read its tables (no site is opened, nothing migrated). */
export interface OpenedNetwork {
  store: MultisiteStore;
  install: NetworkInstall;
}

/**
 * Runs `work` over the network's tables and closes the connection afterwards; `what` says what needed
 * a network, for the error a single site gets.
 */
export async function withNetwork<T>(ctx: { env: Record<string, string | undefined>; cwd: string }, what: string, work: (network: OpenedNetwork) => Promise<T>): Promise<T> {
  const config = loadSiteConfig(ctx.env, ctx.cwd);
  if (!config.network) throw new CliError(`${what} needs a network, but ${config.description} is a single site (MULTISITE is off)`);
  const db = connect({ target: config.db, tables: new Tables({ prefix: config.tablePrefix }) });
  try {
    const store = new MultisiteStore(db);
    if (!(await store.hasNetworkTables())) {
      throw new CliError(`${what} needs a network, but ${config.description} has no ${config.tablePrefix}blogs table (MULTISITE is on: is it the network's database and table prefix?)`);
    }
    return await work({ store, install: config.network });
  } finally {
    await db.close();
  }
}
