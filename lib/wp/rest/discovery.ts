/**
 * WP: the REST API's self-description: `GET /wp-json/` (the site index), `GET /wp-json/<namespace>`
 * (one namespace's routes) and OPTIONS on any route (its endpoints, their arguments and schema).
 */
import { argsForIndex } from './args';
import type { CompiledRoute, RestRegistry } from './registry';
import { RestRequest, RouteDeclaration, allowAnyone } from './route';
import { Site } from '../site';

type Context = 'view' | 'help';

/** WP: get_data_for_route(): methods, endpoints with their arguments, the schema for `help`, and a self link. */
export async function routeData(site: Site, route: CompiledRoute, context: Context): Promise<Record<string, unknown>> {
  const data: Record<string, unknown> = { namespace: route.declaration.namespace, methods: [], endpoints: [] };
  if (context === 'help' && route.declaration.schema) data.schema = route.declaration.schema();
  for (const endpoint of route.endpoints) {
    (data.methods as string[]).push(...endpoint.methods);
    (data.endpoints as unknown[]).push({ methods: endpoint.methods, args: argsForIndex(endpoint.args ?? {}) });
  }
  const display = displayRoute(route.fullRoute);
  if (!display.includes('{')) data._links = { self: [{ href: await site.restUrl(display) }] };
  return data;
}

/** WP: rest_handle_options_request(): the first route matching the path, or `[]`. */
export async function optionsData(site: Site, registry: RestRegistry, path: string): Promise<unknown> {
  const found = registry.routesFor(path)[0];
  return found ? routeData(site, found.route, 'help') : [];
}

/** WP: get_data_for_routes(): every route by its pattern. */
async function routesData(site: Site, routes: readonly CompiledRoute[]): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const route of routes) out[route.fullRoute] = await routeData(site, route, 'view');
  return out;
}

/** The namespace index route WordPress registers for each namespace. */
export function namespaceIndexRoute(registry: RestRegistry, namespace: string): RouteDeclaration {
  return {
    namespace,
    route: '/',
    endpoints: [{
      methods: ['GET'],
      permission: allowAnyone,
      args: { namespace: { default: namespace }, context: { default: 'view' } },
      handler: async (req: RestRequest) => ({
        namespace,
        routes: await routesData(req.site, registry.all.filter((r) => r.declaration.namespace === namespace)),
        _links: { up: [{ href: await req.site.restUrl('/') }] },
      }),
    }],
  };
}

/** WP: get_index(): the site's name, addresses, namespaces, authentication methods and routes. */
export async function siteIndex(registry: RestRegistry, req: RestRequest): Promise<Record<string, unknown>> {
  const site = req.site;
  const o = site.options;
  const appPasswords = req.secure || site.config.environmentType === 'local';
  return {
    name: await o.get('blogname', ''),
    description: await o.get('blogdescription', ''),
    url: await o.get('siteurl', ''),
    home: await site.homeUrl(),
    gmt_offset: await o.get('gmt_offset', '0'),
    timezone_string: await o.get('timezone_string', ''),
    namespaces: registry.namespaces.filter((ns) => ns !== ''),
    authentication: appPasswords
      ? { 'application-passwords': { endpoints: { authorization: `${await site.siteUrl()}/wp-admin/authorize-application.php` } } }
      : [],
    routes: await routesData(site, registry.all),
    _links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] },
  };
}

/** The `/` route: the site index. */
export function rootIndexRoute(registry: RestRegistry): RouteDeclaration {
  return {
    namespace: '',
    route: '/',
    endpoints: [{
      methods: ['GET'],
      permission: allowAnyone,
      args: { context: { default: 'view' } },
      handler: (req: RestRequest) => siteIndex(registry, req),
    }],
  };
}

/** WP shows named groups as `{name}` when deciding whether a route gets a self link. */
function displayRoute(route: string): string {
  return route.replace(/\(\?P<(\w+?)>.*?\)/g, '{$1}');
}
