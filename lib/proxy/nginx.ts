/**
 * An nginx configuration made from the proxy's routing file (routing.ts), so that nginx, already in
 * front of the PHP site, sends Understudy only what it may answer and PHP everything else:
 * - REST namespaces with any route served or shadowed go to Understudy's proxy whole as
 *   `/wp-json/<ns>/…` (and `/index.php/wp-json/…`); in WordPress's own namespaces (wp/v2), only the
 *   routes named for serve or shadow.
 * - Every request where WordPress may find a REST route nginx cannot read: `rest_route` anywhere in
 *   the query (any spelling PHP decodes to it), a form POST to the front controller (its body may
 *   name one), a `/wp-json/` path written with `%` or `&`. The proxy reads them as WordPress does.
 * - All of `/wp-admin/admin-ajax.php`: nginx cannot read the action from a POST body, so the proxy
 *   does, answers Understudy's actions and passes every other action on to PHP (its --upstream).
 * The proxy applies the same routing file to everything it gets, so a coarse location here (a whole
 * namespace holding a `pass` route) never sends a request to the wrong side.
 * For a network (`network`, nginx-network.ts) the same routes under every site's path, with
 * server_name for every site's domain. They are found by a map and an `if`, not by locations:
 * WordPress's nginx rules for subdirectory networks rewrite `/two/wp-admin/…` to `/wp-admin/…` (and
 * `/two/index.php/wp-json/…` to `/index.php`) before locations are chosen, and Understudy must get
 * the URI as the visitor sent it to find the site.
 */
import type { Surface } from '../app';
import { readableRoute } from '../wp/rest/readable-route';
import type { NetworkRouting } from './nginx-network';
import type { Routing } from './routing';

export interface NginxOptions {
  /** Where `understudy proxy` listens, as nginx's `server` takes it (host:port or unix:/path). */
  understudy: string;
  /** The routing file's name, for the header comment. */
  routesLabel: string;
  /** A WordPress network: its server names and the path before each site's routes. */
  network?: NetworkRouting;
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
  if (hasControlCharacters(options.routesLabel)) throw new Error(`The routing file's name cannot hold control characters, got ${JSON.stringify(options.routesLabel)}`);
  return { http: httpPart(options, options.network ? siteRouteMap(namespaces, routes, options.network) : []), server: serverPart(namespaces, routes, options.network) };
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

function httpPart(options: NginxOptions, siteRoutes: string[]): string {
  return [
    `# understudy nginx: the http {} part (routing: ${options.routesLabel}).`,
    '# Understudy runs as `understudy proxy --upstream=<the PHP site> --trusted-proxies=<this nginx>`.',
    'upstream understudy {',
    `    server ${nginxString(options.understudy)};`,
    '    keepalive 16;',
    '}',
    '',
    '# Requests where WordPress may find a rest_route that nginx cannot read: the proxy reads it as',
    '# WordPress does and decides. Any rest_route in the query, in any PHP spelling (percent-encoded,',
    '# rest.route, rest[route, repeated, rest_route[]), on any path:',
    'map $args $understudy_rest_query {',
    '    default 0;',
    `    "~*(?:^|&)(?:\\+|%20)*${REST_ROUTE_NAME}" 1;`,
    '}',
    '# a form POST to the front controller (its body may hold rest_route, which wins over the path):',
    'map $content_type $understudy_form {',
    '    default 0;',
    '    "~*^(?:application/x-www-form-urlencoded|multipart/form-data)(?:[;, ]|$)" 1;',
    '}',
    'map "$request_method$understudy_form:$uri" $understudy_form_post {',
    '    default 0;',
    '    "~^POST1:(?:.*/)?(?:index|wp-blog-header|wp-trackback|wp-signup|wp-activate)\\.php$" 1;',
    '    "~^POST1:.*\\.php$" 0;',
    '    "~^POST1:" 1;',
    '}',
    '# a /wp-json/ path written with % or & (WordPress decodes it once more, and splits it at &).',
    'map $request_uri $understudy_raw_path_odd {',
    '    default 0;',
    '    "~^[^?]*[%&]" 1;',
    '}',
    'map "$understudy_raw_path_odd:$uri" $understudy_odd_rest_path {',
    '    default 0;',
    `    "~*^1:${options.network?.sitePath ?? ''}/+(?:index.php/+)?wp-json(?:/|$)" 1;`,
    '}',
    '',
    ...siteRoutes,
  ].join('\n');
}

function serverPart(namespaces: string[], routes: string[], network: NetworkRouting | undefined): string {
  const pass = ['proxy_pass http://understudy;', ...PROXY_PARAMS].map((line) => `    ${line}`);
  const lines = [
    '# understudy nginx: the server {} part. Include it in the site\'s server block, before its own',
    network
      ? '# locations and rewrites (its `if` must run before a rewrite of `/<site>/wp-…` to `/wp-…`).'
      : '# locations (an exact or regex location here must be seen before `location ~ \\.php$`).',
    ...(network ? ['# A WordPress network: every site\'s domain.', `server_name ${network.serverNames.join(' ')};`] : []),
    '',
    '# Requests whose REST route only the proxy can read (see the maps), on whatever path they come.',
    'error_page 418 = @understudy;',
    'if ($understudy_rest_query) {',
    '    return 418;',
    '}',
    'if ($understudy_form_post) {',
    '    return 418;',
    '}',
    'if ($understudy_odd_rest_path) {',
    '    return 418;',
    '}',
    ...(network ? ['# Every site\'s routes and admin-ajax.php (the map $understudy_site_route).', 'if ($understudy_site_route) {', '    return 418;', '}'] : []),
    'location @understudy {',
    ...pass,
    '}',
  ];
  if (!network) lines.push(...siteLocations(namespaces, routes, pass));
  lines.push('');
  return lines.join('\n');
}

/** A single site's locations: admin-ajax.php, then the namespaces and single routes. */
function siteLocations(namespaces: string[], routes: string[], pass: string[]): string[] {
  const lines = [
    '',
    '# admin-ajax.php: the proxy reads the action and passes the ones Understudy does not answer to PHP.',
    'location = /wp-admin/admin-ajax.php {',
    ...pass,
    '}',
  ];
  for (const ns of namespaces) {
    lines.push('', `# The ${ns} namespace.`, `location ~* ${namespaceRegex('', ns)} {`, ...pass, '}');
  }
  for (const route of routes) {
    lines.push('', `# ${route} (named in the routing file).`, `location ~* ${singleRouteRegex('', route)} {`, ...pass, '}');
  }
  return lines;
}

/**
 * A network's routes as one map over `$uri`, read by an `if` before the site's own rewrites (which
 * turn `/two/wp-json/…` into `/wp-json/…` before locations are chosen): every site's admin-ajax.php,
 * namespaces and single routes, under `sitePath`. The request then goes to Understudy as sent.
 */
function siteRouteMap(namespaces: string[], routes: string[], network: NetworkRouting): string[] {
  return [
    '# Every site\'s admin-ajax.php (the proxy reads the action), namespaces and single routes, under',
    '# the site\'s path: the sites of a network.',
    'map $uri $understudy_site_route {',
    '    default 0;',
    `    "~^${network.sitePath}/wp-admin/admin-ajax\\.php$" 1;`,
    ...namespaces.map((ns) => `    "~*${namespaceRegex(network.sitePath, ns)}" 1;`),
    ...routes.map((route) => `    "~*${singleRouteRegex(network.sitePath, route)}" 1;`),
    '}',
    '',
  ];
}

function namespaceRegex(sitePath: string, ns: string): string {
  return `^${sitePath}/(?:index\\.php/)?wp-json/${ns.split('/').map(escapeRegex).join('/')}(?:/|$)`;
}

function singleRouteRegex(sitePath: string, route: string): string {
  return `^${sitePath}/(?:index\\.php/)?wp-json${routeRegex(route)}/?$`;
}

/** `rest_route` as a regex over the raw query: each letter as itself or %XX, `_` also as PHP's `.`, space or `[`. */
const REST_ROUTE_NAME = [...'rest_route'].map((c) => (c === '_'
  ? '(?:_|%5f|\\.|%2e|\\+|%20|\\[|%5b)'
  : `(?:${c}|%${c.charCodeAt(0).toString(16)})`)).join('');

/**
 * A value as an nginx quoted string. Control characters cannot be written safely (a newline would
 * end the directive), so they are refused; `"` and `\` are escaped.
 */
function nginxString(value: string): string {
  if (hasControlCharacters(value)) throw new Error(`nginx configuration values cannot hold control characters, got ${JSON.stringify(value)}`);
  return `"${value.replace(/[\\"]/g, '\\$&')}"`;
}

export function hasControlCharacters(value: string): boolean {
  return /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(value);
}

/** What every Understudy location sends: who the visitor is, the scheme, a request id. */
const PROXY_PARAMS = [
  'proxy_http_version 1.1;',
  'proxy_set_header Connection "";',
  'proxy_set_header Host $host;',
  'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
  'proxy_set_header X-Forwarded-Proto $scheme;',
  'proxy_set_header X-Forwarded-Host $host;',
  '# The visitor\'s own Forwarded header would reach PHP as if nginx had written it.',
  'proxy_set_header Forwarded "";',
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
