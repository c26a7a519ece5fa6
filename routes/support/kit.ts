/**
 * The declaration kit of the support/v1 routes: the namespace, one route base (supportRoute()), the
 * subject of the routes under `/sites/<site-id>/`, and a browser's body limit. A route file opens
 * with its declarations: `supportRoute({ route, endpoints })`, each endpoint's args one of
 * `operations(xOperations, SUPPORT_SCHEMAS, pathParams)` (lib/wp/rest/item-schema.ts; the documents
 * in schema/support/index.ts).
 */
import { ConnectedSite, findSite } from '../../lib/support/sites/store';
import { storageAvailability } from '../../lib/support/storage-check';
import { RequestHead, RouteDeclaration } from '../../lib/wp/rest/route';

export const NAMESPACE = 'support/v1';

/** A request without a site key: what a browser may send (contract section 8). */
export const BROWSER_MAX_BODY_BYTES = 64 * 1024;

/** What a support route declares beyond its pattern, endpoints and checks: how its answers are cached, and whether it needs storage. */
export interface SupportRouteDeclaration<S> extends Omit<RouteDeclaration<S>, 'namespace' | 'headers' | 'availability'> {
  /**
   * `private` (the default): a caller's own answer, stored nowhere (`Cache-Control: private,
   * no-store`); `no-store`: a server's delivery (no browser involved); `public`: the same answer for
   * everyone, under WordPress's own headers.
   */
  cache?: 'private' | 'no-store' | 'public';
  /** The route reads or writes the desk's tables (the default): 503 while storage is down (lib/support/storage-check.ts). */
  storage?: boolean;
}

const CACHE_CONTROL = { private: 'private, no-store', 'no-store': 'no-store' } as const;

/** A support/v1 route: the namespace, its Cache-Control and its storage check added to what it declares. */
export function supportRoute<S = undefined>({ cache = 'private', storage = true, ...declared }: SupportRouteDeclaration<S>): RouteDeclaration<S> {
  return {
    namespace: NAMESPACE,
    ...(cache === 'public' ? {} : { headers: { 'Cache-Control': CACHE_CONTROL[cache] } }),
    ...(storage ? { availability: storageAvailability } : {}),
    ...declared,
  };
}

/** The connected site a `/sites/<site-id>/…` URL names, or null when no site has that site-id. */
export type UrlSite = ConnectedSite | null;

/** The subject of the routes under `/sites/<site-id>/`: the site the URL names. */
export function siteOfUrl(head: RequestHead): Promise<UrlSite> {
  return findSite(head.site.db, head.urlParams.site_id ?? '');
}
