/** The two core admin-ajax actions clients use to check a session: `rest-nonce` and `logged-in`. */
import { AjaxRegistry } from './dispatcher';
import { wpDie } from './response';

export function registerCoreAjaxActions(registry: AjaxRegistry): void {
  // Both are core GET actions: they exist only when the query string names them.
  // WP: wp_ajax_rest_nonce(): a fresh wp_rest nonce for the signed-in user, as plain text.
  registry.register({ action: 'rest-nonce', onlyFromQuery: true, priv: async (req) => wpDie(await req.site.auth.createNonce(req.user, 'wp_rest')) });
  // WP: wp_ajax_logged_in(): answers 1 to a signed-in caller.
  registry.register({ action: 'logged-in', onlyFromQuery: true, priv: () => wpDie(1) });
}
