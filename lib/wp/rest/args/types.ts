/**
 * Route args: the types. The JSON Schema subset WordPress understands (ArgSchema), a route's `args`
 * (ArgsSpec), the TypeScript types a validated request carries (SchemaValue, ValidatedParams), the
 * detail of one invalid param, and an arg as the namespace index shows it. Kept apart so that every
 * other args module (and the routes) can share them without pulling in ajv.
 */

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

declare const PARAMS: unique symbol;

/**
 * A route's args that also carry, as a type only, the params they validate (`A`): what the
 * endpoint's handler then sees as `req.params` (../route.ts). The type is the word of the builder
 * that made them (argsForOperation() callers with ParamsOf, typedArgs(), in ../item-schema.ts); an
 * endpoint whose args are a plain ArgsSpec sees Params, values of unknown type.
 */
export type TypedArgs<A> = ArgsSpec & { readonly [PARAMS]?: A };

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

export type IndexArg = Record<string, unknown> & { required: boolean };
