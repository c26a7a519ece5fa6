/**
 * The form service's non-API pages:
 * - `GET /wp-content/plugins/frm/assets/js/forms.js`: the form script, `frm_js_vars` localized first;
 * - `GET /frm/embed/<id|slug>`: a small HTML page with one form and the script (for an iframe or a link);
 * - `GET /frm/embed/<id|slug>/fragment`: the `<form>` element only, for a page that fetches and inserts it
 *   (the page loads the script itself; the script finds forms inserted later).
 * A form that does not exist or is not published is a 404. HTML carries a nonce for the visitor when the
 * site enables nonce verification, so it is never cached for someone else.
 */
import { FORM_SCRIPT_PATH, embedDocument, formScriptVersion, localizedFormScript } from '../../lib/forms/assets';
import { renderForm } from '../../lib/forms/render';
import { GLOBAL_SETTINGS_OPTION, parseGlobalSettings } from '../../lib/forms/settings';
import { Form, findForm } from '../../lib/forms/store';
import { SUBMIT_NONCE_ACTION } from '../../lib/forms/submit';
import { PageAnswer, PageDeclaration, PageRequest } from '../../lib/wp/pages';

const HTML_HEADERS = {
  'Content-Type': 'text/html; charset=UTF-8',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-cache, must-revalidate, max-age=0, no-store, private',
};

export const formScriptPage: PageDeclaration = {
  path: FORM_SCRIPT_PATH,
  handler: async (req) => ({
    status: 200,
    headers: { 'Content-Type': 'application/javascript; charset=UTF-8', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'public, max-age=300' },
    body: localizedFormScript(await adminAjaxUrl(req)),
  }),
};

export const formEmbedPage: PageDeclaration = { path: '/frm/embed/:form', handler: (req) => embed(req, false) };
export const formFragmentPage: PageDeclaration = { path: '/frm/embed/:form/fragment', handler: (req) => embed(req, true) };

async function embed(req: PageRequest, fragmentOnly: boolean): Promise<PageAnswer> {
  const form = await publishedForm(req, String(req.params.form));
  if (!form) return { status: 404, headers: HTML_HEADERS, body: '<p>This form is not available.</p>\n' };
  const html = renderForm(form, { nonce: await visitorNonce(req) });
  if (fragmentOnly) return { status: 200, headers: HTML_HEADERS, body: `${html}\n` };
  const scriptUrl = `${await req.site.siteUrl()}${FORM_SCRIPT_PATH}?ver=${formScriptVersion()}`;
  return { status: 200, headers: HTML_HEADERS, body: embedDocument(form.title, html, scriptUrl) };
}

/** By ID (digits) or slug; only a published form is shown to visitors. */
async function publishedForm(req: PageRequest, idOrSlug: string): Promise<Form | null> {
  const form = await findForm(req.site.db, /^\d{1,10}$/.test(idOrSlug) ? Number(idOrSlug) : idOrSlug);
  return form && form.status === 'publish' ? form : null;
}

/** The `_frm_nonce` for this visitor (cookies decide who that is, as on admin-ajax), or none when disabled. */
async function visitorNonce(req: PageRequest): Promise<string | undefined> {
  const { site } = req;
  const global = parseGlobalSettings(await site.options.get(GLOBAL_SETTINGS_OPTION));
  if (!global.enable_nonce) return undefined;
  const user = await site.auth.forAjax({ method: 'GET', cookies: req.cookies, ip: req.ip, secure: req.secure });
  return site.auth.createNonce(user, SUBMIT_NONCE_ACTION);
}

/** WP: admin_url('admin-ajax.php'): the site URL, on https when this request is. */
async function adminAjaxUrl(req: PageRequest): Promise<string> {
  const base = await req.site.siteUrl();
  return `${req.secure ? base.replace(/^http:/, 'https:') : base}/wp-admin/admin-ajax.php`;
}
