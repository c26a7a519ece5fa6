/**
 * The chat widget a site includes with one tag (`client/svc/chat.js`, docs/chat.md "The widget"),
 * preceded by its localized variables as wp_localize_script() prints them. The HTTP side lives in
 * routes/support/pages.ts.
 */
import { ClientScript } from '../../wp/client-script';

/** Where the plugin's script would be served from on a WordPress site. */
export const CHAT_SCRIPT_PATH = '/wp-content/plugins/svc/assets/js/chat.js';

const CHAT_SCRIPT = new ClientScript('client/svc/chat.js');

/** WP: wp_localize_script('svc-chat', 'svc_chat_vars', {api_root}), then the script. */
export function localizedChatScript(apiRoot: string): string {
  return CHAT_SCRIPT.localized('svc_chat_vars', { api_root: apiRoot });
}
