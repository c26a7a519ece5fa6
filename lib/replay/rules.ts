/**
 * Rules files: what a replay or shadow comparison ignores or normalises, validated against
 * schema/replay/rules.json and compiled once. A file starts from the WordPress defaults
 * (fixtures/replay/wordpress-rules.json) unless it says `"extends": "none"`; its lists are added to
 * the defaults', and `ignoreHeaders` takes names out of the compared set.
 */
import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import wordpressDefaults from '../../fixtures/replay/wordpress-rules.json';
import rulesSchema from '../../schema/replay/rules.json';
import type { CompareRules, VolatileRule } from './compare-rules';
import type { CredentialSubstitution } from './credentials';
import { compileJsonPath } from './json-path';
import { routeGlob } from './route-key';

/** A rules file as written (see schema/replay/rules.json for every field's meaning). */
export interface RulesFile {
  extends?: 'wordpress' | 'none';
  significantHeaders?: string[];
  ignoreHeaders?: string[];
  replace?: Array<{ from: string; to: string }>;
  volatile?: Array<{
    name?: string; header?: string; jsonPath?: string | string[]; body?: boolean; pattern: string; flags?: string;
    placeholder?: string; routes?: string[]; methods?: string[]; secret?: boolean;
  }>;
  unorderedLists?: Array<string | { jsonPath: string; routes?: string[] }>;
  credentials?: CredentialSubstitution[];
  exclude?: string[];
}

interface Scoped {
  routes?: RegExp[];
  methods?: string[];
}

/** Rules ready to use: per-exchange comparison rules come from `rulesFor`. */
export interface ReplayRules {
  significantHeaders: string[];
  replace: Array<[string, string]>;
  volatile: Array<VolatileRule & Scoped>;
  unorderedLists: Array<{ path: RegExp } & Scoped>;
  credentials: CredentialSubstitution[];
  exclude: RegExp[];
}

const ajv = new Ajv({ allErrors: true, strictSchema: true, strictRequired: false, strictTypes: false, allowUnionTypes: true });
const validate = ajv.compile<RulesFile>(rulesSchema);

/** Reads and compiles a rules file; without one, the WordPress defaults. Errors name the file. */
export function loadRules(file?: string): ReplayRules {
  if (!file) return compileRules({});
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`Rules file ${path.basename(file)}: ${err instanceof Error ? err.message : String(err)}`);
  }
  return compileRules(parsed, path.basename(file));
}

/** Validates one rules object and compiles it on top of its base (WordPress defaults or nothing). */
export function compileRules(file: unknown, label = 'rules'): ReplayRules {
  const own = checked(file, label);
  const layers = own.extends === 'none' ? [own] : [checked(wordpressDefaults, 'WordPress defaults'), own];
  const ignored = new Set(layers.flatMap((l) => l.ignoreHeaders ?? []).map((h) => h.toLowerCase()));
  const significant = new Set(layers.flatMap((l) => l.significantHeaders ?? []).map((h) => h.toLowerCase()));
  try {
    return {
      significantHeaders: [...significant].filter((h) => !ignored.has(h)),
      replace: layers.flatMap((l) => l.replace ?? []).map((r) => [r.from, r.to] as [string, string]),
      volatile: layers.flatMap((l) => l.volatile ?? []).map(compileVolatile),
      unorderedLists: layers.flatMap((l) => l.unorderedLists ?? []).map((u) => (typeof u === 'string'
        ? { path: compileJsonPath(u) }
        : { path: compileJsonPath(u.jsonPath), routes: u.routes?.map(routeGlob) })),
      credentials: layers.flatMap((l) => l.credentials ?? []),
      exclude: layers.flatMap((l) => l.exclude ?? []).map(routeGlob),
    };
  } catch (err) {
    throw new Error(`${label}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The comparison rules that apply to one request (rules scoped to other routes or methods left out). */
export function rulesFor(rules: ReplayRules, method: string, route: string, extraReplace: Array<[string, string]> = []): CompareRules {
  const applies = (s: Scoped) => (!s.routes || s.routes.some((r) => r.test(route))) && (!s.methods || s.methods.includes(method.toUpperCase()));
  return {
    significantHeaders: rules.significantHeaders,
    replace: [...rules.replace, ...extraReplace],
    volatile: rules.volatile.filter(applies),
    unorderedLists: rules.unorderedLists.filter(applies).map((u) => u.path),
  };
}

export function isExcluded(rules: ReplayRules, route: string): boolean {
  return rules.exclude.some((r) => r.test(route));
}

function checked(file: unknown, label: string): RulesFile {
  if (validate(file)) return file;
  const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '(top)'} ${e.message}`);
  throw new Error(`${label} is not a valid rules file: ${problems.join('; ')}`);
}

function compileVolatile(v: NonNullable<RulesFile['volatile']>[number]): VolatileRule & Scoped {
  const paths = v.jsonPath === undefined ? [] : Array.isArray(v.jsonPath) ? v.jsonPath : [v.jsonPath];
  const jsonPath = paths.length ? new RegExp(paths.map((p) => compileJsonPath(p).source).join('|')) : undefined;
  return {
    header: v.header?.toLowerCase(),
    jsonPath,
    body: v.body,
    pattern: new RegExp(v.pattern, v.flags),
    placeholder: v.placeholder ?? `{${v.name ?? 'volatile'}}`,
    secret: v.secret,
    routes: v.routes?.map(routeGlob),
    methods: v.methods?.map((m) => m.toUpperCase()),
  };
}
