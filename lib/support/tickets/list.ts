/**
 * Listing tickets (docs/performance.md "The ticket list"). Every list without `search` is cut from
 * this process's in-memory index of every ticket's list fields (./list-live.ts keeps it fresh
 * within the 2-second bound, reading only what changed), and its page's tickets are read by ID
 * (kept for later pages). A text search goes to the database: the first pages of each search and
 * its total come from a cache confirmed by the change token of the posts and postmeta tables. So do
 * all lists while the index is still loading (a server loads it at start, in the background).
 */
import { changeToken } from '../../wp/db/change-token';
import { RevalidatingCache } from '../../wp/fresh-cache';
import { Site } from '../../wp/site';
import { DeskPart, deskOf } from '../desk';
import { Actor, seesAgentData } from './actor';
import { LiveTicketList } from './list-live';
import { TicketFilter } from './list-query';
import { countTickets, listTicketPage } from './store';
import { Assignment, Ticket, TicketPriority, TicketStatus } from './types';

export interface ListQuery {
  status?: TicketStatus;
  priority?: TicketPriority;
  assignment?: Assignment;
  search?: string;
  page: number;
  perPage: number;
}

export interface TicketPage {
  tickets: Ticket[];
  total: number;
  totalPages: number;
}

/** Rows of each SQL list kept ready: pages 1-5 of the default page size. */
const SEARCH_WINDOW = 100;
/** A kept SQL list younger than this is served without a check (within the 2-second bound). */
const SQL_CHECK_MS = 1000;

/** A site's ticket lists in this process: the live index, and the searches' first pages and totals. */
class TicketLists {
  readonly live: LiveTicketList;
  readonly searches: RevalidatingCache<string, Ticket[]>;
  readonly searchTotals: RevalidatingCache<string, number>;

  constructor(site: Site) {
    // Tickets and their meta live in posts and postmeta: unchanged tables prove a cached search still right.
    const token = changeToken(site.db, [site.db.tables.posts, site.db.tables.postmeta]);
    this.live = new LiveTicketList(site);
    // Checked once a second, not every 0.25 s: while the change token is unknown (after a restart of
    // MariaDB or a table rebuild, until the next write) each check runs the query again.
    this.searches = new RevalidatingCache({ token, softMs: SQL_CHECK_MS, name: 'ticket_search' });
    this.searchTotals = new RevalidatingCache({ token, softMs: SQL_CHECK_MS, name: 'ticket_search' });
  }

  /** After this process wrote tickets: its lists show them once this resolves. */
  async afterWrite(tickets: Iterable<number>): Promise<void> {
    this.searches.invalidate();
    this.searchTotals.invalidate();
    await this.live.afterWrite(tickets);
  }
}

export const ticketLists: DeskPart<TicketLists> = {
  name: 'ticket lists',
  make: (site) => new TicketLists(site),
  afterWrite: async (lists, written) => {
    if (written.tickets?.size) await lists.afterWrite(written.tickets);
  },
  load: (lists) => lists.live.load(),
  loaded: (lists) => lists.live.loaded,
};

export async function listTickets(site: Site, actor: Actor, query: ListQuery): Promise<TicketPage> {
  const filter: TicketFilter = {
    viewer: { userId: actor.userId, email: actor.email, agent: actor.agent },
    status: query.status,
    search: query.search || undefined,
    siteId: actor.portal?.siteId,
    // Assignment and priority filters are for agents; a customer's list ignores them.
    priority: actor.agent ? query.priority : undefined,
    assignment: actor.agent ? query.assignment : undefined,
    // Nobody finds a ticket through text they cannot read: internal notes are searched for agents only.
    searchInternalNotes: seesAgentData(actor),
  };
  const page = filter.search || !indexLoaded(site) ? await sqlPage(site, filter, query) : await indexPage(site, filter, query);
  return { ...page, totalPages: Math.ceil(page.total / query.perPage) };
}

/** Whether the index has loaded; if not, its load is started (or joined) and this list goes to SQL. */
function indexLoaded(site: Site): boolean {
  return deskOf(site).warmUp([ticketLists]).length === 0;
}

async function indexPage(site: Site, filter: TicketFilter, query: ListQuery): Promise<Omit<TicketPage, 'totalPages'>> {
  const { live } = deskOf(site).get(ticketLists);
  const matches = (await live.fresh()).matches(filter);
  const first = (query.page - 1) * query.perPage;
  const ids = Array.from(matches.subarray(first, first + query.perPage));
  return { tickets: await live.ticketsOf(ids), total: matches.length };
}

/** A list in SQL: a search, or any list while the index loads. */
async function sqlPage(site: Site, filter: TicketFilter, query: ListQuery): Promise<Omit<TicketPage, 'totalPages'>> {
  const { searches, searchTotals } = deskOf(site).get(ticketLists);
  const key = searchKey(filter);
  const first = (query.page - 1) * query.perPage;
  const [tickets, total] = await Promise.all([
    first + query.perPage <= SEARCH_WINDOW
      ? searches.get(key, () => listTicketPage(site.db, filter, 1, SEARCH_WINDOW)).then((rows) => rows.slice(first, first + query.perPage))
      : listTicketPage(site.db, filter, query.page, query.perPage),
    searchTotals.get(key, () => countTickets(site.db, filter)),
  ]);
  return { tickets, total };
}

/** Agents share one cache entry per filter; a customer's entries are their own. */
function searchKey(filter: TicketFilter): string {
  const { viewer, ...rest } = filter;
  const who = viewer.agent ? (filter.assignment === 'mine' ? `agent:${viewer.userId}` : 'agents') : `customer:${viewer.userId}:${viewer.email}`;
  return JSON.stringify([who, rest]);
}
