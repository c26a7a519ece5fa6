/**
 * Who is calling a connected site's route (the REST server's principal stage; docs/sites.md): the
 * site's own server, holding the site key, or a browser on one of its pages, holding nothing. The
 * route hands over what the request carries; nothing here reads HTTP.
 */
import { WpError } from '../../wp/errors';
import { bearerSecretMatches } from '../bearer-secrets';
import { ConnectedSite } from './store';

/**
 * `server`: the request carried the site's key. `browser`: it carried none, and came from a page on
 * one of the site's listed addresses (as its Origin says: a claim anyone outside a browser can make,
 * which is why every keyless request gets the small body limit and the per-address rate limit).
 */
export type SiteCaller =
  | { kind: 'server'; site: ConnectedSite }
  | { kind: 'browser'; site: ConnectedSite; origin: string };

export function siteNotFound(): WpError {
  return new WpError('svc_site_not_found', 'No connected site has this site-id.', 404);
}

/**
 * The caller of a site's route (`found`: the site its URL names): the site's server when `key` is its
 * key (401 when a key is sent that is not), else a browser on a listed address; a request with
 * neither a key nor a listed Origin is refused (401). An unknown site is 404.
 */
export function siteCallerOf(found: ConnectedSite | null, key: string | undefined, origin: string | undefined): SiteCaller | WpError {
  if (!found) return siteNotFound();
  if (key !== undefined) {
    return bearerSecretMatches(key, found.keyHash) ? { kind: 'server', site: found } : new WpError('svc_invalid_site_key', 'The site key is not valid.', 401);
  }
  if (origin !== undefined && found.origins.includes(origin)) return { kind: 'browser', site: found, origin };
  return new WpError('svc_site_key_required', "Send the site key, or send the request from a page on one of the site's listed addresses.", 401);
}
