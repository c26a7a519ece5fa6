/**
 * What a page needs to show a form: the form script (`client/frm/forms.js`) preceded by its localized
 * variables exactly as wp_localize_script() prints them, and a minimal HTML document around a form for
 * pages that embed it in an iframe. The HTTP side lives in routes/frm/pages.ts.
 */
import { ClientScript } from '../wp/client-script';
import { escAttr } from './render';
import { escapeHtml } from './variables';

/** Where a WordPress plugin's script would be served from. */
export const FORM_SCRIPT_PATH = '/wp-content/plugins/frm/assets/js/forms.js';

const FORM_SCRIPT = new ClientScript('client/frm/forms.js');

export function formScriptSource(): string {
  return FORM_SCRIPT.source();
}

export function formScriptVersion(): string {
  return FORM_SCRIPT.version();
}

/** WP: wp_localize_script('frm', 'frm_js_vars', {ajax_url}), then the script. */
export function localizedFormScript(ajaxUrl: string): string {
  return FORM_SCRIPT.localized('frm_js_vars', { ajax_url: ajaxUrl });
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
