/**
 * The HTTP surface over one Site, where both plugins' routes come together (buildSurface()), in the
 * order a request meets it: the visitor's address (behind trusted proxies), WordPress's REST entry
 * points (`/wp-json/...`, `?rest_route=`), the front page `/`, `/wp-admin/admin-ajax.php`, then plain
 * pages (the form script, embeddable forms, the email change link); anything else is a 404. The app
 * is built without listening, so the server, the proxy and the tests all import it.
 */
import express, { Express, NextFunction, Request, Response } from 'express';
import { frontPage } from './front-page';
import { AjaxRegistry, serveAjax } from './wp/ajax/dispatcher';
import { registerCoreAjaxActions } from './wp/ajax/core-actions';
import { queryString, trustProxies } from './wp/http/request-info';
import { notesOf } from './wp/http/request-notes';
import { restRouteOf } from './wp/http/rest-route';
import { NO_TRUSTED_PROXIES, TrustedProxies } from './wp/http/trusted-proxies';
import { PageRegistry } from './wp/pages';
import { RestRegistry } from './wp/rest/registry';
import { RestServer } from './wp/rest/server';
import { Site } from './wp/site';
import { registerRoutes } from '../routes';

export interface Surface {
  rest: RestRegistry;
  ajax: AjaxRegistry;
  pages: PageRegistry;
}

/** What the routes' declarations take from the install: the languages a user may choose (SiteConfig.languages). */
export interface SurfaceOptions {
  languages?: readonly string[];
}

/** Every REST route, admin-ajax action and page Understudy implements. */
export function buildSurface(options: SurfaceOptions = {}): Surface {
  const rest = new RestRegistry();
  const ajax = new AjaxRegistry();
  const pages = new PageRegistry();
  registerCoreAjaxActions(ajax);
  registerRoutes(rest, ajax, pages, { languages: options.languages ?? [] });
  return { rest, ajax, pages };
}

export interface AppOptions {
  /** TRUSTED_PROXIES: the reverse proxies whose X-Forwarded-For/-Proto are believed. */
  trustedProxies?: TrustedProxies;
}

export function createApp(site: Site, surface: Surface = buildSurface({ languages: site.config.languages }), options: AppOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const trusted = options.trustedProxies ?? NO_TRUSTED_PROXIES;
  // First of all: who the visitor is, for every route, limit and record after this.
  app.use((req, _res, next) => {
    trustProxies(req, trusted);
    next();
  });
  const rest = new RestServer(site, surface.rest);
  const serveRest = (routePath: string) => (req: Request, res: Response, next: NextFunction) => {
    rest.serve(req, res, routePath).catch(next);
  };

  // WP: the REST route as WordPress reads it (lib/wp/http/rest-route.ts): `?rest_route=` on any
  // front-end URL, winning over the pretty /wp-json/ path; an empty one (PHP's empty(): '' or '0') is
  // no REST request at all, even on a /wp-json/ path. Behind the proxy, a POST body may have named it.
  app.use((req, res, next) => {
    const url = req.originalUrl;
    const reading = notesOf(res).restRoute ?? restRouteOf(url.split('?')[0] as string, queryString(url));
    if (reading.kind === 'invalid') return void rest.refuseRoutePath(req, res).catch(next);
    if (reading.kind === 'route') return serveRest(reading.route)(req, res, next);
    return reading.kind === 'empty' ? notFound(req, res) : next();
  });
  // The front page, for API discovery and for a newcomer (lib/front-page.ts).
  app.get('/', (req, res, next) => {
    frontPage(site, req, res).catch(next);
  });
  app.all('/wp-admin/admin-ajax.php', (req, res, next) => {
    serveAjax(site, surface.ajax, req, res).catch(next);
  });
  // Plain pages: the form script and embeddable forms, the email change confirmation link.
  surface.pages.mount(app, site);
  app.use(notFound);
  app.use((err: unknown, req: Request, res: Response, _next: NextFunction) => {
    site.logger.error('unhandled error', { path: req.path, error: err instanceof Error ? err.stack : String(err) });
    if (!res.headersSent) res.status(500).type('text/plain').send('Internal error\n');
    else res.end();
  });
  return app;
}

/** Anything that is not the REST API or admin-ajax.php (WordPress would render a theme page here). */
function notFound(_req: Request, res: Response): void {
  res.status(404).type('text/plain').send('Not found: Understudy serves /wp-json/ and /wp-admin/admin-ajax.php.\n');
}
