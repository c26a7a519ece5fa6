/**
 * The params a handler sees are typed by the endpoint's args (ParamsOf, TypedArgs, endpoint()). Most
 * of this is checked by the compiler (`npm run typecheck`): each `@ts-expect-error` is a mistake that
 * must not compile.
 */
import assert from 'node:assert/strict';
import { ParamsOf, argsForOperation, typedArgs } from '../../../../lib/wp/rest/item-schema';
import { RestRequest, endpoint, requireSignedIn } from '../../../../lib/wp/rest/route';

const COMMON = { $id: 'common', $defs: { id: { type: 'integer', arg_options: { minimum: 1 } }, page: { type: 'integer', default: 1 } } } as const;
const THING = { $id: 'thing', type: 'object', properties: { color: { type: 'string', enum: ['red', 'blue'] }, size: { type: ['integer', 'null'] } } } as const;
const DOCS = [COMMON, THING] as const;
const ENTRIES = {
  id: { $ref: 'common#/$defs/id' },
  page: { $ref: 'common#/$defs/page' },
  color: { $ref: 'thing#/properties/color', required: true },
  size: { $ref: 'thing#/properties/size' },
  tags: { type: 'array', items: { type: 'string' }, default: [] },
} as const;
type Thing = ParamsOf<typeof ENTRIES, typeof DOCS, 'id'>;

const ok: Thing = { id: 1, page: 2, color: 'red', tags: [] };
const withNull: Thing = { ...ok, size: null };
// @ts-expect-error an enum is its values only
const badColor: Thing = { ...ok, color: 'green' };
// @ts-expect-error a required param is always there
const noColor: Thing = { id: 1, page: 2, tags: [] };
// @ts-expect-error a param the URL carries is always there
const noId: Thing = { page: 2, color: 'red', tags: [] };
// @ts-expect-error a defaulted param (here through its $ref) is always there
const noPage: Thing = { id: 1, color: 'red', tags: [] };

const thingArgs = () => argsForOperation(ENTRIES, DOCS, 'edit') as import('../../../../lib/wp/rest/args').TypedArgs<Thing>;
const typed = endpoint({ methods: ['GET'], permission: requireSignedIn, args: thingArgs(), handler: (req) => req.params.color.toUpperCase() });
// @ts-expect-error the handler reads a param the args do not declare
endpoint({ methods: ['GET'], permission: requireSignedIn, args: thingArgs(), handler: (req) => req.params.nope });
const wantsMore = (req: RestRequest<unknown, Thing & { extra: string }>) => req.params.extra;
// @ts-expect-error the handler expects a param the args do not give
endpoint({ methods: ['GET'], permission: requireSignedIn, args: thingArgs(), handler: wantsMore });
const inline = endpoint({ methods: ['DELETE'], permission: requireSignedIn, args: typedArgs({ force: { type: 'boolean', default: false } }), handler: (req) => req.params.force === true });

describe('typed params', () => {
  it('are checked by the compiler; the values stay plain', () => {
    assert.deepEqual([ok.color, withNull.size, badColor.id, noColor.id, noId.page, noPage.id], ['red', null, 1, 1, 2, 1]);
    assert.deepEqual(Object.keys(typed.args ?? {}), ['id', 'page', 'color', 'size', 'tags']);
    assert.deepEqual(inline.args, { force: { type: 'boolean', default: false } });
  });
});
