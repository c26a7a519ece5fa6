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
 *
 * The modules: types, coercion, the ajv schema (formats come from ../../formatting), picking the
 * first error, WordPress's messages, compiling, validating and the index view.
 */
export type {
  ArgSchema,
  ArgSpecMap,
  ArgType,
  ArgsSpec,
  IndexArg,
  ParamErrorDetail,
  SchemaValue,
  TypedArgs,
  ValidatedParams,
} from './types';
export { coerce } from './coerce';
export { phpList, phpScalarString } from './php-strings';
export { CompiledArgs, compileArgs } from './compile';
export { validateArgs } from './validate';
export { argsForIndex } from './index-view';
