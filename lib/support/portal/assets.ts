/**
 * The customer portal script a connected site embeds (`client/svc/portal.js`, docs/portal.md
 * "Embedding the portal"), preceded by its localized variables as wp_localize_script() prints them.
 * The HTTP side lives in routes/support/pages.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { phpJsonEncode } from '../../wp/php/json';

/** Where the plugin's script would be served from on a WordPress site. */
export const PORTAL_SCRIPT_PATH = '/wp-content/plugins/svc/assets/js/portal.js';

let scriptSource: string | undefined;

/** The client script's source, read once: from the source tree (lib/support/portal/) or from the build (dist/lib/support/portal/). */
export function portalScriptSource(): string {
  if (scriptSource === undefined) {
    const candidates = ['../../../client/svc/portal.js', '../../../../client/svc/portal.js'].map((rel) => path.resolve(__dirname, rel));
    const found = candidates.find((file) => fs.existsSync(file));
    if (!found) throw new Error(`client/svc/portal.js not found (looked in ${candidates.join(', ')})`);
    scriptSource = fs.readFileSync(found, 'utf8');
  }
  return scriptSource;
}

/** WP: wp_localize_script('svc-portal', 'svc_portal_vars', {api_root}): one `var` line, JSON as PHP encodes it, then the script. */
export function localizedPortalScript(apiRoot: string): string {
  return `var svc_portal_vars = ${phpJsonEncode({ api_root: apiRoot })};\n${portalScriptSource()}`;
}
