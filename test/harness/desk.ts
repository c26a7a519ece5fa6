/** The support desk's caches in tests. */
import { deskOf } from '../../lib/support/desk';
import { docSearchIndex } from '../../lib/support/docs/search-index';
import { ticketLists } from '../../lib/support/tickets/list';
import { Site } from '../../lib/wp/site';

/**
 * Loads the docs search index now, as a server does at start, so that searches rank from it (typos,
 * scores) rather than from SQL, which answers until it has loaded (lib/support/docs/search.ts).
 */
export function loadDocsIndex(site: Site): Promise<void> {
  return deskOf(site).get(docSearchIndex).load();
}

/** Loads the ticket list index now, as a server does at start, so that lists are cut from it rather than answered in SQL. */
export function loadTicketIndex(site: Site): Promise<void> {
  return deskOf(site).get(ticketLists).live.load();
}
