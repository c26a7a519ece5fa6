/**
 * The one way the support desk writes: writeSupport() reads what the write needs from the site, runs
 * the work in one transaction (committed before anything is answered), claims the request key when
 * there is one, and once it has committed publishes what it changed in WordPress's tables
 * (site.changes) and tells the site's support desk (./desk.ts). Nothing is written while writes are
 * refused beside an object cache Understudy cannot keep coherent (OBJECT_CACHE_UNKNOWN).
 */
import { Knex } from 'knex';
import { writeWordPress } from '../wp/change-feed';
import { WordPressChanges } from '../wp/changes';
import { unixSeconds } from '../wp/clock';
import { siteDates } from '../wp/dates';
import { Tables } from '../wp/db/tables';
import { Site } from '../wp/site';
import { deskOf } from './desk';
import { RequestKey, claimRequestKey, recordRequestResult, storedResult } from './request-keys';
import { SupportSettings, readSettings } from './settings';

/** What every support write needs from the site: the transaction, table names, home URL and the time. */
export interface WriteContext {
  trx: Knex.Transaction;
  tables: Tables;
  /** The site's home URL (guids) and host (Message-IDs). */
  home: string;
  /** The write's time in site time and UTC (`YYYY-MM-DD HH:MM:SS`): post dates, last activity. */
  dates: { local: string; gmt: string };
  /** The write's time in Unix seconds: jobs, request keys, mail receipts. */
  nowSeconds: number;
  /** The desk's settings as the write began: whether it queues a team alert. */
  settings: SupportSettings;
  /** Tickets the write inserted or touched (./tickets/writes.ts fills it): what this process's lists re-read. */
  changedTickets: Set<number>;
  /** Docs the write inserted or changed (insertDocs() in ./docs/store.ts fills it): what the docs search index reads first. */
  changedDocs: Set<number>;
  /**
   * What the write changed in WordPress's tables, published to `site.changes` once it has committed.
   * The row writers of lib/wp/posts.ts record into it; work that writes rows by hand records them here.
   */
  changes: WordPressChanges;
}

/** A write without request key takes no options (`{}`). */
export type WriteOptions = Record<string, never>;

export interface KeyedWriteOptions<Checked> {
  /** The request's key; absent when the request has none, and the write then simply runs. */
  requestKey: RequestKey | null | undefined;
  /**
   * Runs in the transaction before the key is claimed, and hands its result to the work: what refuses
   * a request (a ticket the caller may not see) refuses its repeats too, instead of replaying them.
   */
  check?: (ctx: WriteContext) => Promise<Checked>;
}

/** The ID the keyed write stored, or on a repeat of its key the ID its first request stored. */
export interface KeyedWrite {
  id: number;
  replayed: boolean;
}

/** A write that a request key makes idempotent: the work returns the ID a repeat of the key answers with. */
export function writeSupport<Checked = undefined>(
  site: Site, options: KeyedWriteOptions<Checked>, work: (ctx: WriteContext, checked: Checked) => Promise<number>,
): Promise<KeyedWrite>;
/** A write without request key: returns what the work returns. */
export function writeSupport<T>(site: Site, options: WriteOptions, work: (ctx: WriteContext) => Promise<T>): Promise<T>;
export function writeSupport(site: Site, options: WriteOptions | KeyedWriteOptions<unknown>, work: (ctx: WriteContext, checked?: unknown) => Promise<unknown>): Promise<unknown> {
  if ('requestKey' in options) return writeOnce(site, options as KeyedWriteOptions<unknown>, work as (ctx: WriteContext, checked: unknown) => Promise<number>);
  return write(site, work);
}

async function writeOnce(site: Site, options: KeyedWriteOptions<unknown>, work: (ctx: WriteContext, checked: unknown) => Promise<number>): Promise<KeyedWrite> {
  const rk = options.requestKey ?? null;
  const id = await write(site, async (ctx) => {
    const checked = await options.check?.(ctx);
    // A concurrent repeat waits here on the key's unique index until the first request commits.
    if (rk && !(await claimRequestKey(ctx.trx, site.db, rk, ctx.nowSeconds))) return null;
    const stored = await work(ctx, checked);
    if (rk) await recordRequestResult(ctx.trx, site.db, rk, stored);
    return stored;
  });
  if (id !== null) return { id, replayed: false };
  return { id: await storedResult(site.db, rk as RequestKey), replayed: true };
}

async function write<T>(site: Site, work: (ctx: WriteContext) => Promise<T>): Promise<T> {
  // What the write needs from the site is read BEFORE its transaction opens: on SQLite the transaction
  // holds the only connection, so an option read that missed the cache inside it would wait on itself.
  // Callers read anything else that does not go through `ctx.trx` before calling, for the same reason.
  const withContext = await prepareWriteContext(site);
  // One set across a retried transaction: an ID from a rolled-back try is only re-read for nothing.
  const changedTickets = new Set<number>();
  const changedDocs = new Set<number>();
  const result = await writeWordPress(site, (trx, changes) => work({ ...withContext(trx), changedTickets, changedDocs, changes }));
  await deskOf(site).afterWrite({ tickets: changedTickets, docs: changedDocs });
  return result;
}

async function prepareWriteContext(site: Site): Promise<(trx: Knex.Transaction) => Omit<WriteContext, 'changedTickets' | 'changedDocs' | 'changes'>> {
  const now = site.clock.now();
  const home = await site.homeUrl();
  const dates = await siteDates(site.options, now);
  const nowSeconds = unixSeconds(site.clock);
  const settings = await readSettings(site.options);
  return (trx) => ({ trx, tables: site.db.tables, home, dates, nowSeconds, settings });
}
