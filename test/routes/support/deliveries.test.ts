/** PATCH /support/v1/tickets/<id>/deliveries/<delivery-id>: retrying and cancelling outgoing email. */
import assert from 'node:assert/strict';
import { API, as } from '../../harness/support';
import { OracleSite, openOracle } from '../../harness/oracle';

describe('PATCH /support/v1/tickets/<id>/deliveries/<delivery-id>', function () {
  let oracle: OracleSite;
  before(async () => { oracle = await openOracle(); });
  after(async () => { await oracle.close(); });

  /** A ticket with an agent reply whose delivery is in `status` after `attempts` tries. */
  const delivery = async (status: string, attempts: number) => {
    const ticket = (await as(oracle.app, 'customer1').post(`${API}/tickets`).send({ subject: 'Mail', body: 'x' })).body;
    const reply = (await as(oracle.app, 'agent1').post(`${API}/tickets/${ticket.id}/messages`).send({ body: 'Reply', version: 1 })).body;
    const id = reply.deliveries[0].id;
    const meta = oracle.site.db.knex('wp_postmeta');
    await meta.clone().where({ post_id: id, meta_key: '_svc_delivery_status' }).update({ meta_value: status });
    await meta.clone().where({ post_id: id, meta_key: '_svc_attempts' }).update({ meta_value: String(attempts) });
    await meta.clone().where({ post_id: id, meta_key: '_svc_last_error' }).update({ meta_value: status === 'failed' ? '550 mailbox unavailable' : '' });
    return { ticketId: ticket.id as number, id: id as number };
  };
  const url = (d: { ticketId: number; id: number }) => `${API}/tickets/${d.ticketId}/deliveries/${d.id}`;

  it('re-queues a failed delivery on retry', async () => {
    const d = await delivery('failed', 1);
    const res = await as(oracle.app, 'agent1').patch(url(d)).send({ action: 'retry', attempts: 1 });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.status, res.body.attempts, res.body.last_error], ['queued', 1, '']);
    const job = await oracle.site.db.knex('wp_svc_jobs').where({ kind: 'email_delivery' }).orderBy('id', 'desc').first();
    assert.deepEqual(JSON.parse(job.payload), { delivery_id: d.id });
  });

  it('refuses a retry after 5 attempts in all, or of a delivery that has not failed', async () => {
    const spent = await delivery('failed', 5);
    const res = await as(oracle.app, 'agent1').patch(url(spent)).send({ action: 'retry', attempts: 5 });
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'svc_delivery_attempts_exhausted');
    const queued = await delivery('queued', 0);
    const notFailed = await as(oracle.app, 'agent1').patch(url(queued)).send({ action: 'retry', attempts: 0 });
    assert.equal(notFailed.body.code, 'svc_delivery_not_failed');
  });

  it('refuses a stale attempts count with 409 and the current count, changing nothing', async () => {
    const d = await delivery('failed', 2);
    const res = await as(oracle.app, 'agent1').patch(url(d)).send({ action: 'retry', attempts: 1 });
    assert.equal(res.status, 409);
    assert.equal(res.body.code, 'svc_delivery_conflict');
    assert.equal(res.body.data.attempts, 2);
    const status = await oracle.site.db.knex('wp_postmeta').where({ post_id: d.id, meta_key: '_svc_delivery_status' }).first();
    assert.equal(status.meta_value, 'failed');
  });

  it('cancels a queued delivery, and refuses to cancel one already sent', async () => {
    const queued = await delivery('queued', 0);
    const res = await as(oracle.app, 'agent1').patch(url(queued)).send({ action: 'cancel', attempts: 0 });
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'cancelled');
    const sent = await delivery('sent', 1);
    const refused = await as(oracle.app, 'agent1').patch(url(sent)).send({ action: 'cancel', attempts: 1 });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'svc_delivery_not_cancellable');
  });

  it('is for agents only, and a delivery of another ticket is not found', async () => {
    const d = await delivery('failed', 1);
    const customer = await as(oracle.app, 'customer1').patch(url(d)).send({ action: 'retry', attempts: 1 });
    assert.equal(customer.status, 403);
    assert.equal(customer.body.code, 'rest_forbidden');
    const other = await as(oracle.app, 'agent1').patch(`${API}/tickets/4/deliveries/${d.id}`).send({ action: 'retry', attempts: 1 });
    assert.equal(other.status, 404);
    assert.equal(other.body.code, 'svc_delivery_not_found');
  });
});
