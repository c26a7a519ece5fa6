/**
 * The support desk's non-API pages:
 * - `GET /wp-content/plugins/svc/assets/js/portal.js`: the customer portal script a connected site
 *   embeds (docs/portal.md "Embedding the portal"), `svc_portal_vars` localized first. The REST root
 *   in it is the site's (`/wp-json/` or `?rest_route=`), on https when this request is.
 */
import { PORTAL_SCRIPT_PATH, localizedPortalScript } from '../../lib/support/portal/assets';
import { PageDeclaration, PageRequest } from '../../lib/wp/pages';
import { NAMESPACE } from './common';

export const portalScriptPage: PageDeclaration = {
  path: PORTAL_SCRIPT_PATH,
  etag: true,
  handler: async (req) => ({
    status: 200,
    headers: {
      'Content-Type': 'application/javascript; charset=UTF-8',
      'X-Content-Type-Options': 'nosniff',
      // Loaded by other sites' pages: allowed even where a page requires cross-origin resources to opt in (COEP).
      'Cross-Origin-Resource-Policy': 'cross-origin',
      // Revalidated (ETag) after five minutes, so a changed script or REST root reaches pages soon.
      'Cache-Control': 'public, max-age=300',
    },
    body: localizedPortalScript(await apiRoot(req)),
  }),
};

/** WP: rest_url('support/v1/'): the site's REST root for the namespace, on https when this request is. */
async function apiRoot(req: PageRequest): Promise<string> {
  const root = await req.site.restUrl(`/${NAMESPACE}/`);
  return req.secure ? root.replace(/^http:/, 'https:') : root;
}
