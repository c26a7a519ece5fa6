/**
 * An nginx configuration made from the proxy's routing file (routing.ts), so that nginx, already in
 * front of the PHP site, sends Understudy only what it may answer and PHP everything else:
 * - REST namespaces with any route served or shadowed go to Understudy's proxy whole, both as
 *   `/wp-json/<ns>/…` (and `/index.php/wp-json/…`) and in the `?rest_route=/<ns>/…` form on any path;
 *   in WordPress's own namespaces (wp/v2), only the routes named for serve or shadow.
 * - All of `/wp-admin/admin-ajax.php`: nginx cannot read the action from a POST body, so the proxy
 *   does, answers Understudy's actions and passes every other action on to PHP (its --upstream).
 * The proxy applies the same routing file to everything it gets, so a coarse location here (a whole
 * namespace holding a `pass` route) never sends a request to the wrong side.
 */
import type { Surface } from '../app';
import { readableRoute } from '../replay/route-key';
import type { Routing } from './routing';

export interface NginxOptions {
  /** Where `understudy proxy` listens, as nginx's `server` takes it (host:port or unix:/path). */
  understudy: string;
  /** The routing file's name, for the header comment. */
  routesLabel: string;
}

export interface NginxConfig {
  /** For the `http {}` context: the upstream and the `?rest_route=` map. */
  http: string;
  /** For the site's `server {}` block, before its own locations. */
  server: string;
}

/** WordPress's own namespaces: the PHP site keeps them, unless single routes are named. */
const CORE_NAMESPACE = /^(wp\/|wp-|oembed\/)/;

export function nginxConfig(surface: Surface, routing: Routing, options: NginxOptions): NginxConfig {
  const { namespaces, routes } = whatGoesToUnderstudy(surface, routing);
  return { http: httpPart(namespaces, options), server: serverPart(namespaces, routes) };
}

/** Namespaces sent whole, and single routes (of core namespaces) sent one by one. */
export function whatGoesToUnderstudy(surface: Surface, routing: Routing): { namespaces: string[]; routes: string[] } {
  const namespaces: string[] = [];
  const routes: string[] = [];
  for (const ns of surface.rest.namespaces) {
    const answered = surface.rest.all.map((r) => readableRoute(r.fullRoute)).filter((route) => route === `/${ns}` || route.startsWith(`/${ns}/`))
      .filter((route) => routing.decide({ kind: 'rest', path: route }, route) !== 'pass');
    if (!answered.length) continue;
    if (CORE_NAMESPACE.test(ns)) routes.push(...answered);
    else namespaces.push(ns);
  }
  return { namespaces, routes };
}

function httpPart(namespaces: string[], options: NginxOptions): string {
  const restRoute = namespaces.map((ns) => ns.split('/').map(escapeRegex).join('(?:/|%2F)')).join('|');
  return [
    `# understudy nginx: the http {} part (routing: ${options.routesLabel}).`,
    '# Understudy runs as `understudy proxy --upstream=<the PHP site> --trusted-proxies=<this nginx>`.',
    'upstream understudy {',
    `    server ${options.understudy};`,
    '    keepalive 16;',
    '}',
    '',
    '# WordPress serves ?rest_route=/<namespace>/... on any path, and it wins over the path.',
    'map $arg_rest_route $understudy_rest_route {',
    '    default 0;',
    ...(namespaces.length ? [`    "~*^(?:/|%2F)*(?:${restRoute})(?:$|/|%2F)" 1;`] : []),
    '}',
    '',
  ].join('\n');
}

function serverPart(namespaces: string[], routes: string[]): string {
  const pass = ['proxy_pass http://understudy;', ...PROXY_PARAMS].map((line) => `    ${line}`);
  const lines = [
    '# understudy nginx: the server {} part. Include it in the site\'s server block, before its own',
    '# locations (an exact or regex location here must be seen before `location ~ \\.php$`).',
    '',
    '# ?rest_route= requests of Understudy\'s namespaces, on whatever path they come.',
    'error_page 418 = @understudy;',
    'if ($understudy_rest_route) {',
    '    return 418;',
    '}',
    'location @understudy {',
    ...pass,
    '}',
    '',
    '# admin-ajax.php: the proxy reads the action and passes the ones Understudy does not answer to PHP.',
    'location = /wp-admin/admin-ajax.php {',
    ...pass,
    '}',
  ];
  for (const ns of namespaces) {
    lines.push('', `# The ${ns} namespace.`, `location ~* ^/(?:index\\.php/)?wp-json/${ns.split('/').map(escapeRegex).join('/')}(?:/|$) {`, ...pass, '}');
  }
  for (const route of routes) {
    lines.push('', `# ${route} (named in the routing file).`, `location ~* ^/(?:index\\.php/)?wp-json${routeRegex(route)}/?$ {`, ...pass, '}');
  }
  lines.push('');
  return lines.join('\n');
}

/** What every Understudy location sends: who the visitor is, the scheme, a request id. */
const PROXY_PARAMS = [
  'proxy_http_version 1.1;',
  'proxy_set_header Connection "";',
  'proxy_set_header Host $host;',
  'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
  'proxy_set_header X-Forwarded-Proto $scheme;',
  'proxy_set_header X-Forwarded-Host $host;',
  'proxy_set_header X-Request-Id $request_id;',
  '# Server-sent events are flushed per event; Understudy copes with slow clients itself.',
  'proxy_buffering off;',
  '# admin-ajax.php uploads pass through the proxy to PHP (raise to PHP\'s upload_max_filesize); PHP may be slow.',
  'client_max_body_size 64m;',
  'proxy_request_buffering off;',
  'proxy_read_timeout 300s;',
];

/** A readable route (`/wp/v2/users/{id}`) as an nginx regex: each `{name}` one path segment. */
function routeRegex(route: string): string {
  return route.split(/(\{\w+\})/).map((part) => (/^\{\w+\}$/.test(part) ? '[^/]+' : escapeRegex(part))).join('');
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
