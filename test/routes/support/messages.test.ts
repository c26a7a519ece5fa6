/** POST /support/v1/tickets/<id>/messages: replies, internal notes, and what they set in motion. */
import assert from 'node:assert/strict';
import { API, as } from '../../harness/support';
import { OracleSite, credentials, openOracle } from '../../harness/oracle';
import { turnTeamAlertsOn } from '../../harness/site';

describe('POST /support/v1/tickets/<id>/messages', function () {
  let oracle: OracleSite;
  // Team alerts on: a ticket or customer reply queues its alert only when one would be sent.
  before(async () => {
    oracle = await openOracle();
    await turnTeamAlertsOn(oracle.site);
  });
  after(async () => { await oracle.close(); });

  const open = async () => (await as(oracle.app, 'customer1').post(`${API}/tickets`).send({ subject: 'Reply to me', body: 'Hello' })).body;
  const jobs = (kind: string) => oracle.site.db.knex('wp_svc_jobs').where({ kind }).orderBy('id');

  it('sets the ticket to waiting on an agent\'s public reply and queues the email to the customer', async () => {
    const ticket = await open();
    const res = await as(oracle.app, 'agent1').post(`${API}/tickets/${ticket.id}/messages`).send({ body: 'We are on it.', version: 1 });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.visibility, 'public');
    assert.deepEqual(res.body.ticket, { id: ticket.id, status: 'waiting', version: 2, updated_at: res.body.ticket.updated_at });
    assert.equal(res.body.deliveries.length, 1);
    assert.deepEqual([res.body.deliveries[0].status, res.body.deliveries[0].attempts, res.body.deliveries[0].recipient], ['queued', 0, 'customer1@example.test']);
    const job = (await jobs('email_delivery')).pop();
    assert.deepEqual(JSON.parse(job.payload), { delivery_id: res.body.deliveries[0].id });
    const stored = await oracle.site.db.knex('wp_posts').where({ ID: res.body.id }).first();
    assert.deepEqual([stored.post_type, stored.post_status, Number(stored.post_parent)], ['svc_message', 'publish', ticket.id]);
  });

  it('reopens the ticket on a customer\'s reply and records customer_replied', async () => {
    const ticket = await open();
    await as(oracle.app, 'agent1').patch(`${API}/tickets/${ticket.id}`).send({ version: 1, status: 'resolved' });
    const res = await as(oracle.app, 'customer1').post(`${API}/tickets/${ticket.id}/messages`).send({ body: 'Still broken.', version: 2 });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.ticket.status, 'open');
    assert.equal(res.body.ticket.version, 3);
    assert.ok(!('deliveries' in res.body), 'customers do not see deliveries');
    const job = (await jobs('team_alert')).pop();
    assert.deepEqual(JSON.parse(job.payload), { event: 'customer_replied', ticket_id: ticket.id, message_id: res.body.id });
  });

  it('keeps an internal note from the customer and changes neither status nor deliveries', async () => {
    const ticket = await open();
    const before = (await jobs('email_delivery')).length;
    const note = await as(oracle.app, 'agent1').post(`${API}/tickets/${ticket.id}/messages`).send({ body: 'Customer is on the legacy plan.', version: 1, visibility: 'internal' });
    assert.equal(note.status, 201, note.text);
    assert.equal(note.body.ticket.status, 'open');
    assert.equal(note.body.ticket.version, 2);
    assert.equal((await jobs('email_delivery')).length, before);
    const seen = await as(oracle.app, 'customer1').get(`${API}/tickets/${ticket.id}`);
    assert.ok(!seen.text.includes('legacy plan'));
    assert.equal(seen.body.version, 2);
  });

  it('refuses an internal note from a customer and stores nothing', async () => {
    const ticket = await open();
    const res = await as(oracle.app, 'customer1').post(`${API}/tickets/${ticket.id}/messages`).send({ body: 'x', version: 1, visibility: 'internal' });
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 'svc_cannot_post_internal');
    const again = await as(oracle.app, 'customer1').get(`${API}/tickets/${ticket.id}`);
    assert.equal(again.body.messages.length, 1);
    assert.equal(again.body.version, 1);
  });

  it('refuses a reply with a stale version and stores nothing', async () => {
    const ticket = await open();
    await as(oracle.app, 'agent1').post(`${API}/tickets/${ticket.id}/messages`).send({ body: 'First', version: 1 });
    const stale = await as(oracle.app, 'customer1').post(`${API}/tickets/${ticket.id}/messages`).send({ body: 'Late', version: 1 });
    assert.equal(stale.status, 409);
    assert.equal(stale.body.code, 'svc_version_conflict');
    assert.equal(stale.body.data.version, 2);
    const seen = await as(oracle.app, 'agent1').get(`${API}/tickets/${ticket.id}`);
    assert.ok(!seen.text.includes('Late'));
  });

  it('stores a reply once per request_key, also when the repeats race', async () => {
    const ticket = await open();
    const send = () => as(oracle.app, 'customer1').post(`${API}/tickets/${ticket.id}/messages`).send({ body: 'Once', version: 1, request_key: 'r-1' });
    const answers = await Promise.all(Array.from({ length: 8 }, send));
    assert.deepEqual(answers.map((a) => a.status), Array(8).fill(201), answers.map((a) => a.text).join('\n'));
    assert.equal(new Set(answers.map((a) => a.body.id)).size, 1);
    const seen = await as(oracle.app, 'agent1').get(`${API}/tickets/${ticket.id}`);
    assert.equal(seen.body.messages.filter((m: { body: string }) => m.body === 'Once').length, 1);
    assert.equal(seen.body.version, 2);
  });

  it('answers a retry with a stored request_key from its stored reply, without counting it against the limit of 120 an hour', async function () {
    this.timeout(60_000);
    // A window of its own, away from the other tests' replies.
    oracle.clock.advance(5 * 3600 * 1000);
    try {
      // The limit is the agent's, over all tickets: 120 notes spread over a few tickets keep each conversation short.
      const tickets = [await open(), await open(), await open(), await open()];
      const versions = tickets.map(() => 1);
      const note = (i: number, key: string, body = `Note ${key}`, version = versions[i % tickets.length]) =>
        as(oracle.app, 'agent1').post(`${API}/tickets/${tickets[i % tickets.length].id}/messages`).send({ body, version, visibility: 'internal', request_key: key });
      const send = async (i: number) => {
        const res = await note(i, `r-limit-${i}`);
        if (res.status === 201) versions[i % tickets.length] = res.body.ticket.version;
        return res;
      };
      const hits = async () => {
        const rows = await oracle.site.db.knex('wp_svc_rate_limits').where({ bucket: `tickets.reply:user:${credentials.application_passwords.agent1.user_id}` });
        return rows.reduce((sum: number, r: { hits: number }) => sum + Number(r.hits), 0);
      };
      const first = await send(0);
      assert.equal(first.status, 201, first.text);
      for (let i = 1; i < 119; i++) {
        const res = await send(i);
        assert.equal(res.status, 201, res.text);
      }
      const counted = await hits();

      // A retry sends what the first request sent, its version too: it gets the stored reply, uncounted.
      const retry = (body = 'Note r-limit-0') => note(0, 'r-limit-0', body, 1);
      for (let round = 0; round < 5; round++) {
        const again = await retry();
        assert.equal(again.status, 201, again.text);
        assert.equal(again.body.id, first.body.id);
      }
      assert.equal(await hits(), counted);

      const last = await send(119);
      assert.equal(last.status, 201, last.text);
      const refused = await send(120);
      assert.equal(refused.status, 429);
      assert.equal(refused.body.code, 'rest_too_many_requests');

      // Past the limit, the retry still gets its stored reply, and the same key with another body its 422.
      const replayed = await retry();
      assert.equal(replayed.status, 201, replayed.text);
      assert.equal(replayed.body.id, first.body.id);
      const reused = await retry('Another note');
      assert.equal(reused.status, 422);
      assert.equal(reused.body.code, 'svc_request_key_reused');
      for (const [i, ticket] of tickets.entries()) {
        const seen = await as(oracle.app, 'agent1').get(`${API}/tickets/${ticket.id}`);
        assert.equal(seen.body.messages.length, 1 + 30);
        assert.equal(seen.body.version, versions[i]);
      }
      // The refused new note was counted, as refusals are; the retries after it were not.
      assert.equal(await hits(), counted + 2);
    } finally {
      oracle.clock.set(credentials.generated_at * 1000);
    }
  });

  it('answers a reply to someone else\'s ticket as if it did not exist', async () => {
    const ticket = await open();
    const res = await as(oracle.app, 'customer2').post(`${API}/tickets/${ticket.id}/messages`).send({ body: 'Hi', version: 1 });
    assert.equal(res.status, 404);
    assert.equal(res.body.code, 'svc_ticket_not_found');
  });
});
