/**
 * Route args: the view of an endpoint's args in the namespace index and in OPTIONS responses.
 */
import { CompiledArgs } from './compile';
import type { ArgsSpec, IndexArg } from './types';

/** WP: rest_get_allowed_schema_keywords(). */
const INDEX_KEYWORDS = new Set([
  'title', 'description', 'default', 'type', 'format', 'enum', 'items', 'properties', 'additionalProperties',
  'patternProperties', 'minProperties', 'maxProperties', 'minimum', 'maximum', 'exclusiveMinimum',
  'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems',
  'anyOf', 'oneOf',
]);

/**
 * WP: the `args` of an endpoint in the namespace index and OPTIONS (WP_REST_Server::get_data_for_route()):
 * each arg's schema keywords in its own key order (nested schemas as written), then `required`.
 * With no args WordPress prints `"args":[]`, so this returns an empty array then.
 */
export function argsForIndex(args: ArgsSpec | CompiledArgs): Record<string, IndexArg> | [] {
  const spec = args instanceof CompiledArgs ? args.args : args;
  const names = Object.keys(spec);
  if (names.length === 0) return [];
  const out: Record<string, IndexArg> = {};
  for (const name of names) {
    const schema = spec[name] as Record<string, unknown>;
    const entry: Record<string, unknown> = {};
    for (const key of Object.keys(schema)) if (INDEX_KEYWORDS.has(key)) entry[key] = schema[key];
    const required = schema.required;
    entry.required = Array.isArray(required) ? required.length > 0 : Boolean(required);
    out[name] = entry as IndexArg;
  }
  return out;
}
