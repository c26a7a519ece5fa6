/** GET /support/v1/tickets/<id>: the conversation, and what each viewer may see of it. */
import assert from 'node:assert/strict';
import { API, as } from '../../harness/support';
import { OracleSite, openOracle } from '../../harness/oracle';

describe('GET /support/v1/tickets/<id>', function () {
  let oracle: OracleSite;
  /** Ticket 98 (customer1's) has an internal note, message 100. */
  const WITH_NOTE = 98;
  before(async () => { oracle = await openOracle(); });
  after(async () => { await oracle.close(); });

  it('gives an agent the ticket with its whole conversation, oldest first, internal notes included', async () => {
    const res = await as(oracle.app, 'agent1').get(`${API}/tickets/${WITH_NOTE}`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers['cache-control'], 'private, no-store');
    const ids = res.body.messages.map((m: { id: number }) => m.id);
    assert.deepEqual(ids, [...ids].sort((a: number, b: number) => a - b));
    const note = res.body.messages.find((m: { id: number }) => m.id === 100);
    assert.equal(note.visibility, 'internal');
    assert.equal(note.body, 'Waiting for the payment provider.');
    assert.deepEqual(Object.keys(note.author), ['id', 'name', 'email', 'kind']);
  });

  it('leaves internal notes, deliveries and the assignee out for the customer', async () => {
    const res = await as(oracle.app, 'customer1').get(`${API}/tickets/${WITH_NOTE}`);
    assert.equal(res.status, 200, res.text);
    assert.ok(res.body.messages.length > 0);
    assert.ok(res.body.messages.every((m: { visibility: string }) => m.visibility === 'public'));
    assert.ok(!res.text.includes('Waiting for the payment provider'));
    assert.ok(!('assignee' in res.body));
    assert.ok(res.body.messages.every((m: Record<string, unknown>) => !('deliveries' in m) && !('email' in (m.author as object))));
  });

  it('answers an agent who sends X-Svc-View: customer exactly what the customer gets', async () => {
    const customer = await as(oracle.app, 'customer1').get(`${API}/tickets/${WITH_NOTE}`);
    const asCustomer = await as(oracle.app, 'agent1').get(`${API}/tickets/${WITH_NOTE}`).set('X-Svc-View', 'customer');
    assert.equal(asCustomer.status, 200);
    assert.equal(asCustomer.text, customer.text);
  });

  it('answers someone else\'s ticket exactly as a missing one', async () => {
    const others = await as(oracle.app, 'customer2').get(`${API}/tickets/${WITH_NOTE}`);
    const missing = await as(oracle.app, 'customer2').get(`${API}/tickets/999999`);
    assert.equal(others.status, 404);
    assert.equal(others.body.code, 'svc_ticket_not_found');
    assert.equal(others.text, missing.text);
    assert.equal(others.headers['content-length'], missing.headers['content-length']);
  });
});
