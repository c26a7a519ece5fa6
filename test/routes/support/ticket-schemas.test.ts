/**
 * The support/v1 ticket routes describe themselves from schema/support: the item schema as OPTIONS
 * shows it (refs resolved, arg_options left out) and args derived from it, one enum each.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { API } from '../../harness/support';
import { OracleSite, openOracle } from '../../harness/oracle';
import { messageSchema } from '../../../schema/support/message';
import { ticketSchema } from '../../../schema/support/ticket';

describe('support/v1 ticket schemas', function () {
  let oracle: OracleSite;
  before(async () => { oracle = await openOracle(); });
  after(async () => { await oracle.close(); });

  const routes = async () => (await request(oracle.app).get(`/wp-json/support/v1?context=help`)).body.routes as Record<string, {
    endpoints: Array<{ methods: string[]; args: Record<string, Record<string, unknown>> }>;
    schema?: Record<string, unknown>;
  }>;

  it('shows plain schemas: no $ref, $id or arg_options anywhere', async () => {
    const res = await request(oracle.app).get(`/wp-json/support/v1?context=help`);
    assert.equal(res.status, 200);
    for (const word of ['$ref', '$id', 'arg_options', 'readonly":false']) assert.ok(!res.text.includes(word), `no ${word}`);
    const options = await request(oracle.app).options(`${API}/tickets/5`);
    assert.equal(options.body.schema.title, 'svc_ticket');
    assert.deepEqual(options.body.schema.properties.id, { description: 'Unique identifier for the ticket.', type: 'integer', readonly: true });
  });

  it('takes each enum from the item schemas', async () => {
    const all = await routes();
    const args = (route: string, method: string) => all[`/support/v1${route}`]?.endpoints.find((e) => e.methods.includes(method))?.args ?? {};
    const { status, priority } = ticketSchema.properties;
    assert.deepEqual(args('/tickets', 'GET').status?.enum, status.enum);
    assert.deepEqual(args('/tickets', 'GET').priority?.enum, priority.enum);
    assert.deepEqual(args('/tickets/(?P<id>[\\d]+)', 'PATCH').status?.enum, status.enum);
    assert.deepEqual(args('/tickets/(?P<id>[\\d]+)', 'PATCH').priority?.enum, priority.enum);
    assert.deepEqual(args('/tickets/(?P<id>[\\d]+)/messages', 'POST').visibility?.enum, messageSchema.properties.visibility.enum);
    assert.deepEqual(all['/support/v1/tickets']?.schema?.properties, all['/support/v1/tickets/(?P<id>[\\d]+)']?.schema?.properties);
  });

  it('describes the ticket id in the URL the same way on every route', async () => {
    const all = await routes();
    const ids = Object.entries(all).filter(([route]) => route.startsWith('/support/v1/tickets/'))
      .flatMap(([, route]) => route.endpoints.map((e) => JSON.stringify(e.args.id)));
    assert.equal(ids.length, 5);
    assert.deepEqual(new Set(ids), new Set([JSON.stringify({ description: 'Unique identifier for the ticket.', type: 'integer', minimum: 1, required: false })]));
  });
});
