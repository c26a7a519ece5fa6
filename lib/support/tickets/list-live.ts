/**
 * Keeps a process's ticket list index (./list-index.ts) in step with the database without reading
 * it all again (docs/performance.md "The ticket list"):
 * - loaded once, in batches by ID, in the background from start (lists go to SQL until then: ./list.ts);
 * - this process's own writes: the tickets they touched are read again by ID before the write answers;
 * - everyone else's (PHP, other processes), when the change token moves or cannot be read: what
 *   WordPress's own indexes show, before a list that must wait for it (new posts by the primary key: a
 *   new ticket, a message and its ticket; a census of ticket statuses by type_status_date, and on a
 *   difference each ticket's status: a status change, a ticket trashed or deleted outright); and, in a
 *   sweep beside requests that no request waits for, the tickets whose `post_modified` is at or after
 *   the watermark (a change in place, a priority or an assignee: the storage map moves `post_modified`
 *   on every change), which without the svc_* indexes is a scan of posts.
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
import { POST_TYPE } from './rows';
import { StoredTicket, StoredTicketSelection, highestPostId, postsAfter, readListFields, readStoredTickets, ticketStatusCensus, ticketStatuses } from './store';
import { Ticket } from './types';

const SOFT_MS = 250;
/** After a refresh that had to catch up (the token moved, or is unknown), the next waits this long. */
const SOFT_AFTER_CATCH_UP_MS = 1000;
const HARD_MS = 1900;
/**
 * A sweep for changes in place (sweep()) vouches for lists from the moment it began: the next one
 * starts SWEEP_CYCLE_MS less the last one's duration after it (at once when the last took longer), so
 * that the last completed one began within HARD_MS while they run back to back.
 */
const SWEEP_CYCLE_MS = 1750;
/** A writer's `post_modified` may trail the newest one seen by this much (clock skew, a slow commit). */
const WATERMARK_MARGIN_SECONDS = 120;
/** Post IDs per range on the first load (tickets share the ID space with messages and files). */
const LOAD_RANGE = 20_000;
/** Ranges read at once on the first load (each on a connection of its own on MariaDB). */
const RANGES_AT_ONCE = 2;
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
  /** The highest post ID seen, of any type: posts above it are new. */
  private newestPost = 0;
  /** The sweep under way, and when it began. */
  private sweeping: { done: Promise<void>; at: number } | null = null;
  /** The last sweep that completed: when it began, the token read before it, and how long it took. */
  private swept = { at: -Infinity, token: null as string | null, ms: 0 };
  /** This process's writes so far, and the last one to touch each ticket (the most recent tickets). */
  private writes = 0;
  private readonly lastWriteOf = new Map<number, number>();

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
    this.writes += 1;
    for (const id of ids) {
      this.written.add(id);
      this.lastWriteOf.delete(id);
      this.lastWriteOf.set(id, this.writes);
    }
    while (this.lastWriteOf.size > TICKET_CACHE_SIZE) this.lastWriteOf.delete(this.lastWriteOf.keys().next().value as number);
    if (this.ready) await this.rereadWritten().catch(() => undefined);
  }

  /** The full tickets of a page, in the page's order; one read for those not kept. */
  async ticketsOf(ids: readonly number[]): Promise<Ticket[]> {
    const missing = ids.filter((id) => !this.tickets.has(id));
    if (missing.length) this.keep(await readStoredTickets(this.site.db, { ids: missing }));
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
    this.newestPost = top;
    // The load read every ticket: it vouches as a sweep would, from when it began.
    this.swept = { at: started, token, ms: 0 };
    // A few ranges at a time (a third faster than one by one on MariaDB); their rows are garbage before the next.
    const starts = Array.from({ length: Math.ceil(top / LOAD_RANGE) }, (_, i) => i * LOAD_RANGE);
    for (let i = 0; i < starts.length; i += RANGES_AT_ONCE) {
      const ranges = starts.slice(i, i + RANGES_AT_ONCE);
      for (const rows of await Promise.all(ranges.map((after) => readListFields(this.site.db, after, after + LOAD_RANGE)))) this.apply(rows);
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
    this.rereading = this.reread({ ids }).catch((err) => {
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
    if (token === null || token !== this.swept.token) {
      const sweep = this.sweep(token);
      // No sweep has begun within the bound (after a quiet spell): this refresh waits for one begun since it started.
      if (started - this.swept.at >= HARD_MS) await (sweep.at >= started ? sweep.done : sweep.done.then(() => this.sweep(token, true).done));
    }
    // A catch-up reads the database: not more than about once a second.
    this.softMs = moved ? SOFT_AFTER_CATCH_UP_MS : SOFT_MS;
    this.confirm(started, token);
  }

  /**
   * Everyone else's changes that WordPress's own indexes show: new posts (the primary key: a new ticket,
   * or a message whose ticket it changed), and tickets whose post status changed or that are gone (a
   * census of the type_status_date index, and only on a difference every ticket's status from it).
   */
  private async catchUp(): Promise<void> {
    countCacheReload('ticket_index');
    const fresh = await postsAfter(this.site.db, this.newestPost);
    const touched = new Set<number>();
    for (const post of fresh) {
      this.newestPost = Math.max(this.newestPost, post.id);
      if (post.type === POST_TYPE.ticket) touched.add(post.id);
      else if (post.type === POST_TYPE.message && post.parent) touched.add(post.parent);
    }
    if (!sameCensus(await ticketStatusCensus(this.site.db), this.index.census())) {
      const stored = await ticketStatuses(this.site.db);
      const held = this.index.statuses();
      for (const [id, status] of stored) if (held.get(id) !== status) touched.add(id);
      const gone = [...held.keys()].filter((id) => !stored.has(id));
      if (gone.length) this.index.remove(gone);
      for (const id of gone) this.tickets.delete(id);
    }
    if (touched.size) await this.reread({ ids: [...touched] });
  }

  /**
   * What nothing cheaper shows (a ticket's meta or `post_modified` changed in place: a priority, an
   * assignee): the tickets whose `post_modified` is at or after the watermark. Without the svc_*
   * indexes that is a scan of posts, so it runs beside requests: one at a time, the next starting
   * SWEEP_CYCLE_MS less the last one's duration after the last began (`now`: at once). Lists wait for
   * one only when none has begun within HARD_MS (after a quiet spell). Returns the sweep under way.
   */
  private sweep(token: string | null, now = false): { done: Promise<void>; at: number } {
    if (this.sweeping) return this.sweeping;
    const at = performance.now();
    if (!now && at - this.swept.at < SWEEP_CYCLE_MS - this.swept.ms) return { done: Promise.resolve(), at: this.swept.at };
    const done = (async () => {
      const watermark = await this.watermark();
      await this.reread({ modifiedSince: watermark });
      this.swept = { at, token, ms: performance.now() - at };
    })().catch((err) => {
      this.site.logger.warn('ticket list: a sweep for changes failed', { error: String(err) });
    }).finally(() => {
      this.sweeping = null;
    });
    this.sweeping = { done, at };
    return this.sweeping;
  }

  /** `WATERMARK_MARGIN_SECONDS` before the newest `post_modified` seen, never later than the site's clock. */
  private async watermark(): Promise<string> {
    const now = (await siteDates(this.site.options, this.site.clock.now())).local;
    const newest = this.newest && this.newest < now ? this.newest : now;
    const at = Date.parse(`${newest.replace(' ', 'T')}Z`) - WATERMARK_MARGIN_SECONDS * 1000;
    return Number.isNaN(at) ? '0000-00-00 00:00:00' : new Date(at).toISOString().slice(0, 19).replace('T', ' ');
  }

  /**
   * Tickets read again in full: their list fields, and the tickets kept for pages. A ticket this
   * process wrote while the read ran is left as its own read after the write has it (this one may be older).
   */
  private async reread(which: StoredTicketSelection): Promise<void> {
    const since = this.writes;
    const stored = (await readStoredTickets(this.site.db, which)).filter(({ ticket }) => (this.lastWriteOf.get(ticket.id) ?? 0) <= since);
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

function sameCensus(a: Map<string, { count: number; idSum: number }>, b: Map<string, { count: number; idSum: number }>): boolean {
  if (a.size !== b.size) return false;
  for (const [status, counted] of a) {
    const other = b.get(status);
    if (other?.count !== counted.count || other.idSum !== counted.idSum) return false;
  }
  return true;
}
