/**
 * Route args: compiling a route's args once, at registration (one ajv validator per typed arg,
 * defaults checked and coerced), and checking one value against a compiled arg (coerce, validate,
 * translate the first error).
 */
import type { ValidateFunction } from 'ajv';
import { ajv, toAjvSchema } from './ajv-schema';
import { coerce } from './coerce';
import { firstError } from './first-error';
import { toWpError } from './messages';
import type { ArgSchema, ArgsSpec, ParamErrorDetail } from './types';

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

type Checked = { value: unknown; error?: undefined } | { value?: undefined; error: ParamErrorDetail };

/** Coerce then validate one arg's value. */
export function checkValue(arg: CompiledArg, raw: unknown): Checked {
  const value = coerce(raw, arg.schema);
  const validate = arg.validate as ValidateFunction;
  if (validate(value)) return { value };
  return { error: toWpError(firstError(validate.errors ?? [], value), arg.name) };
}
