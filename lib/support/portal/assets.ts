/**
 * The customer portal script a connected site embeds (`client/svc/portal.js`, docs/portal.md
 * "Embedding the portal"), preceded by its localized variables as wp_localize_script() prints them.
 * The HTTP side lives in routes/support/pages.ts.
 */
import { ClientScript } from '../../wp/client-script';

/** Where the plugin's script would be served from on a WordPress site. */
export const PORTAL_SCRIPT_PATH = '/wp-content/plugins/svc/assets/js/portal.js';

const PORTAL_SCRIPT = new ClientScript('client/svc/portal.js');

/** WP: wp_localize_script('svc-portal', 'svc_portal_vars', {api_root}), then the script. */
export function localizedPortalScript(apiRoot: string): string {
  return PORTAL_SCRIPT.localized('svc_portal_vars', { api_root: apiRoot });
}
