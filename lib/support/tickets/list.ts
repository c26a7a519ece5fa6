/**
 * Listing tickets. The first pages of every filter (a window of WINDOW rows) and every total come from
 * a cache that honours the freshness bound (RevalidatingCache: served while what it reflects is younger
 * than 1.9 s, checked in the background after 0.25 s: confirmed by an unchanged change token of the
 * posts and postmeta tables, else loaded again), and dropped whenever this process writes a ticket. On a site with
 * 100,000 tickets the sort and the COUNT are the costly parts: this keeps them off the request path.
 * Pages past the window are read directly: one query for the page, one for its meta.
 */
import { changeToken } from '../../wp/db/change-token';
import { RevalidatingCache } from '../../wp/fresh-cache';
import { Site } from '../../wp/site';
import { Actor, seesAgentData } from './actor';
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

/** Rows of each filter kept ready: pages 1-5 of the default page size. */
const WINDOW = 100;

interface ListCaches {
  windows: RevalidatingCache<string, Ticket[]>;
  totals: RevalidatingCache<string, number>;
}

const caches = new WeakMap<Site, ListCaches>();

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
  const key = filterKey(filter);
  const { windows, totals } = listCaches(site);
  const first = (query.page - 1) * query.perPage;
  const inWindow = first + query.perPage <= WINDOW;
  const [tickets, total] = await Promise.all([
    inWindow
      ? windows.get(key, () => listTicketPage(site.db, filter, 1, WINDOW)).then((rows) => rows.slice(first, first + query.perPage))
      : listTicketPage(site.db, filter, query.page, query.perPage),
    totals.get(key, () => countTickets(site.db, filter)),
  ]);
  return { tickets, total, totalPages: Math.ceil(total / query.perPage) };
}

/** After this process changed tickets: its next lists read the database again. */
export function forgetTicketLists(site: Site): void {
  const found = caches.get(site);
  found?.windows.invalidate();
  found?.totals.invalidate();
}

/** Agents share one cache entry per filter; a customer's entries are their own. */
function filterKey(filter: TicketFilter): string {
  const { viewer, ...rest } = filter;
  const who = viewer.agent ? (filter.assignment === 'mine' ? `agent:${viewer.userId}` : 'agents') : `customer:${viewer.userId}:${viewer.email}`;
  return JSON.stringify([who, rest]);
}

function listCaches(site: Site): ListCaches {
  let found = caches.get(site);
  if (!found) {
    // Tickets and their meta live in posts and postmeta: unchanged tables prove a cached page still right.
    const token = changeToken(site.db, [site.db.tables.posts, site.db.tables.postmeta]);
    found = { windows: new RevalidatingCache({ token }), totals: new RevalidatingCache({ token }) };
    caches.set(site, found);
  }
  return found;
}
