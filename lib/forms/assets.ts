/**
 * What a page needs to show a form: the form script (`client/frm/forms.js`) preceded by its localized
 * variables exactly as wp_localize_script() prints them, and a minimal HTML document around a form for
 * pages that embed it in an iframe. The HTTP side lives in routes/frm/pages.ts.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { phpJsonEncode } from '../wp/php/json';
import { escAttr } from './render';
import { escapeHtml } from './variables';

/** Where a WordPress plugin's script would be served from. */
export const FORM_SCRIPT_PATH = '/wp-content/plugins/frm/assets/js/forms.js';

let scriptSource: string | undefined;

/** The client script's source, read once (from the source tree, or next to the build in dist/). */
export function formScriptSource(): string {
  if (scriptSource === undefined) {
    const candidates = ['../../client/frm/forms.js', '../../../client/frm/forms.js'].map((rel) => path.resolve(__dirname, rel));
    const found = candidates.find((file) => fs.existsSync(file));
    if (!found) throw new Error(`client/frm/forms.js not found (looked in ${candidates.join(', ')})`);
    scriptSource = fs.readFileSync(found, 'utf8');
  }
  return scriptSource;
}

/** A short content hash, used as the `ver` query argument so browsers fetch a changed script. */
export function formScriptVersion(): string {
  return createHash('sha256').update(formScriptSource()).digest('hex').slice(0, 10);
}

/** WP: wp_localize_script('frm', 'frm_js_vars', {ajax_url}): one `var` line, JSON as PHP encodes it, then the script. */
export function localizedFormScript(ajaxUrl: string): string {
  return `var frm_js_vars = ${phpJsonEncode({ ajax_url: ajaxUrl })};\n${formScriptSource()}`;
}

/** A complete page holding one form and the script, for an iframe or a direct link. */
export function embedDocument(title: string, formHtml: string, scriptUrl: string): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="UTF-8" />',
    '<meta name="viewport" content="width=device-width, initial-scale=1" />',
    '<meta name="robots" content="noindex" />',
    `<title>${escapeHtml(title)}</title>`,
    '</head>',
    '<body>',
    formHtml,
    `<script src="${escAttr(scriptUrl)}"></script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
