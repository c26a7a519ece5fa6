/**
 * What is shown of a connected site (schema/support/site.ts): an explicit allowlist. The key hash is
 * never shown; the key itself exists only in the answer that issues it.
 */
import { ConnectedSite } from './store';

export function presentSite(s: ConnectedSite): Record<string, unknown> {
  return {
    site_id: s.siteId,
    name: s.name,
    origins: [...s.origins],
    portal: s.portal,
    new_tickets: s.newTickets,
    message_limit: s.messageLimit,
    message_hint: s.messageHint,
    customer_can_resolve: s.customerCanResolve,
    customer_can_reopen: s.customerCanReopen,
    doc_collections: [...s.docCollections],
    created_at: s.createdAt,
    updated_at: s.updatedAt,
  };
}
