/** argsForItemSchema(): WordPress's get_endpoint_args_for_item_schema() for CREATABLE and EDITABLE. */
import assert from 'node:assert/strict';
import { argsForItemSchema } from '../../../../lib/wp/rest/item-schema';

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
