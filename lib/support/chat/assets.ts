/**
 * The chat widget a site includes with one tag (`client/svc/chat.js`, docs/chat.md "The widget"),
 * preceded by its localized variables as wp_localize_script() prints them. The HTTP side lives in
 * routes/support/chat-script.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { phpJsonEncode } from '../../wp/php/json';

/** Where the plugin's script would be served from on a WordPress site. */
export const CHAT_SCRIPT_PATH = '/wp-content/plugins/svc/assets/js/chat.js';

let scriptSource: string | undefined;

/** The widget's source, read once: from the source tree (lib/support/chat/) or from the build (dist/lib/support/chat/). */
function chatScriptSource(): string {
  if (scriptSource === undefined) {
    const candidates = ['../../../client/svc/chat.js', '../../../../client/svc/chat.js'].map((rel) => path.resolve(__dirname, rel));
    const found = candidates.find((file) => fs.existsSync(file));
    if (!found) throw new Error(`client/svc/chat.js not found (looked in ${candidates.join(', ')})`);
    scriptSource = fs.readFileSync(found, 'utf8');
  }
  return scriptSource;
}

/** WP: wp_localize_script('svc-chat', 'svc_chat_vars', {api_root}): one `var` line, JSON as PHP encodes it, then the script. */
export function localizedChatScript(apiRoot: string): string {
  return `var svc_chat_vars = ${phpJsonEncode({ api_root: apiRoot })};\n${chatScriptSource()}`;
}
