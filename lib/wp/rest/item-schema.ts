/**
 * WP: a controller's item schema as the source of its endpoints' args
 * (WP_REST_Controller::get_endpoint_args_for_item_schema(), rest_get_endpoint_args_for_schema()).
 */
import type { ArgSchema, ArgsSpec } from './args';

/**
 * Which endpoint the args are for: `create` (WP_REST_Server::CREATABLE, a POST that makes the item)
 * applies each property's `required` and `default`; `edit` (EDITABLE: POST, PUT, PATCH on an item that
 * exists) never requires a field nor fills one in.
 */
export type ItemSchemaMode = 'create' | 'edit';

/** WP: rest_get_allowed_schema_keywords() without `default` and `required`, in its order. */
const ARG_KEYWORDS = [
  'title', 'description', 'type', 'format', 'enum', 'items', 'properties', 'additionalProperties', 'patternProperties',
  'minProperties', 'maxProperties', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
  'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems', 'anyOf', 'oneOf',
] as const;

type Property = Readonly<Record<string, unknown>>;

/**
 * WP: get_endpoint_args_for_item_schema($method): one arg per property of the item schema, in the
 * schema's order, leaving out the `readonly` ones (a client cannot set them). Each arg holds, in this
 * order: for `create` only, the property's `default` (when not null) and `required: true` (when it is
 * truthy); then the property's schema keywords, in WordPress's keyword order (null ones left out);
 * then the property's `arg_options`, laid over them as PHP's array_merge() does (a key already there
 * keeps its place and takes the new value, a new key goes last), without their `required` and
 * `default` for `edit`.
 */
export function argsForItemSchema(schema: Property, mode: ItemSchemaMode): ArgsSpec {
  const args: Record<string, ArgSchema> = {};
  const properties = (schema.properties ?? {}) as Readonly<Record<string, Property>>;
  for (const [name, property] of Object.entries(properties)) {
    if (property.readonly) continue;
    const arg: Record<string, unknown> = {};
    if (mode === 'create' && property.default !== undefined && property.default !== null) arg.default = property.default;
    if (mode === 'create' && property.required) arg.required = true;
    for (const keyword of ARG_KEYWORDS) {
      if (property[keyword] !== undefined && property[keyword] !== null) arg[keyword] = property[keyword];
    }
    const options = (property.arg_options ?? {}) as Property;
    for (const [key, value] of Object.entries(options)) {
      if (mode === 'edit' && (key === 'required' || key === 'default')) continue;
      arg[key] = value;
    }
    args[name] = arg as ArgSchema;
  }
  return args;
}
