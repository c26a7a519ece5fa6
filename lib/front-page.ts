/**
 * The standalone server's `/`: what a WordPress front page offers an API client (the discovery
 * `Link: <…/wp-json/>; rel="https://api.w.org/"`, as on every WordPress page), and for a person a
 * small page saying what is served here, with links to try it: the REST index, the published forms'
 * embed pages, the portal script. Only titles an administrator published and fixed text; everything
 * escaped; no user's data.
 */
import type { Request, Response } from 'express';
import { findForm, listForms } from './forms/store';
import { docAddressOfQuery, docPage } from './support/docs/page';
import { PORTAL_SCRIPT_PATH } from './support/portal/assets';
import type { Site } from './wp/site';

const MAX_FORMS = 5;

export async function frontPage(site: Site, req: Request, res: Response): Promise<void> {
  // A doc's permalink under plain permalinks is a query on the front page (docPermalink()).
  const doc = docAddressOfQuery(req.query as Record<string, unknown>);
  if (doc) return sendDocPage(site, req, res, doc);
  const [blogname, restRoot, siteUrl] = await Promise.all([site.options.get('blogname', ''), site.restUrl('/'), site.siteUrl()]);
  const forms = await publishedForms(site);
  res.status(200);
  res.setHeader('Content-Type', 'text/html; charset=UTF-8');
  res.setHeader('Link', `<${restRoot}>; rel="https://api.w.org/"`);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
  res.setHeader('Cache-Control', 'no-cache');
  if (req.method === 'HEAD') return void res.end();
  const title = esc(String(blogname) || 'Understudy');
  const formItems = forms.length
    ? forms.map((f) => `<li><a href="${esc(`${siteUrl}/frm/embed/${f.id}`)}">${esc(f.title || `Form ${f.id}`)}</a></li>`).join('\n')
    : '<li>No published form yet.</li>';
  res.end(`<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>${title}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40em;margin:2em auto;padding:0 1em}code{background:#f3f3f3;padding:0 .2em}</style></head>
<body>
<h1>${title}</h1>
<p>This is <strong>Understudy</strong>: it answers this WordPress site's support desk and form service
APIs from the site's database. It serves no theme pages.</p>
<h2>Served here</h2>
<ul>
<li>The REST API: <a href="${esc(restRoot)}">${esc(restRoot)}</a> (namespaces <code>support/v1</code>, <code>frm</code> and WordPress's <code>users/me</code>)</li>
<li><code>/wp-admin/admin-ajax.php</code>: the form service's actions</li>
</ul>
<h2>Try it</h2>
<ul>
${formItems}
<li>The customer portal script for connected sites: <a href="${esc(siteUrl + PORTAL_SCRIPT_PATH)}">${esc(PORTAL_SCRIPT_PATH)}</a> (how to embed it: docs/portal.md)</li>
</ul>
</body>
</html>
`);
}

async function sendDocPage(site: Site, req: Request, res: Response, address: NonNullable<ReturnType<typeof docAddressOfQuery>>): Promise<void> {
  const page = await docPage(site, address);
  if (!page) {
    res.status(404).setHeader('Content-Type', 'text/plain; charset=UTF-8');
    return void res.end(req.method === 'HEAD' ? undefined : 'No published doc is at this address.\n');
  }
  res.status(page.status).set(page.headers);
  res.end(req.method === 'HEAD' ? undefined : page.body);
}

/** The newest published forms (drafts and private forms are not shown). */
async function publishedForms(site: Site): Promise<Array<{ id: number; title: string }>> {
  const listed = (await listForms(site.db)).slice(0, MAX_FORMS * 2);
  const forms = await Promise.all(listed.map((f) => findForm(site.db, f.id)));
  return forms.filter((f) => f?.status === 'publish').slice(0, MAX_FORMS).map((f) => ({ id: (f as NonNullable<typeof f>).id, title: (f as NonNullable<typeof f>).title }));
}

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' })[c] as string);
}
