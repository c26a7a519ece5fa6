/**
 * The connected site a request's URL names (`<site-id>`), read once per request: the stages of a
 * site's routes (gate, origins, principal, handler) all ask for it. The route's `urlParams` object
 * is made for each request (lib/wp/rest/registry.ts), so it keys this request's answer and goes
 * with the request.
 */
import { ConnectedSite, findSite } from '../../lib/support/sites/store';
import { RequestHead } from '../../lib/wp/rest/route';

const sitesOfRequests = new WeakMap<Record<string, string>, Promise<ConnectedSite | null>>();

export function connectedSiteOf(head: RequestHead): Promise<ConnectedSite | null> {
  let found = sitesOfRequests.get(head.urlParams);
  if (!found) {
    found = findSite(head.site.db, head.urlParams.site_id ?? '');
    sitesOfRequests.set(head.urlParams, found);
  }
  return found;
}
