/**
 * WP: the route table of WP_REST_Server. Routes are kept in registration order; a request goes to the
 * first route whose pattern matches the whole path (case-insensitively) and that lists its method
 * (HEAD falls back to GET). Argument validators are compiled here, once, at registration.
 */
import { CompiledArgs, compileArgs } from './args';
import { namespaceIndexRoute, rootIndexRoute } from './discovery';
import { Endpoint, HttpMethod, RouteDeclaration } from './route';

export interface CompiledEndpoint extends Endpoint {
  compiled: CompiledArgs;
}

export interface CompiledRoute {
  declaration: RouteDeclaration;
  /** `/namespace/route` with WordPress's named groups, as the index shows it. */
  fullRoute: string;
  pattern: RegExp;
  endpoints: CompiledEndpoint[];
}

export interface RouteMatch {
  route: CompiledRoute;
  endpoint: CompiledEndpoint;
  urlParams: Record<string, string>;
}

export class RestRegistry {
  private readonly routes: CompiledRoute[] = [];
  private readonly namespaceList: string[] = [];

  /** WP: the server starts with the site index at `/`. */
  constructor() {
    this.add(rootIndexRoute(this), '');
  }

  /**
   * WP: register_rest_route(). Throws on a declaration WordPress would call "doing it wrong". The first
   * route of a namespace also registers that namespace's index, as WordPress does.
   */
  register(declaration: RouteDeclaration): void {
    const namespace = declaration.namespace.replace(/^\/+|\/+$/g, '');
    if (!namespace) throw new Error('Routes must be namespaced with plugin or theme name and version.');
    if (!this.namespaceList.includes(namespace)) {
      this.namespaceList.push(namespace);
      this.add(namespaceIndexRoute(this, namespace), namespace);
    }
    this.add(declaration, namespace);
  }

  private add(declaration: RouteDeclaration, namespace: string): void {
    for (const endpoint of declaration.endpoints) {
      if (typeof endpoint.permission !== 'function') {
        throw new Error(`${namespace}${declaration.route}: every endpoint needs a permission check (use allowAnyone for public ones).`);
      }
    }
    const fullRoute = namespace ? `/${namespace}${declaration.route === '/' ? '' : declaration.route}` : '/';
    this.routes.push({
      declaration: { ...declaration, namespace },
      fullRoute,
      pattern: new RegExp(`^${fullRoute.replace(/\(\?P</g, '(?<')}$`, 'i'),
      endpoints: declaration.endpoints.map((e) => ({ ...e, compiled: compileArgs(e.args ?? {}) })),
    });
  }

  get namespaces(): readonly string[] {
    return this.namespaceList;
  }

  get all(): readonly CompiledRoute[] {
    return this.routes;
  }

  /** The routes whose pattern matches `path`, in registration order, with their URL parameters. */
  routesFor(path: string): Array<{ route: CompiledRoute; urlParams: Record<string, string> }> {
    const found = [];
    for (const route of this.candidates(path)) {
      const match = route.pattern.exec(path);
      if (match) found.push({ route, urlParams: { ...(match.groups ?? {}) } });
    }
    return found;
  }

  /** WP: match_request_to_handler(): the first route and endpoint that serve this path and method. */
  match(path: string, method: string): RouteMatch | null {
    const wanted = method === 'HEAD' ? 'GET' : method;
    for (const { route, urlParams } of this.routesFor(path)) {
      const endpoint = route.endpoints.find((e) => e.methods.includes(wanted as HttpMethod));
      if (endpoint) return { route, endpoint, urlParams };
    }
    return null;
  }

  /** WP: only routes of namespaces that prefix the path are tried, or all routes when none does. */
  private candidates(path: string): CompiledRoute[] {
    const lower = path.toLowerCase();
    const inNamespace = this.routes.filter((r) => {
      const ns = `/${r.declaration.namespace.toLowerCase()}`;
      return lower === ns || lower.startsWith(`${ns}/`);
    });
    return inNamespace.length ? inNamespace : this.routes;
  }
}
