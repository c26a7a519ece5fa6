/**
 * docs/support-desk.md, "What each route takes", lists every argument the routes' schemas take
 * (schema/support/*-args.ts), the required ones in bold; and the route answers a `message` sent where
 * `body` is taken as the page says: `body` is missing.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { portalOperations } from '../../schema/support/portal-args';
import { siteOperations } from '../../schema/support/site-args';
import { ticketOperations } from '../../schema/support/ticket-args';
import { OracleSite, openOracle } from '../harness/oracle';
import { API, as } from '../harness/support';

const PAGE = fs.readFileSync(path.join(__dirname, '../../docs/support-desk.md'), 'utf8');
const SECTION = PAGE.slice(PAGE.indexOf('## What each route takes'), PAGE.indexOf('\n## ', PAGE.indexOf('## What each route takes') + 3));
/** Parts of the URL, not arguments a client writes in a body. */
const IN_PATH = new Set(['id', 'site_id', 'delivery_id', 'file_id']);

type Operation = Readonly<Record<string, object>>;

const ROUTES: Array<[string, Operation]> = [
  ['`GET /tickets`', ticketOperations.list],
  ['`POST /tickets`', ticketOperations.create],
  ['`PATCH /tickets/<id>`', ticketOperations.update],
  ['`POST /tickets/<id>/messages`', ticketOperations.reply],
  ['`PATCH /tickets/<id>/deliveries/<delivery-id>`', ticketOperations.delivery],
  ['`GET /tickets/<id>/attachments/<file-id>`', ticketOperations.attachment],
  ['`POST /sites/<site-id>/tickets`', siteOperations.ticket],
  ['`POST /sites/<site-id>/portal/tickets`', portalOperations.open],
  ['`PATCH /sites/<site-id>/portal/tickets/<id>`', portalOperations.status],
  ['`POST /sites/<site-id>/portal/tickets/<id>/messages`', portalOperations.reply],
];

function rowOf(route: string): string {
  const row = SECTION.split('\n').find((line) => line.startsWith(`| ${route} `));
  assert.ok(row, `docs/support-desk.md lists ${route}`);
  return row;
}

describe('docs/support-desk.md: what each route takes', () => {
  it('lists every argument of each route\'s schema, the required ones in bold', () => {
    for (const [route, operation] of ROUTES) {
      const row = rowOf(route);
      for (const [name, arg] of Object.entries(operation)) {
        if (IN_PATH.has(name)) continue;
        if ((arg as { required?: boolean }).required) assert.ok(row.includes(`**\`${name}\`**`), `${route}: **\`${name}\`** (required)`);
        else assert.ok(row.includes(`\`${name}\``) && !row.includes(`**\`${name}\`**`), `${route}: \`${name}\` (optional)`);
      }
    }
  });

  describe('on the oracle', () => {
    let oracle: OracleSite;
    before(async () => { oracle = await openOracle(); });
    after(() => oracle?.close());

    it('refuses `message` where `body` is taken, naming `body` as missing', async () => {
      const res = await as(oracle.app, 'customer1').post(`${API}/tickets`).send({ subject: 'Hello', message: 'The text.' });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'rest_missing_callback_param');
      assert.deepEqual(res.body.data.params, ['body']);
    });
  });
});
