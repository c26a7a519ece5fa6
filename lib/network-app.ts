/**
 * The HTTP surface of a whole WordPress network in one process (docs/multisite.md). Each request finds
 * its site from the Host and the path as ms-settings.php finds it (lib/wp/multisite/lookup.ts); an
 * address that names no site is answered as WordPress answers it (a redirect to the network, or
 * ms_not_installed()'s 500); a deleted, archived or spammed site answers through wp_die() unless a
 * super admin is signed in by cookie (ms_site_check()); anything else goes to its site's app, with the
 * site's path taken off the front of the URL, so `/two/wp-json/…`, `/two/?rest_route=…` and
 * `/two/wp-admin/admin-ajax.php` reach blog 2's REST server and admin-ajax as `/wp-json/…` would reach
 * a single site's.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Logger } from './logger';
import { parseCookieHeader, clientIp, isSecure } from './wp/http/request-info';
import { notesOf } from './wp/http/request-notes';
import { SiteLookup } from './wp/multisite/lookup';
import { NetworkSites } from './wp/multisite/sites';
import { SitePool } from './wp/multisite/site-pool';
import { SiteRefusal, siteCheck, siteState } from './wp/multisite/status';
import { wpDieAnswer } from './wp/http/wp-die';
import { Site } from './wp/site';

type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** A site of the network while this process holds it open. */
export interface ServedSite {
  site: Site;
  /** Its own app (lib/app.ts), answering URLs relative to the site's path. */
  app: RequestHandler;
}

export function createNetworkHandler(sites: NetworkSites, pool: SitePool<ServedSite>, logger: Logger): RequestHandler {
  return (req, res) => {
    serveFromNetwork(sites, pool, req, res).catch((err) => {
      logger.error('network: a request could not reach its site', { path: (req.url ?? '/').split('?')[0], error: err instanceof Error ? err.stack : String(err) });
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' }).end('Internal error\n');
      else res.end();
    });
  };
}

async function serveFromNetwork(sites: NetworkSites, pool: SitePool<ServedSite>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const uri = req.url ?? '/';
  const found = await sites.lookUp({ host: String(req.headers.host ?? ''), uri, admin: isAdminScript(uri), secure: isSecure(req) });
  if (found.found === 'none') return void send(res, wpDieAnswer(req, NOT_INSTALLED));
  if (found.found === 'redirect') return void res.writeHead(302, { Location: found.location }).end();
  const leasing = pool.lease(found.site.blogId);
  // Held until the answer is over, even when the visitor leaves while the site is still opening
  // (then 'close' has fired before the lease is given, and a listener added after would never run).
  res.once('close', () => void leasing.then((lease) => lease.release(), () => undefined));
  const lease = await leasing;
  notesOf(res).blogId = found.site.blogId;
  const refusal = siteState(found.site) === 'live' ? null : await refusalFor(found, lease.opened.site, req);
  if (refusal) return void send(res, wpDieAnswer(req, { status: refusal.status, message: refusal.message }));
  req.url = withinSite(uri, found.site.path);
  lease.opened.app(req, res);
}

/** WP: WP_ADMIN: a script under wp-admin/ (admin-ajax.php among them), looked up by the path before it. */
function isAdminScript(uri: string): boolean {
  return /\/wp-admin\//.test(uri.split('?')[0] as string);
}

/** WP: ms_site_check(): the caller seen by cookie alone (no nonce, no application password). */
async function refusalFor(found: Extract<SiteLookup, { found: 'site' }>, site: Site, req: IncomingMessage): Promise<SiteRefusal | null> {
  const caller = await site.auth.forAjax({ method: req.method ?? 'GET', cookies: parseCookieHeader(req.headers.cookie), ip: clientIp(req), secure: isSecure(req) });
  const adminEmail = found.site.deleted === 2 ? String((await site.options.getSiteOption('admin_email')) ?? '') || undefined : undefined;
  return siteCheck(found.site, { superAdminByCookie: caller.caps.isSuperAdmin }, adminEmail, found.network.domain);
}

/**
 * The URL as the site's app reads it: without the site's path (matched as MySQL compares it, without
 * regard to case), so a site at `/two/` sees `/two/wp-json/x` as `/wp-json/x`.
 */
export function withinSite(uri: string, sitePath: string): string {
  if (sitePath === '/') return uri;
  const bare = sitePath.slice(0, -1).toLowerCase();
  const lower = uri.toLowerCase();
  // `/two` and `/two?rest_route=…` are the site's front page too.
  if (lower.startsWith(`${bare}/`) || lower === bare || lower.startsWith(`${bare}?`)) return `/${uri.slice(bare.length).replace(/^\//, '')}`;
  return uri;
}

/** WP: ms_not_installed() (dead_db() for a front-end request): no network or site answers this address. */
const NOT_INSTALLED = { status: 500 as const, message: '<h1>Error establishing a database connection</h1>' };

function send(res: ServerResponse, answer: { status: number; contentType: string; body: string }): void {
  res.writeHead(answer.status, { 'Content-Type': answer.contentType, 'Cache-Control': 'no-cache, must-revalidate, max-age=0, no-store, private' });
  res.end(answer.body);
}
