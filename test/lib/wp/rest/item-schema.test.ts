/**
 * argsForItemSchema(): WordPress's get_endpoint_args_for_item_schema() for CREATABLE and EDITABLE;
 * publicItemSchema(); an operation's args built from item schemas and shared definitions, one by one
 * (argsForOperation()) or a file's at once, in the mode of the endpoint that declares them (operations()).
 */
import assert from 'node:assert/strict';
import { ArgsParams, argsForItemSchema, argsForOperation, operations, publicItemSchema, routeSchema } from '../../../../lib/wp/rest/item-schema';
import { RestRegistry } from '../../../../lib/wp/rest/registry';
import { HttpMethod, allowAnyone } from '../../../../lib/wp/rest/route';

const SCHEMA = {
  title: 'thing',
  type: 'object',
  properties: {
    id: { description: 'Unique identifier.', type: 'integer', readonly: true },
    // Written out of WordPress's keyword order, with annotations that are no arg keywords.
    name: { maxLength: 20, type: 'string', context: ['view', 'edit'], description: 'The name.', required: true },
    color: { type: 'string', enum: ['red', 'blue'], default: 'red', format: null },
    size: { type: 'integer', arg_options: { minimum: 1, default: 3, required: true, description: 'Size, as sent.' } },
    tags: { type: 'array', items: { type: 'string' }, readonly: false },
  },
};

describe('argsForItemSchema()', () => {
  it('for create: default and required first, then the keywords in WordPress order, then arg_options merged', () => {
    const args = argsForItemSchema(SCHEMA, 'create');
    assert.deepEqual(Object.keys(args), ['name', 'color', 'size', 'tags'], 'readonly properties are no args');
    assert.deepEqual(Object.entries(args.name as object), [['required', true], ['description', 'The name.'], ['type', 'string'], ['maxLength', 20]]);
    assert.deepEqual(Object.entries(args.color as object), [['default', 'red'], ['type', 'string'], ['enum', ['red', 'blue']]], 'a null keyword is left out');
    // array_merge(): a key already there keeps its place, a new one goes last.
    assert.deepEqual(Object.entries(args.size as object), [['type', 'integer'], ['minimum', 1], ['default', 3], ['required', true], ['description', 'Size, as sent.']]);
    assert.deepEqual(args.tags, { type: 'array', items: { type: 'string' } });
  });

  it('for edit: no default and no required, neither from the property nor from arg_options', () => {
    const args = argsForItemSchema(SCHEMA, 'edit');
    assert.deepEqual(Object.entries(args.name as object), [['description', 'The name.'], ['type', 'string'], ['maxLength', 20]]);
    assert.deepEqual(args.color, { type: 'string', enum: ['red', 'blue'] });
    assert.deepEqual(Object.entries(args.size as object), [['type', 'integer'], ['minimum', 1], ['description', 'Size, as sent.']]);
  });

  it('gives nothing for a schema without properties', () => {
    assert.deepEqual(argsForItemSchema({ type: 'object' }, 'create'), {});
  });
});

describe('publicItemSchema()', () => {
  it('leaves out arg_options (nested ones too) and $id, and nothing else', () => {
    const schema = {
      $id: 'thing', title: 'thing', type: 'object',
      properties: {
        size: { type: 'integer', arg_options: { minimum: 1 } },
        parts: { type: 'array', items: { $id: 'part', type: 'object', properties: { n: { type: 'integer', arg_options: { minimum: 0 } } } } },
        meta: { type: 'object', additionalProperties: { type: 'string', arg_options: { maxLength: 9 } } },
      },
    };
    assert.deepEqual(publicItemSchema(schema), {
      title: 'thing', type: 'object',
      properties: {
        size: { type: 'integer' },
        parts: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } } } },
        meta: { type: 'object', additionalProperties: { type: 'string' } },
      },
    });
  });

  it('keeps $schema at the top only: an item schema $ref\'d whole (a thread\'s messages) brings none', () => {
    const draft = 'http://json-schema.org/draft-04/schema#';
    const message = { $id: 'message', $schema: draft, title: 'message', type: 'object', properties: { text: { type: 'string' } } };
    const thread = { $id: 'thread', $schema: draft, title: 'thread', type: 'object', properties: { messages: { type: 'array', items: { $ref: 'message' } } } };
    assert.deepEqual(routeSchema(thread, [message])(), {
      $schema: draft, title: 'thread', type: 'object',
      properties: { messages: { type: 'array', items: { title: 'message', type: 'object', properties: { text: { type: 'string' } } } } },
    });
  });
});

describe('argsForOperation()', () => {
  const DOCS = [
    { $id: 'common', $defs: { id: { type: 'integer', arg_options: { minimum: 1 } }, page: { description: 'Current page of the collection.', type: 'integer', default: 1, minimum: 1 } } },
    {
      $id: 'thing', type: 'object',
      properties: {
        id: { description: 'Unique identifier for the thing.', $ref: 'common#/$defs/id', readonly: true },
        color: { description: 'The color.', type: 'string', enum: ['red', 'blue'], context: ['view'], default: 'red' },
        size: { type: 'integer', arg_options: { minimum: 1, required: true } },
      },
    },
  ];

  it('takes a $ref to an item property as argsForItemSchema() derives it, for the mode', () => {
    const entries = { color: { $ref: 'thing#/properties/color' }, size: { $ref: 'thing#/properties/size' } };
    assert.deepEqual(argsForOperation(entries, DOCS, 'create'), {
      color: { default: 'red', description: 'The color.', type: 'string', enum: ['red', 'blue'] },
      size: { type: 'integer', minimum: 1, required: true },
    });
    assert.deepEqual(argsForOperation(entries, DOCS, 'edit'), {
      color: { description: 'The color.', type: 'string', enum: ['red', 'blue'] },
      size: { type: 'integer', minimum: 1 },
    });
    assert.throws(() => argsForOperation({ id: { $ref: 'thing#/properties/id' } }, DOCS, 'edit'), /readonly property is no argument/);
  });

  it('takes any other $ref as written, arg_options merged; keywords beside it win in place; plain entries stay as written', () => {
    const args = argsForOperation({
      id: { description: 'Unique identifier for the thing.', $ref: 'common#/$defs/id' },
      color: { description: 'Limit to things of this color.', $ref: 'thing#/properties/color', required: true },
      page: { $ref: 'common#/$defs/page', default: 2 },
      flag: { description: 'A flag.', type: 'boolean', default: false, readonly: true },
    }, DOCS, 'edit');
    assert.deepEqual(Object.entries(args.id as object), [['description', 'Unique identifier for the thing.'], ['type', 'integer'], ['minimum', 1]]);
    assert.deepEqual(Object.entries(args.color as object), [
      ['description', 'Limit to things of this color.'], ['type', 'string'], ['enum', ['red', 'blue']], ['required', true],
    ]);
    assert.deepEqual(Object.entries(args.page as object), [['description', 'Current page of the collection.'], ['type', 'integer'], ['default', 2], ['minimum', 1]]);
    assert.deepEqual(args.flag, { description: 'A flag.', type: 'boolean', default: false }, 'annotations are no arg keywords');
  });
});

describe('operations()', () => {
  const DOCS = [
    { $id: 'common', $defs: { id: { type: 'integer', arg_options: { minimum: 1 } } } },
    { $id: 'thing', type: 'object', properties: { color: { type: 'string', enum: ['red', 'blue'], default: 'red' }, size: { type: 'integer', arg_options: { required: true } } } },
  ] as const;
  const OPS = {
    change: { id: { $ref: 'common#/$defs/id' }, color: { $ref: 'thing#/properties/color' }, size: { $ref: 'thing#/properties/size' } },
  } as const;
  const args = operations(OPS, DOCS, ['id']);

  /** The args an endpoint serving `methods` with the operation's args validates with, once registered. */
  function registered(methods: HttpMethod[]): unknown {
    const registry = new RestRegistry();
    registry.register({ namespace: 'ops/v1', route: '/things/(?P<id>\\d+)', endpoints: [{ methods, args: args.change, permission: allowAnyone, handler: () => null }] });
    return registry.match('/ops/v1/things/1', methods[0] as string)?.endpoint.args;
  }

  it("takes the mode from the endpoint's method: create for POST, edit for any other", () => {
    const create = argsForOperation(OPS.change, DOCS, 'create');
    const edit = argsForOperation(OPS.change, DOCS, 'edit');
    assert.notDeepEqual(create, edit);
    assert.deepEqual(registered(['POST']), create);
    for (const methods of [['PATCH'], ['GET'], ['POST', 'PUT', 'PATCH']] as HttpMethod[][]) assert.deepEqual(registered(methods), edit, methods.join());
  });

  it('types each operation as its handler sees it, the URL params always there', () => {
    const params: ArgsParams<typeof args.change> = { id: 3 };
    const id: number = params.id;
    // @ts-expect-error an item property's `$ref` is optional: the mode decides whether it is required
    const size: number = params.size;
    assert.deepEqual([id, size], [3, undefined]);
  });
});
