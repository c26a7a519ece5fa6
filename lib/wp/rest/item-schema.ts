/**
 * WP: a controller's item schema as the source of its endpoints' args
 * (WP_REST_Controller::get_endpoint_args_for_item_schema(), rest_get_endpoint_args_for_schema()) and
 * of what OPTIONS shows (get_public_item_schema()); and an operation's args built from item schemas
 * and shared definitions by `$ref`.
 */
import type { FromSchema, FromSchemaOptions, JSONSchema } from 'json-schema-to-ts';
import type { ArgSchema, ArgsSpec, TypedArgs } from './args';
import type { HttpMethod } from './route';
import { SchemaDocument, mergeRef, refTarget, resolveRefs } from './schema-refs';

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

/**
 * WP: get_public_item_schema(): the item schema as OPTIONS and `?context=help` show it, without the
 * `arg_options` of its properties. WordPress removes them from the top-level properties only; here
 * nested ones go too, because shared definitions (schema/support/common.ts) carry them wherever they
 * are used. `$id`, which only names a document for `$ref`s, goes as well, and so does `$schema`
 * below the top (an item schema `$ref`'d whole, such as a thread's messages, brings its own).
 */
export function publicItemSchema(schema: Property, top = true): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'arg_options' || key === '$id' || (key === '$schema' && !top)) continue;
    if ((key === 'properties' || key === 'patternProperties') && isSchema(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, s]) => [name, isSchema(s) ? publicItemSchema(s, false) : s]));
    } else if ((key === 'items' || key === 'additionalProperties') && isSchema(value)) {
      out[key] = publicItemSchema(value, false);
    } else {
      out[key] = value;
    }
  }
  return out;
}

/**
 * A route's `schema` (what OPTIONS shows): the item schema with its `$ref`s resolved among `documents`,
 * as publicItemSchema() shows it, made on first use and kept.
 */
export function routeSchema(schema: Property, documents: readonly SchemaDocument[] = []): () => Record<string, unknown> {
  let shown: Record<string, unknown> | undefined;
  return () => (shown ??= publicItemSchema(resolveRefs(schema, documents)));
}

/** The keywords an arg keeps: WordPress's schema keywords, and `default` and `required`. */
const ARG_KEYS: ReadonlySet<string> = new Set([...ARG_KEYWORDS, 'default', 'required']);

/**
 * One operation's args from its entries (name → schema, as in register_rest_route()'s `args`), each
 * in the order written, with its `$ref`s resolved among `documents` (./schema-refs.ts):
 * - an entry whose `$ref` names a property of an item schema (`ticket#/properties/status`) is that
 *   property's argument as argsForItemSchema() derives it for `mode` (a `readonly` property is none);
 * - any other `$ref` (a shared definition, `common#/$defs/id`) is taken as written, its `arg_options`
 *   laid over it;
 * - keywords written beside the `$ref` replace the target's (the operation's own description,
 *   `required`, `default`, a tighter bound).
 * Only arg keywords are kept (annotations such as `readonly` and `context` go).
 */
export function argsForOperation(
  entries: Readonly<Record<string, Property>>, documents: readonly SchemaDocument[], mode: ItemSchemaMode,
): ArgsSpec {
  const args: Record<string, ArgSchema> = {};
  for (const [name, entry] of Object.entries(entries)) {
    const own: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(entry)) own[key] = key === '$ref' ? value : resolveRefs(value, documents);
    const ref = own.$ref;
    args[name] = asArg(typeof ref === 'string' ? mergeRef(own, refArg(ref, documents, mode)) : own) as ArgSchema;
  }
  return args;
}

/**
 * Args written out in full (no `$ref`), e.g. `{ force: { type: 'boolean', default: false } } as const`,
 * typed by their schemas: the endpoint's handler sees them as ParamsOf() gives.
 */
export function typedArgs<const E extends Readonly<Record<string, Property>>>(entries: E): TypedArgs<ParamsOf<E, []>> {
  return argsForOperation(entries, [], 'edit');
}

/** The create-mode args an operation's edit-mode args carry, for an endpoint that creates (argsForMethods()). */
const CREATE_ARGS = Symbol('create args');

type OperationEntries = Readonly<Record<string, Readonly<Record<string, Property>>>>;

/**
 * Every operation's args (see argsForOperation()), typed as its handler sees them (ParamsOf(); `pathParams`
 * names the params the routes' URLs carry), in one call: `operations(ticketOperations, SUPPORT_SCHEMAS,
 * ['id'])`. The mode comes from the endpoint that declares them, at registration (argsForMethods()):
 * `create` for a POST endpoint, `edit` for any other. Say a mode with argsForOperation() instead.
 */
export function operations<const Ops extends OperationEntries, const Docs extends readonly SchemaDocument[], const Path extends string = never>(
  ops: Ops, documents: Docs, _pathParams: readonly Path[] = [],
): { [O in keyof Ops]: TypedArgs<ParamsOf<Ops[O], Docs, Path>> } {
  const built: Record<string, ArgsSpec> = {};
  for (const [name, entries] of Object.entries(ops)) {
    const edit = argsForOperation(entries, documents, 'edit');
    // Not enumerable: a copy made by spreading is its own args, not these.
    Object.defineProperty(edit, CREATE_ARGS, { value: argsForOperation(entries, documents, 'create') });
    built[name] = edit;
  }
  return built as { [O in keyof Ops]: TypedArgs<ParamsOf<Ops[O], Docs, Path>> };
}

/**
 * The args an endpoint serving `methods` validates with: those of operations() in the endpoint's mode
 * (WP_REST_Server::CREATABLE is POST alone: `create`; else `edit`), any other args as declared.
 */
export function argsForMethods(args: ArgsSpec, methods: readonly HttpMethod[]): ArgsSpec {
  const create = (args as { [CREATE_ARGS]?: ArgsSpec })[CREATE_ARGS];
  return create && methods.length === 1 && methods[0] === 'POST' ? create : args;
}

/** The params a handler sees for args declared with operations() or typedArgs(). */
export type ArgsParams<T> = T extends TypedArgs<infer A> ? A : never;

/** The argument a `$ref` of an operation entry stands for. */
function refArg(ref: string, documents: readonly SchemaDocument[], mode: ItemSchemaMode): Property {
  const property = /^(.*)\/properties\/([^/]+)$/.exec(ref);
  if (property) {
    const [, container, encoded] = property as unknown as [string, string, string];
    const name = encoded.replace(/~1/g, '/').replace(/~0/g, '~');
    const arg = argsForItemSchema(resolveRefs(refTarget(container, documents) as Property, documents), mode)[name];
    if (!arg) throw new Error(`$ref "${ref}": a readonly property is no argument`);
    return arg as Property;
  }
  return asArg(resolveRefs(refTarget(ref, documents) as Property, documents));
}

/** A schema as an arg: its arg keywords in its own order, then its `arg_options` as array_merge() lays them. */
function asArg(schema: Property): Record<string, unknown> {
  const arg: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) if (ARG_KEYS.has(key)) arg[key] = value;
  for (const [key, value] of Object.entries((schema.arg_options ?? {}) as Property)) arg[key] = value;
  return arg;
}

function isSchema(value: unknown): value is Property {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------------
// The params an operation's handler sees, inferred from its entries (json-schema-to-ts)
// ---------------------------------------------------------------------------------------------

/** What a `$ref` names among `Docs` (by `$id`, then a JSON Pointer), as a type. */
type RefTarget<Ref, Docs> = Ref extends `${infer Id}#/${infer Pointer}` ? Walk<DocumentById<Docs, Id>, Pointer> : DocumentById<Docs, Ref>;
type DocumentById<Docs, Id> = Docs extends readonly [infer First, ...infer Rest] ? (First extends { $id: Id } ? First : DocumentById<Rest, Id>) : never;
type Walk<S, Pointer> = Pointer extends `${infer Head}/${infer Rest}`
  ? (Head extends keyof S ? Walk<S[Head], Rest> : never)
  : Pointer extends keyof S ? S[Pointer] : never;

type Defaulted<S> = S extends { default: {} } ? true : S extends { arg_options: { default: {} } } ? true : false;
type Required<S> = S extends { required: true } ? true : S extends { arg_options: { required: true } } ? true : false;

/**
 * Whether a validated request always carries the param: it is in the URL, or its entry requires it
 * or gives it a default, or a shared definition it `$ref`s does. (What a `$ref` to an item property
 * requires or defaults depends on the mode, so only the entry's own word counts there.)
 */
type AlwaysPresent<Name, Entry, Docs, Path> = Name extends Path ? true
  : Required<Entry> extends true ? true
  : Defaulted<Entry> extends true ? true
  : Entry extends { $ref: infer Ref extends string }
    ? (Ref extends `${string}/properties/${string}` ? false : Required<RefTarget<Ref, Docs>> extends true ? true : Defaulted<RefTarget<Ref, Docs>>)
    : false;

/** The value of a validated param: json-schema-to-ts's FromSchema (WordPress's `required: true` is no JSON Schema). */
type ValueOf<Entry, Docs extends readonly SchemaDocument[]> = Omit<Entry, 'required'> extends infer S extends JSONSchema
  ? ({ references: [...Docs] } extends infer O extends FromSchemaOptions ? FromSchema<S, O> : never)
  : never;

/**
 * The params a handler sees once an operation's entries (see argsForOperation()) have validated the
 * request: each declared param with the type its schema gives, optional unless it is always present
 * (`Path` names the params the route's URL carries). `Docs` are the documents `$ref`s name.
 */
export type ParamsOf<Entries, Docs extends readonly SchemaDocument[], Path extends string = never> = Flat<
  { -readonly [K in keyof Entries as AlwaysPresent<K, Entries[K], Docs, Path> extends true ? K : never]: ValueOf<Entries[K], Docs> } &
  { -readonly [K in keyof Entries as AlwaysPresent<K, Entries[K], Docs, Path> extends true ? never : K]?: ValueOf<Entries[K], Docs> }
>;

type Flat<T> = { [K in keyof T]: T[K] } & {};
