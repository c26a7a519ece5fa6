/** `$ref` between the schemas of schema/: what a ref names, and how it merges with the keywords beside it. */
import assert from 'node:assert/strict';
import { mergeRef, refTarget, resolveRefs } from '../../../../lib/wp/rest/schema-refs';

const COMMON = { $id: 'common', $defs: { id: { type: 'integer', minimum: 1 }, 'a/b': { type: 'string' }, loop: { $ref: 'common#/$defs/loop' } } };
const ITEM = {
  $id: 'item',
  type: 'object',
  properties: {
    id: { description: 'The item.', $ref: 'common#/$defs/id', readonly: true },
    parts: { type: 'array', items: { $ref: 'part' } },
  },
};
const PART = { $id: 'part', type: 'object', properties: { id: { $ref: 'common#/$defs/id' } } };
const DOCS = [COMMON, ITEM, PART];

describe('schema $ref', () => {
  it('names a document by $id and a place in it by JSON Pointer', () => {
    assert.equal(refTarget('part', DOCS), PART);
    assert.deepEqual(refTarget('common#/$defs/id', DOCS), { type: 'integer', minimum: 1 });
    assert.deepEqual(refTarget('common#/$defs/a~1b', DOCS), { type: 'string' });
    assert.throws(() => refTarget('nope#/x', DOCS), /no schema document has \$id "nope"/);
    assert.throws(() => refTarget('common#/$defs/nope', DOCS), /"nope" not found/);
    assert.throws(() => refTarget('common#defs', DOCS), /JSON Pointer/);
  });

  it('puts the target\'s keywords in place of the $ref; keywords beside it win, at their first place', () => {
    const target = { description: 'D', type: 'integer', default: 10, minimum: 1 };
    assert.deepEqual(Object.entries(mergeRef({ description: 'mine', $ref: 'x', default: 20 }, target)), [
      ['description', 'mine'], ['type', 'integer'], ['default', 20], ['minimum', 1],
    ]);
    assert.deepEqual(Object.keys(mergeRef({ $ref: 'x', readonly: true }, { type: 'string' })), ['type', 'readonly']);
    assert.deepEqual(Object.keys(mergeRef({ title: 'T', $ref: 'x' }, { type: 'string' })), ['title', 'type']);
  });

  it('resolves refs everywhere, through other documents, and leaves the documents as they were', () => {
    const resolved = resolveRefs(ITEM, DOCS);
    assert.deepEqual(resolved.properties, {
      id: { description: 'The item.', type: 'integer', minimum: 1, readonly: true },
      parts: { type: 'array', items: { $id: 'part', type: 'object', properties: { id: { type: 'integer', minimum: 1 } } } },
    });
    assert.deepEqual(ITEM.properties.id, { description: 'The item.', $ref: 'common#/$defs/id', readonly: true });
  });

  it('refuses a cycle', () => {
    assert.throws(() => resolveRefs({ $ref: 'common#/$defs/loop' }, DOCS), /\$ref cycle/);
  });
});
