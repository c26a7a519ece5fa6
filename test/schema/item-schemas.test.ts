/**
 * Every item schema in schema/support against its presenter (WordPress's test_get_item_schema habit):
 * a full object (every optional field there) presented has exactly the schema's properties, in the
 * schema's order, at every level, each value of the type and enum the schema says. A field added to
 * a presenter and not to its schema (or the other way round) fails here.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { presentChangelogSchemas } from './item-schemas/changelogs';
import { presentChatSchemas } from './item-schemas/chat';
import { presentDocSchemas } from './item-schemas/docs';
import { presentMailSchemas } from './item-schemas/mail';
import { presentPortalSchemas } from './item-schemas/portal';
import { presentTicketSchemas } from './item-schemas/tickets';
import { ALL_SCHEMAS, Presented } from './item-schemas/presented';
import { resolveRefs } from '../../lib/wp/rest/schema-refs';
import { TestSite, openTestSite } from '../harness/site';

type Schema = Readonly<Record<string, unknown>>;

describe('item schemas and their presenters', function () {
  let t: TestSite;
  let presented: Presented[];
  before(async () => {
    t = await openTestSite();
    presented = [
      ...presentTicketSchemas(), ...presentChatSchemas(), ...presentPortalSchemas(), ...presentChangelogSchemas(),
      ...(await presentDocSchemas(t.site)), ...(await presentMailSchemas(t.site)),
    ];
  });
  after(async () => { await t?.close(); });

  it('presents every item schema of schema/support (each file but the -args files and common.ts)', () => {
    const dir = path.join(__dirname, '../../schema/support');
    const itemFiles = fs.readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('-args.ts') && f !== 'common.ts');
    const schemaIds = itemFiles.flatMap((f) => Object.values(require(path.join(dir, f)) as Record<string, Schema>).filter((s) => s.$id).map((s) => s.$id));
    assert.deepEqual(new Set(presented.map((p) => p.schema.$id)), new Set(schemaIds));
  });

  it("shows each presented object with exactly its schema's properties, in order, of their types", () => {
    for (const { schema, value } of presented) assertShape(value, resolveRefs(schema, ALL_SCHEMAS) as Schema, String(schema.$id));
  });
});

function assertShape(value: unknown, schema: Schema, at: string): void {
  if (schema.type !== undefined) assert.ok(hasType(value, schema.type), `${at}: ${JSON.stringify(value)} is not of type ${JSON.stringify(schema.type)}`);
  if (Array.isArray(schema.enum)) assert.ok(schema.enum.includes(value), `${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  const properties = schema.properties as Record<string, Schema> | undefined;
  if (properties && isObject(value)) {
    assert.deepEqual(Object.keys(value), Object.keys(properties), `${at}: the presented keys are the schema's properties, in its order`);
    for (const [key, v] of Object.entries(value)) assertShape(v, properties[key] as Schema, `${at}.${key}`);
  }
  if (schema.items && Array.isArray(value)) {
    assert.ok(value.length > 0, `${at}: a full object has an item in every list`);
    value.forEach((v, i) => assertShape(v, schema.items as Schema, `${at}[${i}]`));
  }
}

function hasType(value: unknown, type: unknown): boolean {
  const types = Array.isArray(type) ? type : [type];
  return types.some((t) => {
    if (t === 'null') return value === null;
    if (t === 'integer') return Number.isInteger(value);
    if (t === 'array') return Array.isArray(value);
    if (t === 'object') return isObject(value);
    return typeof value === t;
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
