/**
 * The registered routes as the indexes and OPTIONS read them (discovery.ts); RestRegistry
 * (registry.ts), which registers the indexes themselves, is the one table.
 */
import { CompiledArgs } from './args';
import { Endpoint, RouteDeclaration } from './route';

export interface CompiledEndpoint extends Endpoint {
  permission: NonNullable<Endpoint['permission']>;
  compiled: CompiledArgs;
}

export interface CompiledRoute {
  declaration: RouteDeclaration;
  /** `/namespace/route` with WordPress's named groups, as the index shows it. */
  fullRoute: string;
  pattern: RegExp;
  endpoints: CompiledEndpoint[];
}

export interface RouteTable {
  readonly namespaces: readonly string[];
  readonly all: readonly CompiledRoute[];
  /** The routes whose pattern matches `path`, with their URL parameters (`everywhere`: in every namespace). */
  routesFor(path: string, everywhere?: boolean): Array<{ route: CompiledRoute; urlParams: Record<string, string> }>;
}
