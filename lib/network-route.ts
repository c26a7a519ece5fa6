/**
 * Which site of the network serves a request (docs/multisite.md, "Mail on a network"): the site its
 * address names, unless its REST route names a blog by itself. A mail webhook's route key
 * (`site-<blog-id>-<mailbox-key>`) names one mailbox of the network and its credentials are that
 * mailbox's, so the address it was posted to is only the door: blog N serves it, when blog N is a
 * site of the door's network. A key naming a blog elsewhere (or none) stays with the door, whose
 * answer is the 404 of a mailbox it does not have.
 */
import type { ServerResponse } from 'node:http';
import { restRouteOf } from './wp/http/rest-route';
import { queryString } from './wp/http/request-info';
import { notesOf } from './wp/http/request-notes';
import { Network, NetworkSite } from './wp/multisite/network';
import { NetworkSites } from './wp/multisite/sites';
import { RestRegistry } from './wp/rest/registry';
import { normalizeRestPath } from './wp/rest/request';

/** The site whose address the request reached, and its network. */
export interface Door {
  site: NetworkSite;
  network: Network;
}

/** The site that serves a request: the blog its route names on the door's network, else the door. `uri` is relative to the door's path. */
export async function servingSite(sites: NetworkSites, rest: RestRegistry, door: Door, uri: string, res: ServerResponse): Promise<NetworkSite> {
  const blogId = blogNamedByRoute(rest, uri, res);
  if (blogId === null || blogId === door.site.blogId) return door.site;
  const named = await sites.byId(blogId);
  return named && named.networkId === door.network.id ? named : door.site;
}

/**
 * The blog the request's REST route names by itself, read as the site's app reads the route; the
 * reading is noted for the app (lib/app.ts), which then does not read it again.
 */
function blogNamedByRoute(rest: RestRegistry, uri: string, res: ServerResponse): number | null {
  const notes = notesOf(res);
  const reading = notes.restRoute ?? restRouteOf(uri.split('?')[0] as string, queryString(uri));
  notes.restRoute = reading;
  return reading.kind === 'route' ? rest.blogNamedBy(normalizeRestPath(reading.route)) : null;
}
