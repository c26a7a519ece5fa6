/** What every support/v1 ticket route shares: namespace, private no-store caching, storage guard, schemas. */
import { ArgSchema } from '../../lib/wp/rest/args';
import { RestRequest } from '../../lib/wp/rest/route';
import { storageAvailability } from '../../lib/support/storage-check';
import { Actor, actorOf } from '../../lib/support/tickets/actor';
import argsJson from '../../schema/support/ticket-args.json';
import ticketSchema from '../../schema/support/ticket.json';

export const NAMESPACE = 'support/v1';

export const ticketRouteBase = {
  namespace: NAMESPACE,
  headers: { 'Cache-Control': 'private, no-store' },
  availability: storageAvailability,
  schema: () => ticketSchema as Record<string, unknown>,
};

type Operation = Exclude<keyof typeof argsJson, '$comment'>;

/** The argument schemas of one operation, from schema/support/ticket-args.json. */
export function ticketArgs(operation: Operation): Record<string, ArgSchema> {
  return argsJson[operation] as Record<string, ArgSchema>;
}

/** The caller as a ticket actor (agents may send X-Svc-View: customer). */
export function actor(req: RestRequest): Actor {
  return actorOf(req.user, req.header('x-svc-view'));
}

/** The storage map's source of a ticket opened through the REST API. */
export function restSource(req: RestRequest): string {
  return req.user.via === 'application-password' ? 'api' : 'web';
}
