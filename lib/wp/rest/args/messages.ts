/**
 * Route args: an ajv error turned into WordPress's error code, message and data for the param
 * (rest_invalid_type, rest_out_of_bounds, rest_not_in_enum, …), worded as WordPress words them.
 */
import type { ErrorObject } from 'ajv';
import { phpJsonEncode } from '../../php/json';
import { origins } from './ajv-schema';
import { pointerSegments } from './first-error';
import { isScalar, numberFormat, phpIntString, phpList, phpScalarString } from './php-strings';
import type { ArgSchema, ParamErrorDetail } from './types';

/** WordPress's code, message and data for an ajv error on param `arg`. */
export function toWpError(err: ErrorObject, arg: string): ParamErrorDetail {
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
