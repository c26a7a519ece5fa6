/**
 * Listing tickets: one query for the page, one for its meta, and a total served from a cache that
 * honours the freshness bound (the COUNT is the costly part of a list over 100,000 tickets).
 */
import { FreshCache } from '../../wp/fresh-cache';
import { Site } from '../../wp/site';
import { Actor, seesAgentData } from './actor';
import { TicketFilter } from './list-query';
import { countTickets, listTicketPage } from './store';
import { Ticket, TicketPriority, TicketStatus } from './types';

export interface ListQuery {
  status?: TicketStatus;
  priority?: TicketPriority;
  assignment?: 'mine' | 'unassigned';
  search?: string;
  page: number;
  perPage: number;
}

export interface TicketPage {
  tickets: Ticket[];
  total: number;
  totalPages: number;
}

const counts = new WeakMap<Site, FreshCache<string, number>>();

export async function listTickets(site: Site, actor: Actor, query: ListQuery): Promise<TicketPage> {
  const filter: TicketFilter = {
    viewer: { userId: actor.userId, email: actor.email, agent: actor.agent },
    status: query.status,
    search: query.search || undefined,
    // Assignment and priority filters are for agents; a customer's list ignores them.
    priority: actor.agent ? query.priority : undefined,
    assignment: actor.agent ? query.assignment : undefined,
    // Nobody finds a ticket through text they cannot read: internal notes are searched for agents only.
    searchInternalNotes: seesAgentData(actor),
  };
  const [tickets, total] = await Promise.all([
    listTicketPage(site.db, filter, query.page, query.perPage),
    countCache(site).get(JSON.stringify(filter), () => countTickets(site.db, filter)),
  ]);
  return { tickets, total, totalPages: Math.ceil(total / query.perPage) };
}

function countCache(site: Site): FreshCache<string, number> {
  let cache = counts.get(site);
  if (!cache) {
    cache = new FreshCache<string, number>();
    counts.set(site, cache);
  }
  return cache;
}
