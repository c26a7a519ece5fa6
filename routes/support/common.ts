/** What every support/v1 ticket route shares: namespace, private no-store caching, storage guard, schemas. */
import { TypedArgs } from '../../lib/wp/rest/args';
import { ItemSchemaMode, ParamsOf, argsForOperation, publicItemSchema } from '../../lib/wp/rest/item-schema';
import { RequestHead, RestRequest } from '../../lib/wp/rest/route';
import { resolveRefs } from '../../lib/wp/rest/schema-refs';
import { ConnectedSite, findSite } from '../../lib/support/sites/store';
import { storageAvailability } from '../../lib/support/storage-check';
import { Actor, actorOf } from '../../lib/support/tickets/actor';
import { commonSchema } from '../../schema/support/common';
import { deliverySchema } from '../../schema/support/delivery';
import { messageSchema } from '../../schema/support/message';
import { siteSchema } from '../../schema/support/site';
import { ticketSchema } from '../../schema/support/ticket';
import { ticketOperations } from '../../schema/support/ticket-args';

export const NAMESPACE = 'support/v1';

/** The schema documents the support/v1 schemas `$ref` by `$id`. */
export const SUPPORT_SCHEMAS = [commonSchema, ticketSchema, messageSchema, deliverySchema, siteSchema] as const;

/** The ticket as OPTIONS shows it: refs resolved, arg_options left out. */
const TICKET_ITEM_SCHEMA = publicItemSchema(resolveRefs(ticketSchema, SUPPORT_SCHEMAS));

export const ticketRouteBase = {
  namespace: NAMESPACE,
  headers: { 'Cache-Control': 'private, no-store' },
  availability: storageAvailability,
  schema: () => TICKET_ITEM_SCHEMA,
};

export type TicketOperation = keyof typeof ticketOperations;

/** The params the ticket routes' URLs carry (always there once the route matched). */
type TicketPathParam = 'id' | 'delivery_id' | 'file_id';

/** What a ticket operation's handler sees as `req.params`, inferred from schema/support. */
export type TicketParams<O extends TicketOperation> = ParamsOf<(typeof ticketOperations)[O], typeof SUPPORT_SCHEMAS, TicketPathParam>;

/** A request to a ticket operation (a user caller: no principal). */
export type TicketRequest<O extends TicketOperation> = RestRequest<unknown, TicketParams<O>>;

/** The operations that create what they send (a ticket, a reply): args derived as WordPress's CREATABLE. */
const CREATING: ReadonlySet<TicketOperation> = new Set(['create', 'reply']);

/** The args of one ticket operation (schema/support/ticket-args.ts), derived from the item schemas. */
export function ticketArgs<O extends TicketOperation>(operation: O): TypedArgs<TicketParams<O>> {
  const mode: ItemSchemaMode = CREATING.has(operation) ? 'create' : 'edit';
  return argsForOperation(ticketOperations[operation], SUPPORT_SCHEMAS, mode);
}

/** The connected site a `/sites/<site-id>/…` URL names, or null when no site has that site-id. */
export type UrlSite = ConnectedSite | null;

/** The subject of the routes under `/sites/<site-id>/`: the site the URL names. */
export function siteOfUrl(head: RequestHead): Promise<UrlSite> {
  return findSite(head.site.db, head.urlParams.site_id ?? '');
}

/** The caller as a ticket actor (agents may send X-Svc-View: customer). */
export function actor(req: RestRequest): Actor {
  return actorOf(req.user, req.header('x-svc-view'));
}

/** The storage map's source of a ticket opened through the REST API. */
export function restSource(req: RestRequest): string {
  return req.user.via === 'application-password' ? 'api' : 'web';
}
