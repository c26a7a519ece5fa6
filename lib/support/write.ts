/** What every support-desk write needs from the site: the transaction, table names, home URL and the time. */
import { Knex } from 'knex';
import { unixSeconds } from '../wp/clock';
import { siteDates } from '../wp/dates';
import { Tables } from '../wp/db/tables';
import { Site } from '../wp/site';

export interface WriteContext {
  trx: Knex.Transaction;
  tables: Tables;
  /** The site's home URL (guids) and host (Message-IDs). */
  home: string;
  /** The write's time in site time and UTC (`YYYY-MM-DD HH:MM:SS`): post dates, last activity. */
  dates: { local: string; gmt: string };
  /** The write's time in Unix seconds: jobs, request keys, mail receipts. */
  nowSeconds: number;
}

/**
 * Reads what a write needs from the site (home URL, site time) BEFORE its transaction opens: on SQLite
 * the transaction holds the only connection, so an option read that missed the cache inside it would
 * wait on itself. Every support write takes its context from here.
 */
export async function prepareWriteContext(site: Site): Promise<(trx: Knex.Transaction) => WriteContext> {
  const now = site.clock.now();
  const home = await site.homeUrl();
  const dates = await siteDates(site.options, now);
  const nowSeconds = unixSeconds(site.clock);
  return (trx) => ({ trx, tables: site.db.tables, home, dates, nowSeconds });
}
