/**
 * A published doc's own page on the standalone site (docs/docs.md, "Doc pages"), so that the links
 * the chat cites and docs search returns (docPermalink) open something: the doc's title and its
 * content as WordPress's front end prints a published post's content, in a plain page.
 *
 * The content is the stored post_content, not escaped: WordPress filters it with kses when an author
 * without `unfiltered_html` saves it, and its front end prints it as stored. An administrator's
 * content may still hold scripts, forms or frames, so the page goes out under a Content-Security-Policy
 * that runs no script and loads nothing but images, media and inline styles, in a sandbox (an opaque
 * origin: nothing on the page can use this site's cookies). Everything else (titles, the site's name,
 * links) is escaped. A doc with a password, a draft or an unknown slug gets no page (404).
 */
import { Site } from '../../wp/site';
import { sanitizeTitleForQuery } from '../../wp/formatting/titles';
import { DOC_POST_TYPE, DocRow, docPermalink, publicDocIdBySlug, readDocs } from './store';
import { plainText } from './text';

/** What the page route sends (a page answer, without knowing the page registry). */
export interface DocPageAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export const DOC_PAGE_CSP = [
  "default-src 'none'", 'img-src http: https: data:', 'media-src http: https:', "style-src 'unsafe-inline'",
  "base-uri 'none'", "form-action 'none'", 'sandbox allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation',
].join('; ');

/** The doc a front-end URL names: its slug (`/docs/<slug>/`, `?svc_doc=<slug>`) or its ID (`?post_type=svc_doc&p=<ID>`). */
export type DocAddress = { slug: string } | { id: number };

/** The front page's query forms of a doc's permalink (docPermalink), or null when the query names no doc. */
export function docAddressOfQuery(query: Record<string, unknown>): DocAddress | null {
  const slug = query[DOC_POST_TYPE];
  if (typeof slug === 'string' && slug) return { slug };
  const id = Number(query.p);
  if (query.post_type === DOC_POST_TYPE && Number.isInteger(id) && id > 0) return { id };
  return null;
}

/** The page of a public doc, or null when there is none at that address. */
export async function docPage(site: Site, address: DocAddress): Promise<DocPageAnswer | null> {
  const id = 'id' in address ? address.id : await publicDocIdBySlug(site.db, sanitizeTitleForQuery(address.slug));
  if (id === null) return null;
  const [doc] = await readDocs(site.db, [id]);
  if (!doc) return null;
  const [blogname, home, structure, restRoot] = await Promise.all([
    site.options.get('blogname', ''), site.homeUrl(), site.options.get('permalink_structure', ''), site.restUrl('/'),
  ]);
  return {
    status: 200,
    headers: {
      'Content-Type': 'text/html; charset=UTF-8',
      'Content-Security-Policy': DOC_PAGE_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
      Link: `<${restRoot}>; rel="https://api.w.org/"`,
      'Cache-Control': 'no-cache',
    },
    body: docHtml(doc, plainText(String(blogname)), home, docPermalink(home, String(structure || ''), doc)),
  };
}

function docHtml(doc: DocRow, siteName: string, home: string, permalink: string): string {
  const title = plainText(doc.title) || `Doc ${doc.id}`;
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}${siteName ? ` – ${esc(siteName)}` : ''}</title>
<link rel="canonical" href="${esc(permalink)}">
<style>body{font:16px/1.6 system-ui,sans-serif;max-width:42em;margin:2em auto;padding:0 1em;overflow-wrap:anywhere}img{max-width:100%;height:auto}header a{color:inherit}</style></head>
<body>
<header><a href="${esc(`${home}/`)}">${esc(siteName || home)}</a></header>
<main><article>
<h1>${esc(title)}</h1>
<div class="entry-content">
${doc.content}
</div>
</article></main>
</body>
</html>
`;
}

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' })[c] as string);
}
