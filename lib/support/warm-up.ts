/**
 * What a server loads at start, in the background (docs/deploy.md, "Warm caches"): the ticket list
 * index and the docs search index, the two pieces of the desk that take seconds to make on a large
 * site. Until each has loaded, its requests are answered from SQL; nothing waits for a load.
 */
import { Site } from '../wp/site';
import { deskOf } from './desk';
import { docSearchIndex } from './docs/search-index';
import { ticketLists } from './tickets/list';

const WARMED = [ticketLists, docSearchIndex];

/** Starts the loads not done yet (again, for one that failed); the names of those still loading. */
export function warmUpSupportDesk(site: Site): string[] {
  return deskOf(site).warmUp(WARMED);
}
