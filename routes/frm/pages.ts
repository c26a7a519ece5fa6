/**
 * The form service's non-API pages, mounted by lib/app.ts:
 * - `GET /wp-content/plugins/frm/assets/js/forms.js`: the form script, `frm_js_vars` localized first;
 * - `GET /frm/embed/<id|slug>`: a small HTML page with one form and the script (for an iframe or a link);
 * - `GET /frm/embed/<id|slug>/fragment`: the `<form>` element only, for a page that fetches and inserts it
 *   (the page loads the script itself; the script finds forms inserted later).
 * A form that does not exist or is not published is a 404. HTML carries a nonce for the visitor when the
 * site enables nonce verification, so it is never cached for someone else.
 */
import { Request, Response, Router } from 'express';
import { FORM_SCRIPT_PATH, embedDocument, formScriptVersion, localizedFormScript } from '../../lib/forms/assets';
import { renderForm } from '../../lib/forms/render';
import { GLOBAL_SETTINGS_OPTION, parseGlobalSettings } from '../../lib/forms/settings';
import { Form, findForm } from '../../lib/forms/store';
import { SUBMIT_NONCE_ACTION } from '../../lib/forms/submit';
import { clientIp, isSecure, parseCookieHeader } from '../../lib/wp/http/request-info';
import { Site } from '../../lib/wp/site';

const HTML_HEADERS = {
  'Content-Type': 'text/html; charset=UTF-8',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-cache, must-revalidate, max-age=0, no-store, private',
};

/** The router serving the script and the embeddable forms of `site`. */
export function formPages(site: Site): Router {
  const router = Router();
  router.get(FORM_SCRIPT_PATH, (req, res, next) => { serveScript(site, req, res).catch(next); });
  router.get('/frm/embed/:form', (req, res, next) => { serveEmbed(site, req, res, false).catch(next); });
  router.get('/frm/embed/:form/fragment', (req, res, next) => { serveEmbed(site, req, res, true).catch(next); });
  return router;
}

async function serveScript(site: Site, req: Request, res: Response): Promise<void> {
  const headers = { 'Content-Type': 'application/javascript; charset=UTF-8', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'public, max-age=300' };
  send(req, res, 200, headers, localizedFormScript(await adminAjaxUrl(site, req)));
}

async function serveEmbed(site: Site, req: Request, res: Response, fragmentOnly: boolean): Promise<void> {
  const form = await publishedForm(site, String(req.params.form));
  if (!form) return send(req, res, 404, HTML_HEADERS, '<p>This form is not available.</p>\n');
  const html = renderForm(form, { nonce: await visitorNonce(site, req) });
  if (fragmentOnly) return send(req, res, 200, HTML_HEADERS, `${html}\n`);
  const scriptUrl = `${await site.siteUrl()}${FORM_SCRIPT_PATH}?ver=${formScriptVersion()}`;
  send(req, res, 200, HTML_HEADERS, embedDocument(form.title, html, scriptUrl));
}

/** Writes the answer as given (Express's send() would rewrite the charset to lower case, unlike WordPress). */
function send(req: Request, res: Response, status: number, headers: Record<string, string>, body: string): void {
  res.status(status).set(headers).setHeader('Content-Length', Buffer.byteLength(body));
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** By ID (digits) or slug; only a published form is shown to visitors. */
async function publishedForm(site: Site, idOrSlug: string): Promise<Form | null> {
  const form = await findForm(site.db, /^\d{1,10}$/.test(idOrSlug) ? Number(idOrSlug) : idOrSlug);
  return form && form.status === 'publish' ? form : null;
}

/** The `_frm_nonce` for this visitor (cookies decide who that is, as on admin-ajax), or none when disabled. */
async function visitorNonce(site: Site, req: Request): Promise<string | undefined> {
  const global = parseGlobalSettings(await site.options.get(GLOBAL_SETTINGS_OPTION));
  if (!global.enable_nonce) return undefined;
  const user = await site.auth.forAjax({ method: 'GET', cookies: parseCookieHeader(req.headers.cookie), ip: clientIp(req), secure: isSecure(req) });
  return site.auth.createNonce(user, SUBMIT_NONCE_ACTION);
}

/** WP: admin_url('admin-ajax.php'): the site URL, on https when this request is. */
async function adminAjaxUrl(site: Site, req: Request): Promise<string> {
  const base = await site.siteUrl();
  return `${isSecure(req) ? base.replace(/^http:/, 'https:') : base}/wp-admin/admin-ajax.php`;
}
