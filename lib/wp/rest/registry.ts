/**
 * WP: the route table of WP_REST_Server. Routes are kept in registration order; a request goes to the
 * first route whose pattern matches the whole path (case-insensitively) and that lists its method
 * (HEAD falls back to GET). Argument validators are compiled here, once, at registration.
 */
import { BoundedMemo } from '../bounded-memo';
import { compileArgs } from './args';
import { namespaceIndexRoute, rootIndexRoute } from './discovery';
import { argsForMethods } from './item-schema';
import { Endpoint, HttpMethod, RouteDeclaration, requirePrincipal } from './route';
import { CompiledEndpoint, CompiledRoute, RouteTable } from './route-table';

export interface RouteMatch {
  route: CompiledRoute;
  endpoint: CompiledEndpoint;
  urlParams: Record<string, string>;
}

export class RestRegistry implements RouteTable {
  private readonly routes: CompiledRoute[] = [];
  private readonly namespaceList: string[] = [];
  /** What each method and path matched. */
  private readonly matches = new BoundedMemo<string, RouteMatch | null>(1000);

  /** WP: the server starts with the site index at `/`. */
  constructor() {
    this.add(rootIndexRoute(this), '', '/');
  }

  /**
   * WP: register_rest_route(). Throws on a declaration WordPress would call "doing it wrong". The first
   * route of a namespace also registers that namespace's index, as WordPress does.
   */
  register(declaration: RouteDeclaration): void {
    const namespace = trimSlashes(declaration.namespace);
    if (!namespace) throw new Error('Routes must be namespaced with plugin or theme name and version.');
    if (!declaration.route) throw new Error('Route must be specified.');
    if (!this.namespaceList.includes(namespace)) {
      this.namespaceList.push(namespace);
      this.add(namespaceIndexRoute(this, namespace), namespace, `/${namespace}`);
    }
    // WP: the full route is '/' . trim( namespace ) . '/' . trim( route ), so `/items/` and `items`
    // both become `/ns/items` (and `/` becomes `/ns/`, which no request path can reach).
    this.add(declaration, namespace, `/${namespace}/${trimSlashes(declaration.route)}`);
  }

  private add(declaration: RouteDeclaration, namespace: string, fullRoute: string): void {
    this.matches.clear();
    const endpoints = declaration.endpoints.map((e) => {
      const args = argsForMethods(e.args ?? {}, e.methods);
      return { ...e, args, permission: permissionOf(e, fullRoute), compiled: compileArgs(args) };
    });
    // WP: registering a route again adds its endpoints to the same route (one Allow header, one index entry).
    const existing = this.routes.find((r) => r.fullRoute === fullRoute);
    if (existing) {
      existing.endpoints.push(...endpoints);
      existing.declaration = {
        ...existing.declaration,
        namespace,
        schema: declaration.schema ?? existing.declaration.schema,
        subject: declaration.subject ?? existing.declaration.subject,
        gate: declaration.gate ?? existing.declaration.gate,
        headers: declaration.headers ?? existing.declaration.headers,
        availability: declaration.availability ?? existing.declaration.availability,
        blogOfUrl: declaration.blogOfUrl ?? existing.declaration.blogOfUrl,
        endpoints: [...existing.declaration.endpoints, ...declaration.endpoints],
      };
      return;
    }
    this.routes.push({
      declaration: { ...declaration, namespace },
      fullRoute,
      pattern: new RegExp(`^${fullRoute.replace(/\(\?P</g, '(?<')}$`, 'i'),
      endpoints,
    });
  }

  get namespaces(): readonly string[] {
    return this.namespaceList;
  }

  get all(): readonly CompiledRoute[] {
    return this.routes;
  }

  /**
   * The routes whose pattern matches `path`, in registration order, with their URL parameters. Request
   * matching looks only at the namespaces the path starts with; OPTIONS (`everywhere`) looks at all.
   */
  routesFor(path: string, everywhere = false): Array<{ route: CompiledRoute; urlParams: Record<string, string> }> {
    const found = [];
    for (const route of everywhere ? this.routes : this.candidates(path)) {
      const match = route.pattern.exec(path);
      if (match) found.push({ route, urlParams: { ...(match.groups ?? {}) } });
    }
    return found;
  }

  /**
   * The blog the route of `path` names by itself (its declaration's blogOfUrl(): a mail webhook's
   * route key), or null. Only the routes that can name one are tried first, so any other path costs
   * a few pattern tests; a hit is confirmed as the first route matching, the one the server serves.
   */
  blogNamedBy(path: string): number | null {
    if (!this.routes.some((r) => r.declaration.blogOfUrl && r.pattern.test(path))) return null;
    const [first] = this.routesFor(path);
    return first?.route.declaration.blogOfUrl?.(first.urlParams) ?? null;
  }

  /** WP: match_request_to_handler(): the first route and endpoint that serve this path and method. */
  match(path: string, method: string): RouteMatch | null {
    // Every request is matched, mostly to the same few paths: each is matched once (its URL
    // parameters copied for each request), until a route is registered.
    const found = this.matches.get(`${method}\0${path}`, () => this.firstMatch(path, method));
    return found && { ...found, urlParams: { ...found.urlParams } };
  }

  private firstMatch(path: string, method: string): RouteMatch | null {
    const wanted = method === 'HEAD' ? 'GET' : method;
    for (const { route, urlParams } of this.routesFor(path)) {
      const endpoint = route.endpoints.find((e) => e.methods.includes(wanted as HttpMethod));
      if (endpoint) return { route, endpoint, urlParams };
    }
    return null;
  }

  /**
   * WP: only routes of namespaces that prefix the path are tried (a plain, case-sensitive prefix test
   * on the path without its leading slash and with a trailing one), or all routes when none does.
   */
  private candidates(path: string): CompiledRoute[] {
    const probe = `${path.replace(/^\/+/, '').replace(/\/+$/, '')}/`;
    const namespaces = this.namespaceList.filter((ns) => probe.startsWith(ns));
    if (!namespaces.length) return this.routes;
    return this.routes.filter((r) => r.declaration.namespace !== '' && namespaces.includes(r.declaration.namespace));
  }
}

/**
 * An endpoint's permission check: its own, else `requirePrincipal` when it declares a principal (the
 * principal stage refuses strangers). An endpoint with neither is refused: being public is said
 * with `allowAnyone`.
 */
function permissionOf(endpoint: Endpoint, fullRoute: string): CompiledEndpoint['permission'] {
  if (typeof endpoint.permission === 'function') return endpoint.permission;
  if (endpoint.principal) return requirePrincipal;
  throw new Error(`${fullRoute}: every endpoint needs a permission check (use allowAnyone for public ones) or a principal.`);
}

function trimSlashes(text: string): string {
  return text.replace(/^\/+|\/+$/g, '');
}
