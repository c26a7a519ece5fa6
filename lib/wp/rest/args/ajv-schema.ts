/**
 * Route args: the shared ajv instance (with WordPress's formats) and the translation of a WordPress
 * arg schema into the draft-07 schema ajv compiles, keeping only the keywords WordPress validates for
 * the types the schema allows. `origins` remembers which WordPress schema each translated node came
 * from, so that messages.ts can word an error from the schema as written.
 */
import Ajv from 'ajv';
import { isEmail, isHexColor, isIpAddress, isRestDate, isUuid } from '../../formatting';
import type { ArgSchema, ArgType } from './types';

export const ajv = new Ajv({
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
export const origins = new WeakMap<object, ArgSchema>();

/** The keywords WordPress validates, for the types the schema allows, as a draft-07 schema for ajv. */
export function toAjvSchema(schema: ArgSchema, where: string): Record<string, unknown> {
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
  if (has('object')) addObjectKeywords(out, schema, where);
  if (schema.enum !== undefined && schema.enum.length > 0) out.enum = [...schema.enum];
  // WordPress applies `format` to strings, or to anything when there is no type.
  if (schema.format !== undefined && (types === undefined || types.includes('string'))) out.format = schema.format;
  return out;
}

/** The object keywords of {@link toAjvSchema} (v3 `required` on properties, or v4 `required` on the object). */
function addObjectKeywords(out: Record<string, unknown>, schema: ArgSchema, where: string): void {
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

function mapValues<T, U>(record: Readonly<Record<string, T>>, fn: (value: T, key: string) => U): Record<string, U> {
  const out: Record<string, U> = {};
  for (const [k, v] of Object.entries(record)) out[k] = fn(v, k);
  return out;
}
