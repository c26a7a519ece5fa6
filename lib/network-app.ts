/**
 * The HTTP surface of a whole WordPress network in one process (docs/multisite.md). Each request finds
 * its site from the Host and the path as ms-settings.php finds it (lib/wp/multisite/lookup.ts); an
 * address that names no site is answered as WordPress answers it (a redirect to the network, or
 * ms_not_installed()'s 500); a deleted, archived or spammed site answers through wp_die() unless a
 * super admin is signed in by cookie (ms_site_check()); anything else goes to its site's app, with the
 * site's path taken off the front of the URL, so `/two/wp-json/…`, `/two/?rest_route=…` and
 * `/two/wp-admin/admin-ajax.php` reach blog 2's REST server and admin-ajax as `/wp-json/…` would reach
 * a single site's. A route that names its blog by itself (a mail webhook's route key) is served by
 * that blog of the same network, whichever site's address it reached (lib/network-route.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Logger } from './logger';
import { servingSite } from './network-route';
import { parseCookieHeader, clientIp, isSecure } from './wp/http/request-info';
import { notesOf } from './wp/http/request-notes';
import { SiteLookup } from './wp/multisite/lookup';
import { Network, NetworkSite } from './wp/multisite/network';
import { NetworkSites } from './wp/multisite/sites';
import { SitePool } from './wp/multisite/site-pool';
import { SiteRefusal, siteCheck, siteState } from './wp/multisite/status';
import { wpDieAnswer } from './wp/http/wp-die';
import { RestRegistry } from './wp/rest/registry';
import { Site } from './wp/site';

type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** A site of the network while this process holds it open. */
export interface ServedSite {
  site: Site;
  /** Its own app (lib/app.ts), answering URLs relative to the site's path. */
  app: RequestHandler;
  /** Told of each request for the site before its app answers (the first starts the desk's background loads). */
  visited(): void;
}

/** What the network's handler reads: its sites, the open ones, and the REST routes (for the routes that name their blog). */
export interface NetworkSurface {
  sites: NetworkSites;
  pool: SitePool<ServedSite>;
  rest: RestRegistry;
}

export function createNetworkHandler(network: NetworkSurface, logger: Logger): RequestHandler {
  return (req, res) => {
    serveFromNetwork(network, req, res).catch((err) => answerFailure(logger, req, res, err));
  };
}

async function serveFromNetwork(network: NetworkSurface, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const found = await findSite(network.sites, req);
  if (found.found === 'none') return void send(res, wpDieAnswer(req, NOT_INSTALLED));
  if (found.found === 'redirect') return void res.writeHead(302, { Location: found.location }).end();
  await serveSite(network, found, req, res);
}

/** A site the lookup found for a request. */
export type FoundSite = Extract<SiteLookup, { found: 'site' }>;

/** WP: ms_load_current_site_and_network() for this request: its Host and URI. */
export function findSite(sites: NetworkSites, req: IncomingMessage): Promise<SiteLookup> {
  const uri = req.url ?? '/';
  return sites.lookUp({ host: String(req.headers.host ?? ''), uri, admin: isAdminScript(uri), secure: isSecure(req) });
}

/**
 * Answers a request for a site the lookup found (or the blog its route names: network-route.ts):
 * ms_site_check()'s wp_die() for a blocked site, else the site's own app with the site's path taken
 * off the URL. The site is held open until the answer is done; the request log names its blog.
 */
export async function serveSite({ sites, pool, rest }: NetworkSurface, found: FoundSite, req: IncomingMessage, res: ServerResponse): Promise<void> {
  // Listened for at once: a visitor may leave while the site is still opening, and a site held for
  // an answer nobody waits for would never be let go.
  let release: (() => void) | null = null;
  let gone = false;
  res.once('close', () => {
    gone = true;
    release?.();
  });
  const within = withinSite(req.url ?? '/', found.site.path);
  const site = await servingSite(sites, rest, found, within, res);
  const lease = await pool.lease(site.blogId);
  if (gone) return lease.release();
  release = lease.release;
  notesOf(res).blogId = site.blogId;
  const refusal = siteState(site) === 'live' ? null : await refusalFor(site, found.network, lease.opened.site, req);
  if (refusal) return void send(res, wpDieAnswer(req, { status: refusal.status, message: refusal.message }));
  req.url = within;
  lease.opened.visited();
  lease.opened.app(req, res);
}

/** A request that failed before its site answered: logged, and a bare 500 when nothing was sent yet. */
export function answerFailure(logger: Logger, req: IncomingMessage, res: ServerResponse, err: unknown): void {
  logger.error('network: a request could not reach its site', { path: (req.url ?? '/').split('?')[0], error: err instanceof Error ? err.stack : String(err) });
  if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' }).end('Internal error\n');
  else res.end();
}

/** WP: WP_ADMIN: a script under wp-admin/ (admin-ajax.php among them), looked up by the path before it. */
function isAdminScript(uri: string): boolean {
  return /\/wp-admin\//.test(uri.split('?')[0] as string);
}

/** WP: ms_site_check(): the caller seen by cookie alone (no nonce, no application password). */
async function refusalFor(served: NetworkSite, network: Network, site: Site, req: IncomingMessage): Promise<SiteRefusal | null> {
  const caller = await site.auth.forAjax({ method: req.method ?? 'GET', cookies: parseCookieHeader(req.headers.cookie), ip: clientIp(req), secure: isSecure(req) });
  const adminEmail = served.deleted === 2 ? String((await site.options.getSiteOption('admin_email')) ?? '') || undefined : undefined;
  return siteCheck(served, { superAdminByCookie: caller.caps.isSuperAdmin }, adminEmail, network.domain);
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
