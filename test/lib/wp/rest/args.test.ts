import assert from 'node:assert/strict';
import fs from 'node:fs';
import Ajv from 'ajv';
import { WpError } from '../../../../lib/wp/errors';
import { ArgSchema, ArgsSpec, argsForIndex, compileArgs, validateArgs } from '../../../../lib/wp/rest/args';
import { phpJsonEncode } from '../../../../lib/wp/php/json';
import { oracleFile } from '../../../harness/oracle-files';

interface Exchange {
  name: string;
  response: { status: number; body: string | null };
}

const TRAFFIC = oracleFile('wp-core-traffic.json');
const traffic: Exchange[] = JSON.parse(fs.readFileSync(TRAFFIC, 'utf8'));

function capturedBody(name: string): string {
  const found = traffic.find((e) => e.name === name);
  assert.ok(found?.response.body, `exchange "${name}" with a body is in the traffic file`);
  return found.response.body;
}

/** The WpError validateArgs() throws for `input` against `args`. */
function refusal(args: ArgsSpec, input: Record<string, unknown>): WpError {
  const compiled = compileArgs(args);
  try {
    validateArgs(compiled, input);
  } catch (err) {
    assert.ok(err instanceof WpError, `expected a WpError, got ${String(err)}`);
    return err;
  }
  assert.fail(`expected ${JSON.stringify(input)} to be refused`);
}

/** The one invalid param's `details` entry for `value` against `schema` (param name `x`). */
function detailFor(schema: ArgSchema, value: unknown): { code: string; message: string; data: unknown } {
  const err = refusal({ x: schema }, { x: value });
  assert.equal(err.code, 'rest_invalid_param');
  const details = err.data.details as Record<string, { code: string; message: string; data: unknown }>;
  const params = err.data.params as Record<string, string>;
  assert.deepEqual(Object.keys(details), ['x']);
  assert.equal(params.x, details.x.message, 'params[x] is the message of details[x]');
  return details.x;
}

function accepted(schema: ArgSchema, value: unknown): unknown {
  return validateArgs(compileArgs({ x: schema }), { x: value }).x;
}

const show = (v: unknown) => (v === undefined ? 'undefined' : JSON.stringify(v));

describe('route args', () => {
  describe('the captured per_page=1000 refusal', () => {
    it('is reproduced byte for byte', () => {
      const err = refusal({ per_page: { type: 'integer', minimum: 1, maximum: 100, default: 10 } }, { per_page: '1000' });
      assert.equal(err.status, 400);
      assert.equal(phpJsonEncode(err.toResponseBody()), capturedBody('posts?per_page=1000 (invalid param)'));
    });
  });

  describe('coercion (as WordPress reads query strings and JSON)', () => {
    const accepts: [string, ArgSchema, unknown, unknown][] = [
      ['boolean', { type: 'boolean' }, true, true],
      ['boolean', { type: 'boolean' }, false, false],
      ['boolean', { type: 'boolean' }, 'true', true],
      ['boolean', { type: 'boolean' }, 'TRUE', true],
      ['boolean', { type: 'boolean' }, 'False', false],
      ['boolean', { type: 'boolean' }, '1', true],
      ['boolean', { type: 'boolean' }, '0', false],
      ['boolean', { type: 'boolean' }, 1, true],
      ['boolean', { type: 'boolean' }, 0, false],
      ['integer', { type: 'integer' }, '7', 7],
      ['integer', { type: 'integer' }, '007', 7],
      ['integer', { type: 'integer' }, '1.0', 1],
      ['integer', { type: 'integer' }, '1e3', 1000],
      ['integer', { type: 'integer' }, '-3', -3],
      ['integer', { type: 'integer' }, ' 7', 7],
      ['integer', { type: 'integer' }, '-0', 0],
      ['integer', { type: 'integer' }, 42, 42],
      ['number', { type: 'number' }, '1.5', 1.5],
      ['number', { type: 'number' }, '.5', 0.5],
      ['number', { type: 'number' }, '7', 7],
      ['number', { type: 'number' }, '-2e2', -200],
      ['number', { type: 'number' }, 2.5, 2.5],
      ['string', { type: 'string' }, 'abc', 'abc'],
      ['string', { type: 'string' }, '', ''],
      ['string', { type: 'string' }, '5', '5'],
      ['array (split on commas and spaces)', { type: 'array', items: { type: 'integer' } }, '1,2', [1, 2]],
      ['array (split on commas and spaces)', { type: 'array', items: { type: 'integer' } }, '1 ,, 2\t3', [1, 2, 3]],
      ['array (empty string is empty)', { type: 'array', items: { type: 'integer' } }, '', []],
      ['array (a list)', { type: 'array', items: { type: 'integer' } }, ['1', '02'], [1, 2]],
      ['array (a scalar number)', { type: 'array', items: { type: 'integer' } }, 5, [5]],
      ['array (integer keys)', { type: 'array', items: { type: 'integer' } }, { 0: '1', 1: '2' }, [1, 2]],
      ['array (strings)', { type: 'array', items: { type: 'string' } }, 'a, b', ['a', 'b']],
      ['array (no items schema)', { type: 'array' }, 'a,1', ['a', '1']],
      ['object', { type: 'object', properties: { a: { type: 'integer' } } }, { a: '1', b: '2' }, { a: 1, b: '2' }],
      ['object (empty string)', { type: 'object' }, '', {}],
      ['object (a JSON list)', { type: 'object' }, [], {}],
      ['object (additionalProperties schema)', { type: 'object', additionalProperties: { type: 'boolean' } }, { a: 'false' }, { a: false }],
      ['object (patternProperties)', { type: 'object', patternProperties: { '^n_': { type: 'number' } } }, { n_a: '2.5', s: '2.5' }, { n_a: 2.5, s: '2.5' }],
      ['[integer, string] picks integer', { type: ['integer', 'string'] }, '5', 5],
      ['[integer, string] falls back to string', { type: ['integer', 'string'] }, 'abc', 'abc'],
      ['[integer, string] keeps "" a string', { type: ['integer', 'string'] }, '', ''],
      ['[string, integer] picks string', { type: ['string', 'integer'] }, '5', '5'],
      ['[boolean, integer] picks boolean', { type: ['boolean', 'integer'] }, '1', true],
      ['[array, string] picks array', { type: ['array', 'string'] }, 'a,b', ['a', 'b']],
      ['[integer, null] takes null', { type: ['integer', 'null'] }, null, null],
      ['null', { type: 'null' }, null, null],
      ['no type: untouched, unchecked', {}, 'anything', 'anything'],
    ];
    for (const [what, schema, input, expected] of accepts) {
      it(`${what}: ${show(input)} → ${show(expected)}`, () => assert.deepEqual(accepted(schema, input), expected));
    }

    const refuses: [string, ArgSchema, unknown, string][] = [
      ['boolean', { type: 'boolean' }, 'yes', 'x is not of type boolean.'],
      ['boolean', { type: 'boolean' }, '', 'x is not of type boolean.'],
      ['boolean', { type: 'boolean' }, 2, 'x is not of type boolean.'],
      ['integer', { type: 'integer' }, '1.5', 'x is not of type integer.'],
      ['integer', { type: 'integer' }, 'abc', 'x is not of type integer.'],
      ['integer', { type: 'integer' }, '', 'x is not of type integer.'],
      ['integer', { type: 'integer' }, '0x1A', 'x is not of type integer.'],
      ['integer', { type: 'integer' }, true, 'x is not of type integer.'],
      ['integer', { type: 'integer' }, 1.5, 'x is not of type integer.'],
      ['number', { type: 'number' }, 'abc', 'x is not of type number.'],
      ['number', { type: 'number' }, false, 'x is not of type number.'],
      ['string (a JSON number is not a string)', { type: 'string' }, 5, 'x is not of type string.'],
      ['string', { type: 'string' }, true, 'x is not of type string.'],
      ['string', { type: 'string' }, ['a'], 'x is not of type string.'],
      ['array', { type: 'array' }, { a: 1 }, 'x is not of type array.'],
      ['array items', { type: 'array', items: { type: 'integer' } }, 'a,b', 'x[0] is not of type integer.'],
      ['object', { type: 'object' }, 'x', 'x is not of type object.'],
      ['object', { type: 'object' }, 5, 'x is not of type object.'],
      ['type list', { type: ['integer', 'null'] }, 'x', 'x is not of type integer,null.'],
      ['type list', { type: ['integer', 'boolean'] }, 1.5, 'x is not of type integer,boolean.'],
      ['null', { type: 'null' }, '', 'x is not of type null.'],
      ['optional arg, explicit JSON null', { type: 'string' }, null, 'x is not of type string.'],
    ];
    for (const [what, schema, input, message] of refuses) {
      it(`${what}: refuses ${show(input)}`, () => {
        const name = /^(x(?:\[\w+\])*)/.exec(message)?.[1] ?? 'x';
        assert.deepEqual(detailFor(schema, input), { code: 'rest_invalid_type', message, data: { param: name } });
      });
    }
  });

  describe('error codes and messages', () => {
    const cases: [string, ArgSchema, unknown, string, string][] = [
      ['enum of three', { type: 'string', enum: ['view', 'embed', 'edit'] }, 'all', 'rest_not_in_enum', 'x is not one of view, embed, and edit.'],
      ['enum of two', { type: 'string', enum: ['asc', 'desc'] }, 'up', 'rest_not_in_enum', 'x is not one of asc and desc.'],
      ['enum of one', { type: 'string', enum: ['only'] }, 'other', 'rest_not_in_enum', 'x is not only.'],
      ['enum of integers, compared after coercion', { type: 'integer', enum: [1, 2, 3] }, '4', 'rest_not_in_enum', 'x is not one of 1, 2, and 3.'],
      ['enum shows booleans as PHP does', { type: 'boolean', enum: [true] }, 'false', 'rest_not_in_enum', 'x is not 1.'],
      ['enum shows non-scalars as JSON', { type: ['array', 'null'], enum: [null, ['a/b']] }, 'c', 'rest_not_in_enum', 'x is not one of null and ["a\\/b"].'],
      ['minimum', { type: 'integer', minimum: 1 }, '0', 'rest_out_of_bounds', 'x must be greater than or equal to 1'],
      ['exclusive minimum', { type: 'integer', minimum: 1, exclusiveMinimum: true }, '1', 'rest_out_of_bounds', 'x must be greater than 1'],
      ['maximum', { type: 'number', maximum: 10 }, '10.5', 'rest_out_of_bounds', 'x must be less than or equal to 10'],
      ['exclusive maximum', { type: 'number', maximum: 10, exclusiveMaximum: true }, 10, 'rest_out_of_bounds', 'x must be less than 10'],
      ['both, inclusive', { type: 'integer', minimum: 1, maximum: 100 }, '0', 'rest_out_of_bounds', 'x must be between 1 (inclusive) and 100 (inclusive)'],
      ['both, exclusive', { type: 'integer', minimum: 1, maximum: 5, exclusiveMinimum: true, exclusiveMaximum: true }, '5', 'rest_out_of_bounds', 'x must be between 1 (exclusive) and 5 (exclusive)'],
      ['exclusive min, inclusive max', { type: 'integer', minimum: 1, maximum: 5, exclusiveMinimum: true }, '1', 'rest_out_of_bounds', 'x must be between 1 (exclusive) and 5 (inclusive)'],
      ['inclusive min, exclusive max', { type: 'integer', minimum: 1, maximum: 5, exclusiveMaximum: true }, '5', 'rest_out_of_bounds', 'x must be between 1 (inclusive) and 5 (exclusive)'],
      ['bounds are printed with %d', { type: 'number', minimum: 0.5 }, '0.25', 'rest_out_of_bounds', 'x must be greater than or equal to 0'],
      ['multipleOf', { type: 'integer', multipleOf: 5 }, '7', 'rest_invalid_multiple', 'x must be a multiple of 5.'],
      ['multipleOf a float', { type: 'number', multipleOf: 0.5 }, '0.3', 'rest_invalid_multiple', 'x must be a multiple of 0.5.'],
      ['minLength 1', { type: 'string', minLength: 1 }, '', 'rest_too_short', 'x must be at least 1 character long.'],
      ['minLength 3', { type: 'string', minLength: 3 }, 'ab', 'rest_too_short', 'x must be at least 3 characters long.'],
      ['minLength counts characters, not bytes', { type: 'string', minLength: 3 }, 'é😀', 'rest_too_short', 'x must be at least 3 characters long.'],
      ['maxLength 1', { type: 'string', maxLength: 1 }, 'ab', 'rest_too_long', 'x must be at most 1 character long.'],
      ['maxLength 1000', { type: 'string', maxLength: 1000 }, 'a'.repeat(1001), 'rest_too_long', 'x must be at most 1,000 characters long.'],
      ['pattern', { type: 'string', pattern: '^[a-z]+$' }, 'A1', 'rest_invalid_pattern', 'x does not match pattern ^[a-z]+$.'],
      ['email', { type: 'string', format: 'email' }, 'not-an-email', 'rest_invalid_email', 'Invalid email address.'],
      ['email with a bad domain', { type: 'string', format: 'email' }, 'me@-bad.example', 'rest_invalid_email', 'Invalid email address.'],
      ['date-time', { type: 'string', format: 'date-time' }, '2024-01-02', 'rest_invalid_date', 'Invalid date.'],
      ['date-time with month 13', { type: 'string', format: 'date-time' }, '2024-13-02T00:00:00', 'rest_invalid_date', 'Invalid date.'],
      ['uuid (lowercase only)', { type: 'string', format: 'uuid' }, 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11', 'rest_invalid_uuid', 'x is not a valid UUID.'],
      ['ip', { type: 'string', format: 'ip' }, '300.1.1.1', 'rest_invalid_ip', 'x is not a valid IP address.'],
      ['hex-color', { type: 'string', format: 'hex-color' }, '#abz', 'rest_invalid_hex_color', 'Invalid hex color.'],
      ['minItems 1', { type: 'array', minItems: 1 }, [], 'rest_too_few_items', 'x must contain at least 1 item.'],
      ['minItems 2', { type: 'array', minItems: 2 }, 'a', 'rest_too_few_items', 'x must contain at least 2 items.'],
      ['maxItems 1', { type: 'array', maxItems: 1 }, 'a,b', 'rest_too_many_items', 'x must contain at most 1 item.'],
      ['maxItems 2', { type: 'array', maxItems: 2 }, 'a,b,c', 'rest_too_many_items', 'x must contain at most 2 items.'],
      ['uniqueItems', { type: 'array', uniqueItems: true }, 'a,b,a', 'rest_duplicate_items', 'x has duplicate items.'],
      ['uniqueItems after coercion', { type: 'array', items: { type: 'integer' }, uniqueItems: true }, ['1', '01'], 'rest_duplicate_items', 'x has duplicate items.'],
      ['required property (v4 list)', { type: 'object', required: ['a'] }, { b: 1 }, 'rest_property_required', 'a is a required property of x.'],
      ['required property (v3 flag)', { type: 'object', properties: { a: { type: 'string', required: true } } }, {}, 'rest_property_required', 'a is a required property of x.'],
      ['additionalProperties false', { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false }, { a: 'x', z: 1 }, 'rest_additional_properties_forbidden', 'z is not a valid property of Object.'],
      ['minProperties 1', { type: 'object', minProperties: 1 }, {}, 'rest_too_few_properties', 'x must contain at least 1 property.'],
      ['minProperties 2', { type: 'object', minProperties: 2 }, { a: 1 }, 'rest_too_few_properties', 'x must contain at least 2 properties.'],
      ['maxProperties 1', { type: 'object', maxProperties: 1 }, { a: 1, b: 2 }, 'rest_too_many_properties', 'x must contain at most 1 property.'],
    ];
    for (const [what, schema, input, code, message] of cases) {
      it(`${what}: ${code} "${message}"`, () => assert.deepEqual(detailFor(schema, input), { code, message, data: null }));
    }

    const valid: [string, ArgSchema, unknown][] = [
      ['email', { type: 'string', format: 'email' }, 'agent1@example.com'],
      ['date-time with zone', { type: 'string', format: 'date-time' }, '2024-01-02T03:04:05.123+02:00'],
      ['date-time without zone', { type: 'string', format: 'date-time' }, '2024-01-02 03:04:05'],
      ['uuid', { type: 'string', format: 'uuid' }, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'],
      ['ipv4 with leading zeros', { type: 'string', format: 'ip' }, '010.001.1.1'],
      ['ipv6', { type: 'string', format: 'ip' }, '2001:db8::1'],
      ['hex-color', { type: 'string', format: 'hex-color' }, '#A0f'],
      ['uri is not checked', { type: 'string', format: 'uri' }, 'not a url'],
      ['format on a number is ignored', { type: ['integer', 'string'], format: 'email' }, '5'],
      ['inclusive bound itself', { type: 'integer', minimum: 1, maximum: 100 }, '100'],
    ];
    for (const [what, schema, input] of valid) {
      it(`accepts ${what}: ${show(input)}`, () => assert.doesNotThrow(() => accepted(schema, input)));
    }
  });

  describe('which error WordPress reports first', () => {
    it('bounds before the fraction for an integer', () => {
      const schema: ArgSchema = { type: 'integer', minimum: 1, maximum: 100 };
      assert.equal(detailFor(schema, '1000.5').code, 'rest_out_of_bounds');
      assert.equal(detailFor(schema, '50.5').code, 'rest_invalid_type');
    });

    it('multipleOf before bounds', () => {
      assert.equal(detailFor({ type: 'integer', multipleOf: 5, maximum: 10 }, '12').code, 'rest_invalid_multiple');
    });

    it('type-specific rules before enum, enum before format', () => {
      assert.equal(detailFor({ type: 'integer', minimum: 5, enum: [1, 2] }, '3').code, 'rest_out_of_bounds');
      assert.equal(detailFor({ type: 'string', enum: ['a@b.example'], format: 'email' }, 'zz').code, 'rest_not_in_enum');
    });

    it('minLength before maxLength before pattern', () => {
      assert.equal(detailFor({ type: 'string', minLength: 5, pattern: '^\\d+$' }, 'ab').code, 'rest_too_short');
      assert.equal(detailFor({ type: 'string', maxLength: 1, pattern: '^\\d+$' }, 'ab').code, 'rest_too_long');
    });

    it('array items before minItems, and the first bad item', () => {
      assert.deepEqual(detailFor({ type: 'array', items: { type: 'integer' }, minItems: 5 }, '1,x,y'), {
        code: 'rest_invalid_type',
        message: 'x[1] is not of type integer.',
        data: { param: 'x[1]' },
      });
    });

    it('required properties before property values, then properties in the value order', () => {
      const schema: ArgSchema = {
        type: 'object',
        properties: { a: { type: 'integer' }, b: { type: 'integer' }, c: { type: 'string' } },
        required: ['c'],
        additionalProperties: false,
      };
      assert.equal(detailFor(schema, { b: 'x', a: 'y' }).code, 'rest_property_required');
      assert.equal(detailFor(schema, { c: '', b: 'x', a: 'y' }).message, 'x[b] is not of type integer.');
      assert.equal(detailFor(schema, { c: '', z: 1, a: 'y' }).message, 'z is not a valid property of Object.');
    });

    it('names nested values param[key][index]', () => {
      const schema: ArgSchema = { type: 'object', properties: { list: { type: 'array', items: { type: 'string', maxLength: 2 } } } };
      assert.deepEqual(detailFor(schema, { list: ['ok', 'long'] }), {
        code: 'rest_too_long',
        message: 'x[list][1] must be at most 2 characters long.',
        data: null,
      });
    });
  });

  describe('missing and invalid params', () => {
    const args = {
      a: { type: 'integer', required: true },
      b: { type: 'string', required: true },
      c: { type: 'integer', maximum: 3 },
      d: { type: 'boolean' },
    } as const;

    it('refuses absent required params with rest_missing_callback_param, listing all', () => {
      const err = refusal(args, {});
      assert.equal(err.code, 'rest_missing_callback_param');
      assert.equal(err.message, 'Missing parameter(s): a, b');
      assert.equal(err.status, 400);
      assert.deepEqual(err.toResponseBody(), {
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): a, b',
        data: { status: 400, params: ['a', 'b'] },
      });
    });

    it('counts a JSON null as missing', () => {
      assert.deepEqual(refusal(args, { a: null, b: 'x' }).data.params, ['a']);
    });

    it('reports missing params before any invalid one', () => {
      assert.equal(refusal(args, { a: 'nope', c: '99' }).code, 'rest_missing_callback_param');
    });

    it('reports every invalid param, in declaration order, with params and details', () => {
      const err = refusal(args, { d: 'maybe', c: '9', b: 5, a: '1' });
      assert.equal(err.code, 'rest_invalid_param');
      assert.equal(err.message, 'Invalid parameter(s): b, c, d');
      assert.equal(
        phpJsonEncode(err.toResponseBody()),
        '{"code":"rest_invalid_param","message":"Invalid parameter(s): b, c, d","data":{"status":400,' +
          '"params":{"b":"b is not of type string.","c":"c must be less than or equal to 3","d":"d is not of type boolean."},' +
          '"details":{"b":{"code":"rest_invalid_type","message":"b is not of type string.","data":{"param":"b"}},' +
          '"c":{"code":"rest_out_of_bounds","message":"c must be less than or equal to 3","data":null},' +
          '"d":{"code":"rest_invalid_type","message":"d is not of type boolean.","data":{"param":"d"}}}}}',
      );
    });

    it('returns coerced params and passes undeclared ones through untouched', () => {
      const params = validateArgs(compileArgs(args), { a: '007', b: 'x', d: 'FALSE', _fields: 'id,name', extra: ['1'] });
      assert.deepEqual(params, { a: 7, b: 'x', d: false, _fields: 'id,name', extra: ['1'] });
    });

    it('does not touch the input object', () => {
      const input = { a: '1', b: 'x' };
      validateArgs(compileArgs(args), input);
      assert.deepEqual(input, { a: '1', b: 'x' });
    });
  });

  describe('defaults', () => {
    it('applies a default when the param is absent, coerced by its schema', () => {
      const compiled = compileArgs({ per_page: { type: 'integer', default: '10' }, order: { type: 'string', default: 'desc' } });
      assert.deepEqual(validateArgs(compiled, {}), { per_page: 10, order: 'desc' });
      assert.deepEqual(validateArgs(compiled, { per_page: '5' }), { per_page: 5, order: 'desc' });
    });

    it('a required param with a default is never missing', () => {
      assert.deepEqual(validateArgs(compileArgs({ force: { type: 'boolean', required: true, default: false } }), {}), { force: false });
    });

    it('a null default is no default (PHP isset)', () => {
      assert.deepEqual(validateArgs(compileArgs({ a: { type: ['string', 'null'], default: null } }), {}), {});
    });

    it('an explicit null allowed by the type falls back to the default', () => {
      assert.deepEqual(validateArgs(compileArgs({ a: { type: ['string', 'null'], default: 'd' } }), { a: null }), { a: 'd' });
    });

    it('hands out a fresh copy of an object default each time', () => {
      const compiled = compileArgs({ tags: { type: 'array', items: { type: 'string' }, default: ['a'] } });
      (validateArgs(compiled, {}).tags as string[]).push('mutated');
      assert.deepEqual(validateArgs(compiled, {}).tags, ['a']);
    });

    it('refuses an invalid default when the route is compiled', () => {
      assert.throws(() => compileArgs({ n: { type: 'integer', maximum: 3, default: 10 } }), /default is invalid/);
    });
  });

  describe('compiling', () => {
    it('compiles ajv validators at registration only, never per request', () => {
      const compile = Ajv.prototype.compile;
      let calls = 0;
      Ajv.prototype.compile = function (this: Ajv, ...a: Parameters<Ajv['compile']>) {
        calls++;
        return compile.apply(this, a);
      } as Ajv['compile'];
      try {
        const compiled = compileArgs({ a: { type: 'integer' }, b: { type: 'array', items: { type: 'string' } } });
        const atRegistration = calls;
        assert.equal(atRegistration, 2);
        for (let i = 0; i < 5; i++) validateArgs(compiled, { a: String(i), b: 'x,y' });
        assert.throws(() => validateArgs(compiled, { a: 'bad' }));
        assert.equal(calls, atRegistration);
      } finally {
        Ajv.prototype.compile = compile;
      }
    });

    it('refuses anyOf/oneOf, unknown formats and unknown types', () => {
      assert.throws(() => compileArgs({ a: { type: 'string', anyOf: [] } as ArgSchema }), /anyOf/);
      assert.throws(() => compileArgs({ a: { type: 'string', format: 'zip-code' } }), /unknown format/);
      assert.throws(() => compileArgs({ a: { type: 'text' as 'string' } }), /unknown type/);
    });

    it('types the validated params', () => {
      const compiled = compileArgs({
        id: { type: 'integer', required: true },
        page: { type: 'integer', default: 1 },
        status: { type: 'string', enum: ['open', 'closed'] },
        tags: { type: 'array', items: { type: 'string' } },
      });
      const params = validateArgs(compiled, { id: '3', status: 'open' });
      const id: number = params.id;
      const page: number = params.page;
      const status: 'open' | 'closed' | undefined = params.status;
      const tags: string[] | undefined = params.tags;
      // @ts-expect-error an optional param may be absent
      const notAlways: string = params.status;
      assert.deepEqual([id, page, status, tags, notAlways], [3, 1, 'open', undefined, 'open']);
    });
  });

  describe('argsForIndex', () => {
    const options = JSON.parse(capturedBody('OPTIONS users/me')) as { endpoints: { methods: string[]; args: Record<string, Record<string, unknown>> }[] };
    const capturedArgs = (method: string) => options.endpoints.find((e) => e.methods.includes(method))?.args;

    it('matches the captured OPTIONS args of GET users/me (keys in order, required last)', () => {
      const args = {
        context: {
          description: 'Scope under which the request is made; determines fields present in response.',
          type: 'string',
          sanitize_callback: 'sanitize_key',
          validate_callback: 'rest_validate_request_arg',
          enum: ['view', 'embed', 'edit'],
          default: 'view',
        },
      } as unknown as ArgsSpec;
      const expected = '{"context":{"description":"Scope under which the request is made; determines fields present in response.","type":"string","enum":["view","embed","edit"],"default":"view","required":false}}';
      assert.equal(phpJsonEncode(argsForIndex(args)), expected);
      assert.equal(phpJsonEncode(argsForIndex(args)), phpJsonEncode(capturedArgs('GET')));
    });

    it('matches the captured OPTIONS args of DELETE users/me', () => {
      const args: ArgsSpec = {
        force: { type: 'boolean', default: false, description: 'Required to be true, as users do not support trashing.' },
        reassign: { type: 'integer', description: "Reassign the deleted user's posts and links to this user ID.", required: true },
      };
      assert.equal(phpJsonEncode(argsForIndex(compileArgs(args))), phpJsonEncode(capturedArgs('DELETE')));
    });

    it('matches the captured OPTIONS args of POST users/me, nested schemas kept as written', () => {
      const captured = capturedArgs('POST');
      assert.ok(captured);
      const args: Record<string, Record<string, unknown>> = {};
      for (const [name, entry] of Object.entries(captured)) {
        const { required: _required, ...schema } = entry;
        args[name] = { ...schema, context: ['edit'], readonly: false, arg_options: { sanitize_callback: 'x' } };
      }
      const body = capturedBody('OPTIONS users/me');
      const encoded = phpJsonEncode(argsForIndex(args as ArgsSpec));
      assert.equal(encoded, phpJsonEncode(captured));
      assert.ok(body.includes(`"args":${encoded}`), 'appears verbatim in the captured body');
    });

    it('is an empty array (printed []) when there are no args', () => {
      assert.deepEqual(argsForIndex({}), []);
      assert.equal(phpJsonEncode({ args: argsForIndex(compileArgs({})) }), '{"args":[]}');
    });
  });
});
