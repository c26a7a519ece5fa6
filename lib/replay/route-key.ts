/**
 * Which route a request is for, as one key that results are grouped by and rules and routing are
 * matched against: the REST route with its ids collapsed (`/support/v1/tickets/{id}`),
 * `admin-ajax:<action>`, or `page:<path>` for everything else on the site.
 */
import { parsePhpQuery } from '../wp/http/php-query';
import { formFields, phpReadsForm, restRouteOf } from '../wp/http/rest-route';
import { queryString } from '../wp/http/request-info';
import { readableRoute } from '../wp/rest/readable-route';
import type { RestRegistry } from '../wp/rest/registry';
import { escapeRegExp } from './json-path';

export type RequestTarget =
  /** `invalid`: rest_route is not a string, which WordPress refuses whatever it holds. */
  | { kind: 'rest'; path: string; invalid?: true }
  | { kind: 'ajax'; action: string }
  | { kind: 'page'; path: string };

export const AJAX_PATH = '/wp-admin/admin-ajax.php';

/**
 * Mirrors how WordPress (and so lib/app.ts) routes: the REST route as WordPress reads it
 * (lib/wp/http/rest-route.ts: $_POST, then the query, then the pretty path, on the front
 * controller), then admin-ajax (WP: the action comes from $_REQUEST, where $_POST, filled for form
 * POST bodies only, wins over the query).
 */
export function targetOf(url: string, method = 'GET', body?: string | null, contentType?: string): RequestTarget {
  const pathname = pathOf(url);
  const query = queryString(url);
  const post = body && phpReadsForm(method.toUpperCase(), contentType) ? formFields(body, contentType) : null;
  const reading = restRouteOf(pathname, query, post);
  if (reading.kind === 'route') return { kind: 'rest', path: restPath(reading.route) };
  if (reading.kind === 'invalid') return { kind: 'rest', path: '/', invalid: true };
  if (pathname === AJAX_PATH) {
    const action = typeof post?.action === 'string' ? post.action : parsePhpQuery(query).action;
    return { kind: 'ajax', action: typeof action === 'string' ? action : '' };
  }
  return { kind: 'page', path: pathname };
}

/** The grouping key of a target; REST routes Understudy declares are shown as declared. */
export function routeKeyOf(target: RequestTarget, registry?: RestRegistry): string {
  if (target.kind === 'ajax') return `admin-ajax:${target.action || '(none)'}`;
  if (target.kind === 'page') return `page:${target.path}`;
  if (target.invalid) return 'rest:(rest_route not a string)';
  const declared = registry?.routesFor(target.path)[0]?.route.fullRoute;
  return declared ? readableRoute(declared) : collapseIds(target.path);
}

/** A route glob (`*` within one path segment, `**` across segments) as an anchored regular expression. */
export function routeGlob(glob: string): RegExp {
  const source = glob.split('**').map((part) => part.split('*').map(escapeRegExp).join('[^/]*')).join('.*');
  return new RegExp(`^${source}$`, 'i');
}

/** Numeric and uuid path segments become `{id}` and `{uuid}`, so `/wp/v2/posts/7` groups with `/wp/v2/posts/8`. */
function collapseIds(path: string): string {
  return path
    .split('/')
    .map((s) => (/^\d+$/.test(s) ? '{id}' : /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s) ? '{uuid}' : s))
    .join('/');
}

function restPath(route: string): string {
  return route.replace(/\/+$/, '') || '/';
}

function pathOf(url: string): string {
  const withoutQuery = url.replace(/[?#].*$/, '');
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(withoutQuery) ? new URL(withoutQuery).pathname : withoutQuery || '/';
}

/** decodeURIComponent, keeping text that is not valid percent-encoding as it is. */
export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
