/**
 * Keeps a process's ticket list index (./list-index.ts) in step with the database without reading
 * it all again (docs/performance.md "The ticket list"):
 * - loaded once, in batches by ID;
 * - this process's own writes: the tickets they touched are read again by ID before the write answers;
 * - everyone else's (PHP, other processes): when the change token moves, or cannot be read, only
 *   tickets whose `post_modified` is at or after the watermark, or whose ID is new, are read again
 *   (the storage map moves `post_modified` on every change), then a census (count and highest ID of
 *   listed tickets) finds tickets deleted outright, which only then costs a read of all IDs.
 * Requests wait for nothing while the last confirmed state is younger than SOFT_MS (a second after
 * a catch-up), are served and start a refresh in the background up to HARD_MS, and wait beyond it:
 * inside the 2-second bound. Every caller meanwhile joins the refresh under way.
 * The full tickets of pages are kept in a small cache that every refresh updates.
 */
import { performance } from 'node:perf_hooks';
import { countCacheReload } from '../../wp/cache-stats';
import { ChangeToken, changeToken } from '../../wp/db/change-token';
import { siteDates } from '../../wp/dates';
import { Site } from '../../wp/site';
import { loadGate } from '../desk';
import { ListFields, TicketListIndex, listFieldsOf } from './list-index';
import { POST_TYPE, TICKET_POST_STATUSES } from './rows';
import { StoredTicket, highestPostId, readListFields, readStoredTickets } from './store';
import { Ticket } from './types';

const SOFT_MS = 250;
/** After a refresh that had to catch up (the token moved, or is unknown), the next waits this long. */
const SOFT_AFTER_CATCH_UP_MS = 1000;
const HARD_MS = 1900;
/** A writer's `post_modified` may trail the newest one seen by this much (clock skew, a slow commit). */
const WATERMARK_MARGIN_SECONDS = 120;
/** Post IDs per range on the first load (tickets share the ID space with messages and files). */
const LOAD_RANGE = 10_000;
/** Full tickets kept for pages. */
const TICKET_CACHE_SIZE = 5000;

export class LiveTicketList {
  readonly index = new TicketListIndex();
  private readonly token: ChangeToken;
  private readonly tickets = new Map<number, Ticket>();
  private readonly written = new Set<number>();
  private loading: Promise<void> | null = null;
  private ready = false;
  private refreshing: Promise<void> | null = null;
  private rereading: Promise<void> | null = null;
  private confirmedAt = -Infinity;
  private softMs = SOFT_MS;
  private lastToken: string | null = null;
  /** The newest `post_modified` seen, as stored (`YYYY-MM-DD HH:MM:SS`, site time). */
  private newest = '';

  constructor(private readonly site: Site) {
    const { db } = site;
    this.token = changeToken(db, [db.tables.posts, db.tables.postmeta]);
  }

  /** Whether the first load has completed (until then lists are answered from SQL: ./list.ts). */
  get loaded(): boolean {
    return this.ready;
  }

  /** Starts the first load, or joins the one under way; one that failed starts again. */
  load(): Promise<void> {
    this.loading ??= this.loadAll().catch((err) => {
      this.loading = null;
      throw err;
    });
    return this.loading;
  }

  /** The index, as fresh as the bound asks. */
  async fresh(): Promise<TicketListIndex> {
    await this.load();
    // Writes read their tickets again before they answer (afterWrite); a list reads only what is left
    // over (noted before the first load, or from a read that failed), and never waits for a write's read.
    if (this.written.size && !this.rereading) await this.rereadWritten();
    const age = performance.now() - this.confirmedAt;
    if (age >= HARD_MS) await this.refresh();
    else if (age >= this.softMs) void this.refresh().catch(() => undefined);
    return this.index;
  }

  /**
   * Tickets this process has just written, read again before the write answers, so that its writer's
   * next list shows them and no list waits for the read. Before the first load completes they are
   * noted for the first list; a read that fails leaves them noted for the next list.
   */
  async afterWrite(ids: Iterable<number>): Promise<void> {
    for (const id of ids) this.written.add(id);
    if (this.ready) await this.rereadWritten().catch(() => undefined);
  }

  /** The full tickets of a page, in the page's order; one read for those not kept. */
  async ticketsOf(ids: readonly number[]): Promise<Ticket[]> {
    const missing = ids.filter((id) => !this.tickets.has(id));
    if (missing.length) this.keep(await readStoredTickets(this.site.db, (qb) => qb.whereIn('p.ID', missing)));
    return ids.map((id) => this.tickets.get(id)).filter((t): t is Ticket => t !== undefined);
  }

  /**
   * Everything once, by ranges of the primary key, reading only the list fields. It runs beside
   * requests (started at start, lists answered from SQL meanwhile): each range is a short turn of the
   * event loop, and the one sort is done here rather than by the first list.
   */
  private async loadAll(): Promise<void> {
    await loadGate.wait('ticket lists');
    countCacheReload('ticket_index');
    const started = performance.now();
    const token = await this.token();
    const top = await highestPostId(this.site.db);
    // Range by range: a range's rows are garbage before the next.
    for (let after = 0; after < top; after += LOAD_RANGE) {
      this.apply(await readListFields(this.site.db, after, after + LOAD_RANGE));
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.index.sortNow();
    this.confirm(started, token);
    this.ready = true;
  }

  /**
   * One refresh at a time, which every caller meanwhile joins: it started after they were asked
   * to be fresh (or within the soft age), so what it confirms is fresh enough for them.
   */
  private refresh(): Promise<void> {
    this.refreshing ??= this.sync().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /**
   * This process's own writes, read by ID: cheap, so a list right after a write shows it. The token
   * they moved still makes the next refresh catch up with everyone else, in the background. Callers
   * meanwhile wait for the read under way, then read what was written since (one read for all of them).
   */
  private async rereadWritten(): Promise<void> {
    while (this.rereading) await this.rereading.catch(() => undefined);
    if (!this.written.size) return;
    const ids = [...this.written];
    this.written.clear();
    this.rereading = this.reread((qb) => qb.whereIn('p.ID', ids)).catch((err) => {
      for (const id of ids) this.written.add(id);
      throw err;
    }).finally(() => {
      this.rereading = null;
    });
    await this.rereading;
  }

  private async sync(): Promise<void> {
    const started = performance.now();
    const token = await this.token();
    const moved = token === null || token !== this.lastToken;
    if (moved) await this.catchUp();
    // A catch-up reads the database (a scan without the svc_* indexes): not more than about once a second.
    this.softMs = moved ? SOFT_AFTER_CATCH_UP_MS : SOFT_MS;
    this.confirm(started, token);
  }

  /** Everyone else's changes since the last refresh. */
  private async catchUp(): Promise<void> {
    countCacheReload('ticket_index');
    const watermark = await this.watermark();
    const maxId = this.index.maxId;
    // Two reads, not one with OR: each can use its index (svc_type_modified, the primary key).
    await this.reread((qb) => qb.where('p.post_modified', '>=', watermark));
    await this.reread((qb) => qb.where('p.ID', '>', maxId));
    const { knex, tables } = this.site.db;
    const [census] = await knex(tables.posts).where({ post_type: POST_TYPE.ticket }).whereIn('post_status', TICKET_POST_STATUSES).count({ n: '*' });
    if (Number(census?.n ?? 0) !== this.index.listedCount) await this.dropDeleted();
  }

  /** `WATERMARK_MARGIN_SECONDS` before the newest `post_modified` seen, never later than the site's clock. */
  private async watermark(): Promise<string> {
    const now = (await siteDates(this.site.options, this.site.clock.now())).local;
    const newest = this.newest && this.newest < now ? this.newest : now;
    const at = Date.parse(`${newest.replace(' ', 'T')}Z`) - WATERMARK_MARGIN_SECONDS * 1000;
    return Number.isNaN(at) ? '0000-00-00 00:00:00' : new Date(at).toISOString().slice(0, 19).replace('T', ' ');
  }

  /** Tickets deleted outright are in the index and no longer in the table. */
  private async dropDeleted(): Promise<void> {
    const { knex, tables } = this.site.db;
    const present = new Set((await knex(tables.posts).where({ post_type: POST_TYPE.ticket }).select('ID')).map((r: { ID: number | string }) => Number(r.ID)));
    const gone = [...this.index.ids()].filter((id) => !present.has(id));
    this.index.remove(gone);
    for (const id of gone) this.tickets.delete(id);
  }

  /** Tickets read again in full: their list fields, and the tickets kept for pages. */
  private async reread(narrow: Parameters<typeof readStoredTickets>[1]): Promise<void> {
    const stored = await readStoredTickets(this.site.db, narrow);
    this.apply(stored.map(({ ticket, postStatus }) => listFieldsOf(ticket, postStatus)));
    this.keep(stored);
  }

  private apply(rows: ListFields[]): void {
    this.index.upsert(rows);
    for (const { modified } of rows) {
      if (modified > this.newest) this.newest = modified;
    }
  }

  /** Keeps full tickets for pages, the most recently stored last (the oldest are dropped first). */
  private keep(stored: StoredTicket[]): void {
    for (const { ticket } of stored) {
      this.tickets.delete(ticket.id);
      this.tickets.set(ticket.id, ticket);
    }
    while (this.tickets.size > TICKET_CACHE_SIZE) this.tickets.delete(this.tickets.keys().next().value as number);
  }

  private confirm(started: number, token: string | null): void {
    this.confirmedAt = started;
    this.lastToken = token;
  }
}
