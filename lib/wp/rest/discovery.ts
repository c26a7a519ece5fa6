/**
 * WP: the REST API's self-description: `GET /wp-json/` (the site index), `GET /wp-json/<namespace>`
 * (one namespace's routes) and OPTIONS on any route (its endpoints, their arguments and schema).
 */
import { WpError } from '../errors';
import { argsForIndex } from './args';
import type { CompiledRoute, RouteTable } from './route-table';
import { RestRequest, RouteDeclaration, allowAnyone } from './route';
import { Site } from '../site';

type Context = 'view' | 'help';

/** WP: the `context` param of the index routes: `help` adds each route's schema; anything else is `view`. */
function contextOf(req: RestRequest): Context {
  return req.params.context === 'help' ? 'help' : 'view';
}

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

/** WP: rest_handle_options_request(): the first route (of all routes) matching the path, or `[]`. */
export async function optionsData(site: Site, registry: RouteTable, path: string): Promise<unknown> {
  const found = registry.routesFor(path, true)[0];
  return found ? routeData(site, found.route, 'help') : [];
}

/** WP: get_data_for_routes(): every route by its pattern. */
async function routesData(site: Site, routes: readonly CompiledRoute[], context: Context): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const route of routes) out[route.fullRoute] = await routeData(site, route, context);
  return out;
}

/**
 * The namespace index route WordPress registers for each namespace. WP: get_namespace_index() reads
 * the namespace from the `namespace` param (defaulting to this one), so `?namespace=` can ask for
 * another namespace, and an unknown one is rest_invalid_namespace 404.
 */
export function namespaceIndexRoute(registry: RouteTable, namespace: string): RouteDeclaration {
  return {
    namespace,
    route: '/',
    endpoints: [{
      methods: ['GET'],
      permission: allowAnyone,
      args: { namespace: { default: namespace }, context: { default: 'view' } },
      handler: async (req: RestRequest) => {
        const wanted = req.params.namespace;
        if (typeof wanted !== 'string' || !registry.namespaces.includes(wanted)) {
          throw new WpError('rest_invalid_namespace', 'The specified namespace could not be found.', 404);
        }
        return {
          namespace: wanted,
          routes: await routesData(req.site, registry.all.filter((r) => r.declaration.namespace === wanted), contextOf(req)),
          _links: { up: [{ href: await req.site.restUrl('/') }] },
        };
      },
    }],
  };
}

/**
 * WP: get_index(): the site's name, addresses, namespaces, authentication methods, routes, logo and
 * icon; links to the handbook and (for users who may edit content or themes) the active theme.
 */
export async function siteIndex(registry: RouteTable, req: RestRequest): Promise<Record<string, unknown>> {
  const site = req.site;
  const o = site.options;
  const appPasswords = req.secure || site.config.environmentType === 'local';
  const icon = phpInt(await o.get('site_icon', 0));
  const index: Record<string, unknown> = {
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
    routes: await routesData(site, registry.all, contextOf(req)),
    site_logo: await siteLogo(site),
    site_icon: icon,
    site_icon_url: icon ? await attachmentUrl(site, icon) : '',
  };
  const links: Record<string, unknown> = { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] };
  if (mayUseActiveTheme(req)) {
    links['wp:active-theme'] = [{ href: await site.restUrl(`/wp/v2/themes/${String(await o.get('stylesheet', ''))}`) }];
  }
  const logo = index.site_logo as number;
  const featured = [[logo, 'site_logo'], [icon, 'site_icon']].filter(([id]) => id);
  if (featured.length) {
    links['wp:featuredmedia'] = await Promise.all(
      featured.map(async ([id, type]) => ({ embeddable: true, type, href: await site.restUrl(`/wp/v2/media/${id}`) })),
    );
  }
  // WP: links under https://api.w.org/ are shown compacted, with the `wp` curie listed last.
  if (links['wp:active-theme'] || links['wp:featuredmedia']) links.curies = [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }];
  return { ...index, _links: links };
}

/** WP: add_active_theme_link_to_index(): users who may switch themes or edit any REST-visible content. */
function mayUseActiveTheme(req: RestRequest): boolean {
  return ['switch_themes', 'manage_network_themes', 'edit_posts', 'edit_pages', 'edit_theme_options'].some((cap) => req.user.can(cap));
}

/** WP: get_theme_mod( 'custom_logo' ), which the `site_logo` option overrides when it exists. */
async function siteLogo(site: Site): Promise<number> {
  const option = await site.options.get('site_logo');
  if (option !== undefined && option !== false) return phpInt(option);
  const mods = await site.options.get(`theme_mods_${String(await site.options.get('stylesheet', ''))}`);
  const logo = mods instanceof Map ? mods.get('custom_logo') : mods && typeof mods === 'object' ? (mods as Record<string, unknown>).custom_logo : undefined;
  return phpInt(logo ?? 0);
}

/**
 * WP: get_site_icon_url() at full size = the attachment's own file under the uploads URL, or false
 * when the attachment or its file is gone.
 */
async function attachmentUrl(site: Site, id: number): Promise<string | false> {
  const { knex, tables } = site.db;
  const post = await knex(tables.posts).where({ ID: id, post_type: 'attachment' }).first('post_mime_type');
  const meta = await knex(tables.postmeta).where({ post_id: id, meta_key: '_wp_attached_file' }).first('meta_value');
  if (!post || !String(post.post_mime_type).startsWith('image/') || !meta) return false;
  const custom = String(await site.options.get('upload_url_path', '')).replace(/\/+$/, '');
  const base = custom || `${await site.siteUrl()}/wp-content/uploads`;
  return `${base}/${String(meta.meta_value)}`;
}

/** PHP's (int) cast of an option value. */
function phpInt(value: unknown): number {
  const n = parseInt(String(value), 10);
  return Number.isFinite(n) ? n : 0;
}

/** The `/` route: the site index. */
export function rootIndexRoute(registry: RouteTable): RouteDeclaration {
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
