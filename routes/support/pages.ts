/**
 * The support desk's browser scripts, which other sites' pages include with one tag, each with its
 * localized variables first (`api_root`: the site's REST root for support/v1, `/wp-json/` or
 * `?rest_route=`, on https when this request is):
 * - `GET /wp-content/plugins/svc/assets/js/portal.js`: the customer portal (docs/portal.md,
 *   "Embedding the portal"), `svc_portal_vars`;
 * - `GET /wp-content/plugins/svc/assets/js/chat.js`: the chat widget (docs/chat.md, "The widget"),
 *   `svc_chat_vars`.
 */
import { CHAT_SCRIPT_PATH, localizedChatScript } from '../../lib/support/chat/assets';
import { PORTAL_SCRIPT_PATH, localizedPortalScript } from '../../lib/support/portal/assets';
import { PageDeclaration, PageRequest } from '../../lib/wp/pages';
import { NAMESPACE } from './kit';

export const portalScriptPage = scriptPage(PORTAL_SCRIPT_PATH, localizedPortalScript);
export const chatScriptPage = scriptPage(CHAT_SCRIPT_PATH, localizedChatScript);

function scriptPage(path: string, localized: (apiRoot: string) => string): PageDeclaration {
  return {
    path,
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
      body: localized(await apiRoot(req)),
    }),
  };
}

/** WP: rest_url('support/v1/'): the site's REST root for the namespace, on https when this request is. */
async function apiRoot(req: PageRequest): Promise<string> {
  const root = await req.site.restUrl(`/${NAMESPACE}/`);
  return req.secure ? root.replace(/^http:/, 'https:') : root;
}
