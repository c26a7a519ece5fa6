/**
 * What the HTTP layers learn about a request that the process's front door logs and counts once the
 * answer is sent: the request id, the route pattern that matched, the signed-in user. Kept per
 * response, which stays the same object when the proxy hands a request on in-process.
 */
import type { ServerResponse } from 'node:http';
import type { RestRouteReading } from './rest-route';

export interface RequestNotes {
  /** X-Request-Id as honoured or made by the front door. */
  requestId?: string;
  /** The matched route's pattern, e.g. `/support/v1/tickets/(?P<id>[\d]+)`, or a registered admin-ajax action as `admin-ajax:<action>`. */
  route?: string;
  /** The site of a network the request was for (a process serving the whole network). */
  blogId?: number;
  /** The WordPress user the request signed in as (0: nobody). */
  userId?: number;
  /** The REST route the proxy read from a POST body it consumed (lib/proxy/server.ts), for the app to serve. */
  restRoute?: RestRouteReading;
}

const notes = new WeakMap<ServerResponse, RequestNotes>();

export function notesOf(res: ServerResponse): RequestNotes {
  let found = notes.get(res);
  if (!found) {
    found = {};
    notes.set(res, found);
  }
  return found;
}

export function noteRoute(res: ServerResponse, route: string): void {
  notesOf(res).route = route;
}

export function noteUser(res: ServerResponse, userId: number): void {
  notesOf(res).userId = userId;
}
