/**
 * `GET /wp-content/plugins/svc/assets/js/chat.js`: the chat widget a site includes with one tag
 * (docs/chat.md, "The widget"), `svc_chat_vars` localized first. The REST root in it is the site's
 * (`/wp-json/` or `?rest_route=`), on https when this request is. Served like the portal script
 * (routes/support/pages.ts).
 */
import { CHAT_SCRIPT_PATH, localizedChatScript } from '../../lib/support/chat/assets';
import { PageDeclaration } from '../../lib/wp/pages';
import { NAMESPACE } from './common';

export const chatScriptPage: PageDeclaration = {
  path: CHAT_SCRIPT_PATH,
  etag: true,
  handler: async (req) => {
    const root = await req.site.restUrl(`/${NAMESPACE}/`);
    return {
      status: 200,
      headers: {
        'Content-Type': 'application/javascript; charset=UTF-8',
        'X-Content-Type-Options': 'nosniff',
        // Loaded by other sites' pages: allowed even where a page requires cross-origin resources to opt in (COEP).
        'Cross-Origin-Resource-Policy': 'cross-origin',
        // Revalidated (ETag) after five minutes, so a changed script or REST root reaches pages soon.
        'Cache-Control': 'public, max-age=300',
      },
      body: localizedChatScript(req.secure ? root.replace(/^http:/, 'https:') : root),
    };
  },
};
