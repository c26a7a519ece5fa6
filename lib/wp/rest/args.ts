/**
 * WP: route arguments (register_rest_route()'s `args`) checked and cleaned as WordPress does for an
 * arg that declares a `type` and no callbacks: WP_REST_Request::has_valid_params() (required), then
 * sanitize_params() → rest_parse_request_arg() = rest_validate_value_from_schema() followed by
 * rest_sanitize_value_from_schema().
 *
 * How it is done here: each value is first coerced the way WordPress reads it (a query-string '7' is an
 * integer, 'false' a boolean, 'a,b' an array, …), then checked by an ajv validator compiled once per arg
 * when the route is compiled (coerceTypes off, allErrors on). Of ajv's errors, the one WordPress would
 * have met first walking the value is turned into WordPress's code and message.
 *
 * Decisions where WordPress is not one thing:
 * - Invalid params are reported in declaration order. (WordPress reports typed args in the order the
 *   request carries them, JSON body first; args with an explicit validate_callback in registration order.)
 * - An explicit JSON `null` is "missing" for a required arg; for an optional arg it is validated like
 *   any value, so it fails unless the type allows `null` (what rest_parse_request_arg() does; core
 *   controllers with an explicit validate_callback skip nulls instead).
 * - A `default` is validated and coerced when the route is compiled (an invalid default throws there);
 *   WordPress would instead report it on every request. A `null` default is no default (PHP isset()).
 * - `format` sanitizers (sanitize_text_field(), esc_url_raw(), …) are not applied: a valid string is
 *   returned as sent. `uri` has no validation in WordPress and none here.
 * - `anyOf` / `oneOf` are refused at compile time (their WordPress messages are not reproduced).
 * - An empty object (or `''` for an object arg) comes back as `{}`; PHP would hold an empty array,
 *   which it prints as `[]`.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { isIPv6 } from 'node:net';
import { WpError } from '../errors';
import { phpFloat, phpJsonEncode } from './php-json';

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

export type ArgType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'null';

/** The JSON Schema (draft-04 subset) WordPress understands, as used in route args and item schemas. */
export interface ArgSchema {
  type?: ArgType | readonly ArgType[];
  description?: string;
  title?: string;
  /** Route arg: applied when the param is absent (or JSON null). Never applied to nested properties. */
  default?: unknown;
  /** Route arg or v3 property: `true` = must be present. v4 object: the property names that must be present. */
  required?: boolean | readonly string[];
  enum?: readonly unknown[];
  /** Checked: date-time, email, ip, uuid, hex-color. Accepted without a check: uri, text-field, textarea-field. */
  format?: string;
  minimum?: number;
  maximum?: number;
  /** Draft-04: `true` makes `minimum` exclusive. */
  exclusiveMinimum?: boolean;
  /** Draft-04: `true` makes `maximum` exclusive. */
  exclusiveMaximum?: boolean;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  items?: ArgSchema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  properties?: Readonly<Record<string, ArgSchema>>;
  patternProperties?: Readonly<Record<string, ArgSchema>>;
  additionalProperties?: boolean | ArgSchema;
  minProperties?: number;
  maxProperties?: number;
  /** Item-schema annotations, ignored by validation. */
  context?: readonly string[];
  readonly?: boolean;
}

/** A route's `args`: param name → schema (+ `required`, `default`, `description`). */
export type ArgsSpec = Readonly<Record<string, ArgSchema>>;

/** Another name for {@link ArgsSpec}. */
export type ArgSpecMap = ArgsSpec;

type ValueOfType<T, S> = T extends 'string'
  ? string
  : T extends 'integer' | 'number'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'array'
          ? S extends { items: infer I }
            ? SchemaValue<I>[]
            : unknown[]
          : T extends 'object'
            ? Record<string, unknown>
            : unknown;

/** The TypeScript type of a value that passed `S`. */
export type SchemaValue<S> = S extends { enum: readonly (infer E)[] }
  ? E
  : S extends { type: readonly (infer T)[] }
    ? ValueOfType<T, S>
    : S extends { type: infer T }
      ? ValueOfType<T, S>
      : unknown;

type AlwaysPresent<S> = S extends { required: true } ? true : S extends { default: {} } ? true : false;

/** What validateArgs() returns for `A`: declared params typed (optional unless required or defaulted), others untouched. */
export type ValidatedParams<A extends ArgsSpec = ArgsSpec> = {
  -readonly [K in keyof A as AlwaysPresent<A[K]> extends true ? K : never]: SchemaValue<A[K]>;
} & {
  -readonly [K in keyof A as AlwaysPresent<A[K]> extends true ? never : K]?: SchemaValue<A[K]>;
} & Record<string, unknown>;

/** One entry of `details` in a `rest_invalid_param` error. */
export interface ParamErrorDetail {
  code: string;
  message: string;
  data: Record<string, unknown> | null;
}

interface CompiledArg {
  readonly name: string;
  readonly schema: ArgSchema;
  readonly required: boolean;
  readonly hasDefault: boolean;
  readonly defaultValue: unknown;
  /** Absent when the arg has no `type`: WordPress then neither validates nor sanitizes it. */
  readonly validate?: ValidateFunction;
}

/** The result of compileArgs(): keep it with the route; `A` only carries the param types. */
export class CompiledArgs<A extends ArgsSpec = ArgsSpec> {
  /** @internal */
  readonly list: readonly CompiledArg[];

  /** @internal */
  constructor(
    readonly args: A,
    list: readonly CompiledArg[],
  ) {
    this.list = list;
  }
}

// ---------------------------------------------------------------------------------------------
// Compiling
// ---------------------------------------------------------------------------------------------

const ajv = new Ajv({
  allErrors: true,
  verbose: true,
  coerceTypes: false,
  useDefaults: false,
  strictSchema: true,
  strictNumbers: true,
  strictTypes: false,
  strictTuples: false,
  strictRequired: false,
  allowUnionTypes: true,
  validateFormats: true,
});
ajv.addFormat('date-time', { type: 'string', validate: isRestDate });
ajv.addFormat('email', { type: 'string', validate: isEmail });
ajv.addFormat('ip', { type: 'string', validate: isIpAddress });
ajv.addFormat('uuid', { type: 'string', validate: isUuid });
ajv.addFormat('hex-color', { type: 'string', validate: isHexColor });
for (const unchecked of ['uri', 'text-field', 'textarea-field']) ajv.addFormat(unchecked, true);

const ARG_TYPES: readonly ArgType[] = ['array', 'object', 'string', 'number', 'integer', 'boolean', 'null'];

/** The WordPress schema each translated (ajv) schema node came from, for messages. */
const origins = new WeakMap<object, ArgSchema>();

/**
 * Compile a route's args once, at registration. Throws (a programming error, not a WpError) for an
 * unknown type or format, `anyOf`/`oneOf`, or a `default` its own schema refuses.
 */
export function compileArgs<const A extends ArgsSpec>(args: A): CompiledArgs<A> {
  const list: CompiledArg[] = [];
  for (const [name, schema] of Object.entries(args)) {
    const validate = schema.type === undefined ? undefined : ajv.compile(toAjvSchema(schema, name));
    const hasDefault = schema.default !== undefined && schema.default !== null;
    const arg: CompiledArg = { name, schema, required: schema.required === true, hasDefault, defaultValue: schema.default, validate };
    if (hasDefault && validate) {
      const checked = checkValue(arg, schema.default);
      if (checked.error) throw new Error(`Route arg "${name}": its default is invalid: ${checked.error.message}`);
      list.push({ ...arg, defaultValue: checked.value });
    } else {
      list.push(arg);
    }
  }
  return new CompiledArgs(args, list);
}

/** The keywords WordPress validates, for the types the schema allows, as a draft-07 schema for ajv. */
function toAjvSchema(schema: ArgSchema, where: string): Record<string, unknown> {
  const unsupported = (['anyOf', 'oneOf'] as const).find((k) => k in schema);
  if (unsupported) throw new Error(`Route arg schema at ${where}: "${unsupported}" is not supported`);
  if (schema.format !== undefined && !ajv.formats[schema.format]) throw new Error(`Route arg schema at ${where}: unknown format "${schema.format}"`);

  const out: Record<string, unknown> = {};
  origins.set(out, schema);
  const types = schema.type === undefined ? undefined : typeof schema.type === 'string' ? [schema.type] : [...schema.type];
  for (const t of types ?? []) {
    if (!ARG_TYPES.includes(t)) throw new Error(`Route arg schema at ${where}: unknown type "${t}"`);
  }
  const has = (...wanted: ArgType[]) => types !== undefined && wanted.some((t) => types.includes(t));
  if (types !== undefined) out.type = typeof schema.type === 'string' ? schema.type : types;

  if (has('number', 'integer')) {
    if (schema.multipleOf !== undefined) out.multipleOf = schema.multipleOf;
    // Draft-04 booleans, as WordPress reads them: exclusive* only matters next to minimum/maximum.
    if (schema.minimum !== undefined) out[schema.exclusiveMinimum ? 'exclusiveMinimum' : 'minimum'] = schema.minimum;
    if (schema.maximum !== undefined) out[schema.exclusiveMaximum ? 'exclusiveMaximum' : 'maximum'] = schema.maximum;
  }
  if (has('string')) {
    for (const k of ['minLength', 'maxLength', 'pattern'] as const) if (schema[k] !== undefined) out[k] = schema[k];
  }
  if (has('array')) {
    if (schema.items !== undefined) out.items = toAjvSchema(schema.items, `${where}.items`);
    for (const k of ['minItems', 'maxItems'] as const) if (schema[k] !== undefined) out[k] = schema[k];
    if (schema.uniqueItems) out.uniqueItems = true;
  }
  if (has('object')) {
    if (schema.properties !== undefined) {
      out.properties = mapValues(schema.properties, (s, k) => toAjvSchema(s, `${where}.${k}`));
      const v3 = Object.keys(schema.properties).filter((k) => schema.properties?.[k].required === true);
      if (!Array.isArray(schema.required) && v3.length > 0) out.required = v3;
    }
    if (Array.isArray(schema.required)) out.required = [...schema.required];
    if (schema.patternProperties !== undefined) {
      out.patternProperties = mapValues(schema.patternProperties, (s, k) => toAjvSchema(s, `${where}.${k}`));
    }
    if (schema.additionalProperties === false) out.additionalProperties = false;
    else if (typeof schema.additionalProperties === 'object') out.additionalProperties = toAjvSchema(schema.additionalProperties, `${where}.*`);
    for (const k of ['minProperties', 'maxProperties'] as const) if (schema[k] !== undefined) out[k] = schema[k];
  }
  if (schema.enum !== undefined && schema.enum.length > 0) out.enum = [...schema.enum];
  // WordPress applies `format` to strings, or to anything when there is no type.
  if (schema.format !== undefined && (types === undefined || types.includes('string'))) out.format = schema.format;
  return out;
}

function mapValues<T, U>(record: Readonly<Record<string, T>>, fn: (value: T, key: string) => U): Record<string, U> {
  const out: Record<string, U> = {};
  for (const [k, v] of Object.entries(record)) out[k] = fn(v, k);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Validating
// ---------------------------------------------------------------------------------------------

/**
 * WP: has_valid_params() + sanitize_params() for one request. `input` is the merged params (query,
 * body, URL); query-string values are strings, JSON values typed. Returns a new object: every input
 * key (undeclared ones untouched), declared params coerced, defaults added. Throws WpError 400
 * `rest_missing_callback_param` (checked first, all missing names) or `rest_invalid_param` (all
 * invalid params, each with its first error).
 */
export function validateArgs<A extends ArgsSpec>(compiled: CompiledArgs<A>, input: Readonly<Record<string, unknown>>): ValidatedParams<A> {
  const present = (name: string) => input[name] !== undefined && input[name] !== null;
  const missing = compiled.list.filter((arg) => arg.required && !arg.hasDefault && !present(arg.name)).map((arg) => arg.name);
  if (missing.length > 0) {
    throw new WpError('rest_missing_callback_param', `Missing parameter(s): ${missing.join(', ')}`, 400, { params: missing });
  }

  const out: Record<string, unknown> = { ...input };
  const messages: Record<string, string> = {};
  const details: Record<string, ParamErrorDetail> = {};
  for (const arg of compiled.list) {
    const value = input[arg.name];
    if (value === undefined) {
      if (arg.hasDefault) out[arg.name] = structuredClone(arg.defaultValue);
      continue;
    }
    if (!arg.validate) continue;
    const checked = checkValue(arg, value);
    if (checked.error) {
      messages[arg.name] = checked.error.message;
      details[arg.name] = checked.error;
    } else {
      out[arg.name] = checked.value === null && arg.hasDefault ? structuredClone(arg.defaultValue) : checked.value;
    }
  }
  const invalid = Object.keys(messages);
  if (invalid.length > 0) {
    throw new WpError('rest_invalid_param', `Invalid parameter(s): ${invalid.join(', ')}`, 400, { params: messages, details });
  }
  return out as ValidatedParams<A>;
}

type Checked = { value: unknown; error?: undefined } | { value?: undefined; error: ParamErrorDetail };

/** Coerce then validate one arg's value. */
function checkValue(arg: CompiledArg, raw: unknown): Checked {
  const value = coerce(raw, arg.schema);
  const validate = arg.validate as ValidateFunction;
  if (validate(value)) return { value };
  return { error: toWpError(firstError(validate.errors ?? [], value), arg.name) };
}

// ---------------------------------------------------------------------------------------------
// Coercion: the value as rest_sanitize_value_from_schema() would hand it over, when it is valid
// ---------------------------------------------------------------------------------------------

/** Coerce `value` to the type WordPress would pick for it; a value no type accepts is returned as is. */
export function coerce(value: unknown, schema: ArgSchema): unknown {
  const type = typeof schema.type === 'string' ? schema.type : schema.type === undefined ? undefined : bestType(value, schema.type);
  switch (type) {
    case 'integer':
      if (!isPhpNumeric(value)) return value;
      return isRestInteger(value) ? toInt(value) : Number(value);
    case 'number':
      return isPhpNumeric(value) ? Number(value) : value;
    case 'boolean':
      return isRestBoolean(value) ? sanitizeBoolean(value) : value;
    case 'array': {
      if (!isRestArray(value)) return value;
      const list = toList(value);
      return schema.items ? list.map((item) => coerce(item, schema.items as ArgSchema)) : list;
    }
    case 'object': {
      if (!isRestObject(value)) return value;
      const obj = toObject(value);
      for (const [key, v] of Object.entries(obj)) {
        const child = propertySchema(schema, key);
        if (child) obj[key] = coerce(v, child);
      }
      return obj;
    }
    default:
      return value;
  }
}

/** WP: rest_get_best_type_for_value(): the first declared type the value fits ('' prefers string). */
function bestType(value: unknown, types: readonly ArgType[]): ArgType | '' {
  if (value === '' && types.includes('string')) return 'string';
  return types.find((t) => TYPE_CHECKS[t](value)) ?? '';
}

const TYPE_CHECKS: Record<ArgType, (v: unknown) => boolean> = {
  array: (v) => isRestArray(v),
  object: (v) => isRestObject(v),
  integer: (v) => isRestInteger(v),
  number: (v) => isPhpNumeric(v),
  boolean: (v) => isRestBoolean(v),
  string: (v) => typeof v === 'string',
  null: (v) => v === null,
};

function propertySchema(schema: ArgSchema, key: string): ArgSchema | undefined {
  if (schema.properties && Object.hasOwn(schema.properties, key)) return schema.properties[key];
  for (const [pattern, child] of Object.entries(schema.patternProperties ?? {})) {
    if (patternRegExp(pattern).test(key)) return child;
  }
  return typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
}

const patternCache = new Map<string, RegExp>();

function patternRegExp(pattern: string): RegExp {
  let re = patternCache.get(pattern);
  if (!re) patternCache.set(pattern, (re = new RegExp(pattern, 'u')));
  return re;
}

/** PHP is_numeric() (PHP 8: surrounding whitespace allowed). */
const NUMERIC = /^[ \t\n\r\v\f]*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?[ \t\n\r\v\f]*$/;

function isPhpNumeric(v: unknown): v is number | string {
  return (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && NUMERIC.test(v));
}

/** WP: rest_is_integer(): numeric with no fraction ('1.0', '1e3' count). */
function isRestInteger(v: unknown): boolean {
  return isPhpNumeric(v) && Number.isInteger(Number(v));
}

function toInt(v: number | string): number {
  const n = Number(v);
  return n === 0 ? 0 : n;
}

/** WP: rest_is_boolean(). */
function isRestBoolean(v: unknown): boolean {
  if (typeof v === 'boolean') return true;
  if (typeof v === 'string') return ['false', 'true', '0', '1'].includes(v.toLowerCase());
  return v === 0 || v === 1;
}

/** WP: rest_sanitize_boolean() on a value rest_is_boolean() accepted. */
function sanitizeBoolean(v: unknown): boolean {
  if (typeof v === 'string') return !['false', '0'].includes(v.toLowerCase());
  return Boolean(v);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** WP: rest_is_array(): a list, an array with integer keys only, or any scalar (split by wp_parse_list()). */
function isRestArray(v: unknown): boolean {
  if (Array.isArray(v) || isScalar(v)) return true;
  return isPlainObject(v) && Object.keys(v).every((k) => /^(?:0|-?[1-9]\d*)$/.test(k));
}

function toList(v: unknown): unknown[] {
  if (Array.isArray(v)) return [...v];
  if (isScalar(v)) return phpScalarString(v).split(/[ \t\n\v\f\r,]+/).filter((s) => s !== '');
  return Object.values(v as Record<string, unknown>);
}

/** WP: rest_is_object(): '' or any PHP array (a JSON list too). */
function isRestObject(v: unknown): boolean {
  return v === '' || Array.isArray(v) || isPlainObject(v);
}

function toObject(v: unknown): Record<string, unknown> {
  if (v === '') return {};
  if (Array.isArray(v)) return Object.fromEntries(v.map((item, i) => [String(i), item]));
  return { ...(v as Record<string, unknown>) };
}

function isScalar(v: unknown): v is string | number | boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

// ---------------------------------------------------------------------------------------------
// Errors: ajv's errors → the one WordPress reports, in its words
// ---------------------------------------------------------------------------------------------

/**
 * The error WordPress meets first. It walks a value depth first (object properties and array items in
 * the value's order) and at each node checks: the type; required properties; the children (and
 * forbidden extra properties); multipleOf, then bounds, then (for `integer`) the fraction; minimum and maximum
 * lengths, items, properties; pattern and uniqueItems; enum; format.
 */
function firstError(errors: readonly ErrorObject[], root: unknown): ErrorObject {
  let best = errors[0];
  let bestRank = rank(best, root);
  for (const err of errors.slice(1)) {
    const r = rank(err, root);
    if (compareRanks(r, bestRank) < 0) [best, bestRank] = [err, r];
  }
  return best;
}

function rank(err: ErrorObject, root: unknown): number[] {
  const key: number[] = [];
  let data = root;
  for (const seg of pointerSegments(err.instancePath)) {
    key.push(2, childIndex(data, seg));
    data = (data as Record<string, unknown>)[seg];
  }
  const schema = err.parentSchema as Record<string, unknown>;
  switch (err.keyword) {
    case 'type':
      // rest_validate_integer_value_from_schema() checks number rules before the fraction.
      key.push(...(schema.type === 'integer' && typeof data === 'number' ? [3, 2] : [0]));
      break;
    case 'required':
      key.push(1, (schema.required as string[]).indexOf(err.params.missingProperty));
      break;
    case 'additionalProperties':
      key.push(2, childIndex(data, err.params.additionalProperty));
      break;
    case 'multipleOf':
      key.push(3, 0);
      break;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      key.push(3, 1);
      break;
    case 'minLength':
    case 'minItems':
    case 'minProperties':
      key.push(3);
      break;
    case 'maxLength':
    case 'maxItems':
    case 'maxProperties':
      key.push(4);
      break;
    case 'pattern':
    case 'uniqueItems':
      key.push(5);
      break;
    case 'enum':
      key.push(7);
      break;
    case 'format':
      key.push(8);
      break;
    default:
      key.push(9);
  }
  return key;
}

function compareRanks(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

function childIndex(data: unknown, key: string): number {
  return Array.isArray(data) ? Number(key) : Object.keys(data as object).indexOf(key);
}

function pointerSegments(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** WordPress's code, message and data for an ajv error on param `arg`. */
function toWpError(err: ErrorObject, arg: string): ParamErrorDetail {
  const param = arg + pointerSegments(err.instancePath).map((s) => `[${s}]`).join('');
  const schema = origins.get(err.parentSchema as object) ?? {};
  const fail = (code: string, message: string, data: Record<string, unknown> | null = null) => ({ code, message, data });
  const count = (n: number, one: string, many: string) => `${numberFormat(n)} ${n === 1 ? one : many}`;
  switch (err.keyword) {
    case 'type': {
      const types = typeof schema.type === 'string' ? schema.type : (schema.type ?? []).join(',');
      return fail('rest_invalid_type', `${param} is not of type ${types}.`, { param });
    }
    case 'required':
      return fail('rest_property_required', `${err.params.missingProperty} is a required property of ${param}.`);
    case 'additionalProperties':
      return fail('rest_additional_properties_forbidden', `${err.params.additionalProperty} is not a valid property of Object.`);
    case 'multipleOf':
      return fail('rest_invalid_multiple', `${param} must be a multiple of ${phpScalarString(schema.multipleOf ?? 0)}.`);
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return fail('rest_out_of_bounds', boundsMessage(param, schema));
    case 'minLength':
      return fail('rest_too_short', `${param} must be at least ${count(err.params.limit, 'character', 'characters')} long.`);
    case 'maxLength':
      return fail('rest_too_long', `${param} must be at most ${count(err.params.limit, 'character', 'characters')} long.`);
    case 'pattern':
      return fail('rest_invalid_pattern', `${param} does not match pattern ${schema.pattern}.`);
    case 'minItems':
      return fail('rest_too_few_items', `${param} must contain at least ${count(err.params.limit, 'item', 'items')}.`);
    case 'maxItems':
      return fail('rest_too_many_items', `${param} must contain at most ${count(err.params.limit, 'item', 'items')}.`);
    case 'uniqueItems':
      return fail('rest_duplicate_items', `${param} has duplicate items.`);
    case 'minProperties':
      return fail('rest_too_few_properties', `${param} must contain at least ${count(err.params.limit, 'property', 'properties')}.`);
    case 'maxProperties':
      return fail('rest_too_many_properties', `${param} must contain at most ${count(err.params.limit, 'property', 'properties')}.`);
    case 'enum':
      return fail('rest_not_in_enum', enumMessage(param, schema.enum ?? []));
    case 'format':
      return formatError(param, String(err.params.format));
    default:
      return fail('rest_invalid_param', `${param} is invalid.`);
  }
}

function boundsMessage(param: string, schema: ArgSchema): string {
  const min = schema.minimum === undefined ? undefined : phpIntString(schema.minimum);
  const max = schema.maximum === undefined ? undefined : phpIntString(schema.maximum);
  const side = (exclusive: boolean | undefined) => (exclusive ? 'exclusive' : 'inclusive');
  if (min !== undefined && max !== undefined) {
    return `${param} must be between ${min} (${side(schema.exclusiveMinimum)}) and ${max} (${side(schema.exclusiveMaximum)})`;
  }
  if (min !== undefined) return `${param} must be greater than ${schema.exclusiveMinimum ? '' : 'or equal to '}${min}`;
  return `${param} must be less than ${schema.exclusiveMaximum ? '' : 'or equal to '}${max}`;
}

function enumMessage(param: string, values: readonly unknown[]): string {
  const shown = values.map((v) => (isScalar(v) ? phpScalarString(v) : phpJsonEncode(v)));
  if (shown.length === 1) return `${param} is not ${shown[0]}.`;
  return `${param} is not one of ${phpList(shown)}.`;
}

function formatError(param: string, format: string): ParamErrorDetail {
  switch (format) {
    case 'hex-color':
      return { code: 'rest_invalid_hex_color', message: 'Invalid hex color.', data: null };
    case 'date-time':
      return { code: 'rest_invalid_date', message: 'Invalid date.', data: null };
    case 'email':
      return { code: 'rest_invalid_email', message: 'Invalid email address.', data: null };
    case 'ip':
      return { code: 'rest_invalid_ip', message: `${param} is not a valid IP address.`, data: null };
    default:
      return { code: 'rest_invalid_uuid', message: `${param} is not a valid UUID.`, data: null };
  }
}

/** wp_sprintf()'s %l: `a`, `a and b`, `a, b, and c`. */
export function phpList(items: readonly string[]): string {
  if (items.length <= 2) return items.join(' and ');
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`;
}

/** PHP's string conversion of a scalar: true → '1', false → '', floats with precision 14. */
export function phpScalarString(v: string | number | boolean): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? '1' : '';
  if (Number.isInteger(v) && Math.abs(v) < 2 ** 63) return BigInt(v).toString();
  if (!Number.isFinite(v)) return Number.isNaN(v) ? 'NAN' : v > 0 ? 'INF' : '-INF';
  return phpFloat(Number(v.toPrecision(14)), 'E', 14);
}

/** sprintf('%d', $n): the integer part. */
function phpIntString(n: number): string {
  return Number.isFinite(n) ? BigInt(Math.trunc(n)).toString() : '0';
}

/** number_format_i18n() in en_US: rounded, thousands separated by commas. */
function numberFormat(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

// ---------------------------------------------------------------------------------------------
// Formats, as WordPress checks them. PCRE's `$` also matches before a final "\n"; so do these.
// ---------------------------------------------------------------------------------------------

/** WP: rest_parse_date() !== false: the RFC 3339-ish shape, and a date strtotime() accepts. */
export function isRestDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-](\d{2})(?::(\d{2}))?)?\n?$/.exec(s);
  if (!m) return false;
  const [, , month, day, hour, minute, second, tzHour, tzMinute] = m.map(Number);
  return month >= 1 && month <= 12 && day <= 31 && hour <= 24 && minute <= 59 && second <= 60 && !(tzHour > 24) && !(tzMinute > 59);
}

/** WP: is_email(). */
export function isEmail(s: string): boolean {
  if (Buffer.byteLength(s) < 6) return false;
  const at = s.indexOf('@', 1);
  if (at < 0) return false;
  const local = s.slice(0, at);
  const domain = s.slice(at + 1);
  if (!/^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~.-]+\n?$/.test(local)) return false;
  if (/\.{2,}/.test(domain)) return false;
  if (phpTrim(domain, ' \t\n\r\0\x0B.') !== domain) return false;
  const subs = domain.split('.');
  if (subs.length < 2) return false;
  return subs.every((sub) => phpTrim(sub, ' \t\n\r\0\x0B-') === sub && /^[a-z0-9-]+\n?$/i.test(sub));
}

function phpTrim(s: string, chars: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && chars.includes(s[start])) start++;
  while (end > start && chars.includes(s[end - 1])) end--;
  return s.slice(start, end);
}

/** WP: rest_is_ip_address(): dotted IPv4 (leading zeros allowed) or IPv6. */
export function isIpAddress(s: string): boolean {
  return IPV4.test(s) || isIPv6(s);
}

const IPV4 = /^(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\n?$/;

/** WP: wp_is_uuid() (any version, lowercase hex only). */
export function isUuid(s: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\n?$/.test(s);
}

/** WP: rest_parse_hex_color(). */
export function isHexColor(s: string): boolean {
  return /^#(?:[A-Fa-f0-9]{3}){1,2}\n?$/.test(s);
}

// ---------------------------------------------------------------------------------------------
// The namespace index / OPTIONS view
// ---------------------------------------------------------------------------------------------

/** WP: rest_get_allowed_schema_keywords(). */
const INDEX_KEYWORDS = new Set([
  'title', 'description', 'default', 'type', 'format', 'enum', 'items', 'properties', 'additionalProperties',
  'patternProperties', 'minProperties', 'maxProperties', 'minimum', 'maximum', 'exclusiveMinimum',
  'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems',
  'anyOf', 'oneOf',
]);

export type IndexArg = Record<string, unknown> & { required: boolean };

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
