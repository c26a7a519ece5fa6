/**
 * Who answers a request behind the proxy: `serve` (Understudy alone), `pass` (the PHP site alone),
 * `shadow` (the PHP site answers, Understudy answers too in the background and is compared) or
 * `record` (the PHP site answers and the exchange is recorded, with `--record`).
 * Defaults: the REST namespaces and admin-ajax actions of the plugins Understudy stands in for are
 * served; WordPress core's (wp/v2, the index, `rest-nonce`, …) and everything else on the site pass,
 * because the PHP site keeps running WordPress itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import type { Surface } from '../app';
import { AjaxRegistry } from '../wp/ajax/dispatcher';
import { registerCoreAjaxActions } from '../wp/ajax/core-actions';
import routesSchema from '../../schema/proxy/routes.json';
import { RequestTarget, routeGlob } from '../replay/route-key';
import { readableRoute } from '../wp/rest/readable-route';

export type Mode = 'serve' | 'pass' | 'shadow' | 'record';

/** A routing file as written (schema/proxy/routes.json). */
export interface RoutingFile {
  namespaces?: Record<string, Mode>;
  routes?: Record<string, Mode>;
  ajax?: Record<string, Mode>;
  shadow?: ShadowSettings;
}

export interface ShadowSettings {
  writes?: boolean;
  databaseIsCopy?: boolean;
  concurrency?: number;
  queueLimit?: number;
  timeoutMs?: number;
  maxBodyBytes?: number;
}

export interface Routing {
  decide(target: RequestTarget, routeKey: string): Mode;
  shadow: Required<ShadowSettings>;
  /** The file names routes in `record` mode: then only those (and --record-routes) are recorded. */
  records?: boolean;
}

export const SHADOW_DEFAULTS: Required<ShadowSettings> = {
  writes: false, databaseIsCopy: false, concurrency: 2, queueLimit: 200, timeoutMs: 10_000, maxBodyBytes: 1024 * 1024,
};

/** WordPress's own namespaces: the PHP site answers them even where Understudy has a route. */
const CORE_NAMESPACE = /^(wp\/|wp-|oembed\/)/;

const ajv = new Ajv({ allErrors: true, strictSchema: true, strictRequired: false, strictTypes: false });
const validate = ajv.compile<RoutingFile>(routesSchema);

export function loadRouting(file: string | undefined, surface: Surface): Routing {
  if (!file) return createRouting({}, surface);
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`Routing file ${path.basename(file)}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return createRouting(parsed, surface, path.basename(file));
}

/** Validates a routing file against what Understudy can answer, and compiles its decisions. */
export function createRouting(file: unknown, surface: Surface, label = 'routing'): Routing {
  if (!validate(file)) {
    throw new Error(`${label} is not a valid routing file: ${(validate.errors ?? []).map((e) => `${e.instancePath || '(top)'} ${e.message}`).join('; ')}`);
  }
  const shadow = { ...SHADOW_DEFAULTS, ...file.shadow };
  if (shadow.writes && !shadow.databaseIsCopy) {
    throw new Error(`${label}: shadow.writes sends every write to Understudy as well; set shadow.databaseIsCopy to true to state that its database is a copy`);
  }
  checkServable(file, surface, label);
  const namespaces = Object.entries(file.namespaces ?? {}).map(([ns, mode]) => ({ ns: trimSlashes(ns), mode }))
    .sort((a, b) => b.ns.length - a.ns.length);
  const routes = Object.entries(file.routes ?? {}).map(([glob, mode]) => ({ pattern: routeGlob(glob), mode }));
  const ajax = Object.entries(file.ajax ?? {}).map(([glob, mode]) => ({ pattern: routeGlob(glob), mode }));
  const coreAjax = new AjaxRegistry();
  registerCoreAjaxActions(coreAjax);
  const ownNamespaces = surface.rest.namespaces.filter((ns) => !CORE_NAMESPACE.test(ns));

  const records = [file.namespaces, file.routes, file.ajax].some((section) => Object.values(section ?? {}).includes('record'));
  return {
    shadow,
    records,
    decide(target, routeKey) {
      if (target.kind === 'page') return 'pass';
      if (target.kind === 'ajax') {
        const own = Boolean(surface.ajax.get(target.action)) && !coreAjax.get(target.action);
        return ajax.find((a) => a.pattern.test(target.action))?.mode ?? (own ? 'serve' : 'pass');
      }
      // WordPress refuses a rest_route that is no string before any plugin runs; Understudy gives the same refusal.
      if (target.invalid) return 'serve';
      const byRoute = routes.find((r) => r.pattern.test(routeKey))?.mode;
      if (byRoute) return byRoute;
      const byNamespace = namespaces.find((n) => inNamespace(target.path, n.ns))?.mode;
      if (byNamespace) return byNamespace;
      return ownNamespaces.some((ns) => inNamespace(target.path, ns)) ? 'serve' : 'pass';
    },
  };
}

/** `serve` or `shadow` for something Understudy does not answer is a mistake worth stopping for. */
function checkServable(file: RoutingFile, surface: Surface, label: string): void {
  const answering = (mode: Mode) => mode === 'serve' || mode === 'shadow';
  const declared = surface.rest.all.map((r) => readableRoute(r.fullRoute));
  for (const [ns, mode] of Object.entries(file.namespaces ?? {})) {
    if (answering(mode) && !surface.rest.namespaces.includes(trimSlashes(ns))) throw new Error(`${label}: Understudy has no namespace "${ns}" to ${mode}`);
  }
  for (const [glob, mode] of Object.entries(file.routes ?? {})) {
    if (answering(mode) && !declared.some((route) => routeGlob(glob).test(route))) throw new Error(`${label}: Understudy has no route matching "${glob}" to ${mode}`);
  }
  for (const [action, mode] of Object.entries(file.ajax ?? {})) {
    if (answering(mode) && !action.includes('*') && !surface.ajax.get(action)) throw new Error(`${label}: Understudy has no admin-ajax action "${action}" to ${mode}`);
  }
}

function inNamespace(restPath: string, ns: string): boolean {
  const lower = restPath.toLowerCase();
  const prefix = `/${ns.toLowerCase()}`;
  return lower === prefix || lower.startsWith(`${prefix}/`);
}

function trimSlashes(text: string): string {
  return text.replace(/^\/+|\/+$/g, '');
}
