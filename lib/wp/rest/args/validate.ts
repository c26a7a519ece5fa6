/**
 * Route args: checking one request's params against a route's compiled args, as
 * WP_REST_Request::has_valid_params() and sanitize_params() do.
 */
import { WpError } from '../../errors';
import { CompiledArgs, checkValue } from './compile';
import type { ArgsSpec, ParamErrorDetail, ValidatedParams } from './types';

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
