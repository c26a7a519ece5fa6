/** PATCH /support/v1/tickets/<id>: status, priority and assignee, guarded by the ticket's version. */
import assert from 'node:assert/strict';
import { API, as } from '../../harness/support';
import { OracleSite, openOracle } from '../../harness/oracle';

describe('PATCH /support/v1/tickets/<id>', function () {
  let oracle: OracleSite;
  before(async () => { oracle = await openOracle(); });
  after(async () => { await oracle.close(); });

  const open = async (login: 'customer1' | 'customer2' = 'customer1') =>
    (await as(oracle.app, login).post(`${API}/tickets`).send({ subject: 'Patch me', body: 'Hello' })).body;
  const row = (id: number) => oracle.site.db.knex('wp_posts').where({ ID: id }).first('post_status', 'post_modified');
  const setSettings = (settings: Record<string, unknown>) => oracle.site.options.update('svc_settings', settings);

  it('lets an agent change status, priority and assignee together, moving the version and last activity', async () => {
    const ticket = await open();
    oracle.clock.advance(60_000);
    const res = await as(oracle.app, 'agent1').patch(`${API}/tickets/${ticket.id}`).send({ version: 1, status: 'waiting', priority: 'urgent', assignee: 2 });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'waiting');
    assert.equal(res.body.priority, 'urgent');
    assert.equal(res.body.assignee, 2);
    assert.equal(res.body.version, 2);
    assert.notEqual(res.body.updated_at, ticket.updated_at);
    assert.equal((await row(ticket.id)).post_status, 'svc-waiting');
    const unassign = await as(oracle.app, 'agent1').patch(`${API}/tickets/${ticket.id}`).send({ version: 2, assignee: null });
    assert.equal(unassign.body.assignee, null);
    assert.equal(unassign.body.version, 3);
  });

  it('refuses a stale version with 409 and the current version, and changes nothing', async () => {
    const ticket = await open();
    await as(oracle.app, 'agent1').patch(`${API}/tickets/${ticket.id}`).send({ version: 1, priority: 'high' });
    const before = await row(ticket.id);
    const stale = await as(oracle.app, 'agent1').patch(`${API}/tickets/${ticket.id}`).send({ version: 1, status: 'resolved' });
    assert.equal(stale.status, 409);
    assert.equal(stale.body.code, 'svc_version_conflict');
    assert.equal(stale.body.data.version, 2);
    assert.deepEqual(await row(ticket.id), before);
  });

  it('lets exactly one of many concurrent PATCHes with the same version win', async () => {
    const ticket = await open();
    const priorities = ['high', 'urgent'];
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) =>
      as(oracle.app, i % 2 ? 'agent1' : 'manager1').patch(`${API}/tickets/${ticket.id}`).send({ version: 1, priority: priorities[i % 2] })));
    const statuses = answers.map((a) => a.status);
    assert.equal(statuses.filter((s) => s === 200).length, 1, statuses.join(','));
    assert.equal(statuses.filter((s) => s === 409).length, 11);
    const winner = answers.find((a) => a.status === 200);
    const now = await as(oracle.app, 'agent1').get(`${API}/tickets/${ticket.id}`);
    assert.equal(now.body.version, 2);
    assert.equal(now.body.priority, winner?.body.priority);
  });

  it('lets a customer resolve and reopen their ticket when the settings allow it', async () => {
    const ticket = await open();
    const resolved = await as(oracle.app, 'customer1').patch(`${API}/tickets/${ticket.id}`).send({ version: 1, status: 'resolved' });
    assert.equal(resolved.status, 200, resolved.text);
    assert.equal(resolved.body.status, 'resolved');
    const reopened = await as(oracle.app, 'customer1').patch(`${API}/tickets/${ticket.id}`).send({ version: 2, status: 'open' });
    assert.equal(reopened.status, 200);
    assert.equal(reopened.body.status, 'open');
  });

  it('refuses customers what the settings do not allow, and any field but status', async () => {
    const ticket = await open();
    await setSettings({ customer_can_resolve: false, customer_can_reopen: false });
    try {
      const resolve = await as(oracle.app, 'customer1').patch(`${API}/tickets/${ticket.id}`).send({ version: 1, status: 'resolved' });
      assert.equal(resolve.status, 403);
      assert.equal(resolve.body.code, 'svc_status_change_not_allowed');
      const waiting = await as(oracle.app, 'customer1').patch(`${API}/tickets/${ticket.id}`).send({ version: 1, status: 'waiting' });
      assert.equal(waiting.status, 403);
      const priority = await as(oracle.app, 'customer1').patch(`${API}/tickets/${ticket.id}`).send({ version: 1, priority: 'urgent' });
      assert.equal(priority.status, 403);
      assert.equal(priority.body.code, 'svc_cannot_edit_field');
      assert.equal((await row(ticket.id)).post_status, 'svc-open');
    } finally {
      await oracle.site.options.delete('svc_settings');
    }
  });

  it('answers a customer patching someone else\'s ticket as if it did not exist', async () => {
    const ticket = await open('customer1');
    const res = await as(oracle.app, 'customer2').patch(`${API}/tickets/${ticket.id}`).send({ version: 1, status: 'resolved' });
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'svc_ticket_not_found');
    assert.equal((await row(ticket.id)).post_status, 'svc-open');
  });

  it('assigns only to agents', async () => {
    const ticket = await open();
    const res = await as(oracle.app, 'agent1').patch(`${API}/tickets/${ticket.id}`).send({ version: 1, assignee: 4 });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'svc_invalid_assignee');
  });
});
