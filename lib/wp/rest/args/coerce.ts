/**
 * Route args: coercion, the value as rest_sanitize_value_from_schema() would hand it over, when it is
 * valid (a query-string '7' is an integer, 'false' a boolean, 'a,b' an array, …). Done before ajv
 * validates, with ajv's own coercion off.
 */
import { isScalar, phpScalarString } from './php-strings';
import type { ArgSchema, ArgType } from './types';

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
