/** What the support/v1 ticket routes share: their args and item schema, the caller as a ticket actor, a ticket's source. */
import { ArgsParams, operations, publicItemSchema } from '../../lib/wp/rest/item-schema';
import { RestRequest } from '../../lib/wp/rest/route';
import { resolveRefs } from '../../lib/wp/rest/schema-refs';
import { Actor, actorOf } from '../../lib/support/tickets/actor';
import { SUPPORT_SCHEMAS } from '../../schema/support';
import { ticketSchema } from '../../schema/support/ticket';
import { ticketOperations } from '../../schema/support/ticket-args';

/** The ticket as OPTIONS shows it: refs resolved, arg_options left out. */
const TICKET_ITEM_SCHEMA = publicItemSchema(resolveRefs(ticketSchema, SUPPORT_SCHEMAS));

/** The item schema of the ticket routes (and the site tickets route, which opens one). */
export const ticketItemSchema = (): Record<string, unknown> => TICKET_ITEM_SCHEMA;

/** The args of each ticket operation (schema/support/ticket-args.ts); the URLs carry `id`, `delivery_id`, `file_id`. */
export const ticketArgs = operations(ticketOperations, SUPPORT_SCHEMAS, ['id', 'delivery_id', 'file_id']);

export type TicketOperation = keyof typeof ticketOperations;

/** What a ticket operation's handler sees as `req.params`, inferred from schema/support. */
export type TicketParams<O extends TicketOperation> = ArgsParams<(typeof ticketArgs)[O]>;

/** A request to a ticket operation (a user caller: no principal). */
export type TicketRequest<O extends TicketOperation> = RestRequest<unknown, TicketParams<O>>;

/** The caller as a ticket actor (agents may send X-Svc-View: customer). */
export function actor(req: RestRequest): Actor {
  return actorOf(req.user, req.header('x-svc-view'));
}

/** The storage map's source of a ticket opened through the REST API. */
export function restSource(req: RestRequest): string {
  return req.user.via === 'application-password' ? 'api' : 'web';
}
