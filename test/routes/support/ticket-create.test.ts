/** POST /support/v1/tickets: opening tickets, stored once per request_key even under concurrency. */
import assert from 'node:assert/strict';
import { API, as } from '../../harness/support';
import { OracleSite, credentials, openOracle } from '../../harness/oracle';
import { turnTeamAlertsOn } from '../../harness/site';

describe('POST /support/v1/tickets', function () {
  let oracle: OracleSite;
  // Team alerts on: a ticket or customer reply queues its alert only when one would be sent.
  before(async () => {
    oracle = await openOracle();
    await turnTeamAlertsOn(oracle.site);
  });
  after(async () => { await oracle.close(); });

  const count = async (table: string, where: Record<string, unknown>) =>
    Number(((await oracle.site.db.knex(table).where(where).count({ n: '*' }))[0] as { n: number }).n);

  it('opens a ticket with its first message, stored in the storage map\'s shape, and records ticket_created', async () => {
    const res = await as(oracle.app, 'customer1').post(`${API}/tickets`).send({ subject: 'Cannot log in', body: 'The login page spins forever.' });
    assert.equal(res.status, 201, res.text);
    assert.match(res.headers.location, new RegExp(`/wp-json/support/v1/tickets/${res.body.id}$`));
    assert.equal(res.body.status, 'open');
    assert.equal(res.body.version, 1);
    assert.equal(res.body.customer_email, 'customer1@example.test');
    assert.equal(res.body.messages[0].body, 'The login page spins forever.');
    const row = await oracle.site.db.knex('wp_posts').where({ ID: res.body.id }).first();
    assert.equal(row.post_type, 'svc_ticket');
    assert.equal(row.post_status, 'svc-open');
    assert.equal(Number(row.post_author), 4);
    const meta = Object.fromEntries((await oracle.site.db.knex('wp_postmeta').where({ post_id: res.body.id })).map((m: any) => [m.meta_key, m.meta_value]));
    assert.deepEqual(meta, { _svc_priority: 'normal', _svc_source: 'api', _svc_customer_name: 'Customer One', _svc_customer_email: 'customer1@example.test', _svc_version: '1' });
    const job = await oracle.site.db.knex('wp_svc_jobs').where({ kind: 'team_alert' }).orderBy('id', 'desc').first();
    assert.deepEqual(JSON.parse(job.payload), { event: 'ticket_created', ticket_id: res.body.id, message_id: res.body.messages[0].id });
  });

  it('returns the ticket stored the first time when the request_key repeats', async () => {
    const send = () => as(oracle.app, 'customer2').post(`${API}/tickets`).send({ subject: 'Invoice', body: 'Please resend it.', request_key: 'k-once' });
    const first = await send();
    const again = await send();
    assert.equal(first.status, 201);
    assert.equal(again.status, 201);
    assert.equal(again.body.id, first.body.id);
    assert.equal(await count('wp_posts', { post_type: 'svc_ticket', post_title: 'Invoice' }), 1);
  });

  it('stores a ticket once when many requests with the same request_key arrive at once', async () => {
    const send = () => as(oracle.app, 'customer1').post(`${API}/tickets`).send({ subject: 'Race', body: 'Sent ten times at once.', request_key: 'k-race' });
    const answers = await Promise.all(Array.from({ length: 10 }, send));
    assert.deepEqual(answers.map((a) => a.status), Array(10).fill(201), answers.map((a) => a.text).join('\n'));
    assert.equal(new Set(answers.map((a) => a.body.id)).size, 1);
    assert.equal(await count('wp_posts', { post_type: 'svc_ticket', post_title: 'Race' }), 1);
    assert.equal(await count('wp_svc_request_keys', { request_key: 'k-race' }), 1);
  });

  it('refuses the same request_key with a different body, and stores nothing', async () => {
    await as(oracle.app, 'customer1').post(`${API}/tickets`).send({ subject: 'Keyed', body: 'First.', request_key: 'k-diff' });
    const res = await as(oracle.app, 'customer1').post(`${API}/tickets`).send({ subject: 'Keyed', body: 'Second.', request_key: 'k-diff' });
    assert.equal(res.status, 422);
    assert.equal(res.body.code, 'svc_request_key_reused');
    assert.equal(await count('wp_posts', { post_type: 'svc_ticket', post_title: 'Keyed' }), 1);
  });

  it('keeps request keys per user: another user may use the same key', async () => {
    const a = await as(oracle.app, 'customer1').post(`${API}/tickets`).send({ subject: 'Mine', body: 'x', request_key: 'k-shared' });
    const b = await as(oracle.app, 'customer2').post(`${API}/tickets`).send({ subject: 'Mine', body: 'x', request_key: 'k-shared' });
    assert.equal(a.status, 201);
    assert.equal(b.status, 201);
    assert.notEqual(a.body.id, b.body.id);
  });

  it('refuses a missing or blank subject with WordPress errors, and stores nothing', async () => {
    const before = await count('wp_posts', { post_type: 'svc_ticket' });
    const missing = await as(oracle.app, 'customer1').post(`${API}/tickets`).send({ body: 'x' });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.code, 'rest_missing_callback_param');
    assert.deepEqual(missing.body.data.params, ['subject']);
    const blank = await as(oracle.app, 'customer1').post(`${API}/tickets`).send({ subject: '   ', body: 'x' });
    assert.equal(blank.status, 400);
    assert.equal(blank.body.code, 'rest_invalid_param');
    assert.equal(await count('wp_posts', { post_type: 'svc_ticket' }), before);
  });

  it('allows 20 tickets per hour per user, then answers 429 with Retry-After', async () => {
    const clock = oracle.clock;
    clock.advance(7200 * 1000);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 21; i++) {
        const res = await as(oracle.app, 'editor1').post(`${API}/tickets`).send({ subject: `Limit ${i}`, body: 'x' });
        statuses.push(res.status);
        if (i === 20) {
          assert.equal(res.body.code, 'rest_too_many_requests');
          assert.ok(Number(res.headers['retry-after']) > 0);
        }
      }
      assert.deepEqual(statuses, [...Array(20).fill(201), 429]);
    } finally {
      clock.set(1795355509 * 1000);
    }
  });

  it('answers a retry with a stored request_key from its stored ticket, without counting it against the limit', async () => {
    // A window of its own, far from the other tests' tickets.
    oracle.clock.advance(5 * 3600 * 1000);
    try {
      const send = (i: number, body = `Body ${i}`) =>
        as(oracle.app, 'customer1').post(`${API}/tickets`).send({ subject: `Retried ${i}`, body, request_key: `k-limit-${i}` });
      const hits = async () => {
        const rows = await oracle.site.db.knex('wp_svc_rate_limits').where({ bucket: `tickets.create:user:${credentials.application_passwords.customer1.user_id}` });
        return rows.reduce((sum: number, r: { hits: number }) => sum + Number(r.hits), 0);
      };
      const ids: number[] = [];
      for (let i = 0; i < 19; i++) {
        const res = await send(i);
        assert.equal(res.status, 201, res.text);
        ids.push(res.body.id);
      }
      const counted = await hits();

      // Retries of stored requests, many times over: each answers its ticket, and none is counted.
      for (let round = 0; round < 5; round++) {
        for (const i of [0, 18]) {
          const res = await send(i);
          assert.equal(res.status, 201, res.text);
          assert.equal(res.body.id, ids[i]);
          assert.equal(res.body.subject, `Retried ${i}`);
        }
      }
      assert.equal(await hits(), counted);

      // So the 20th new ticket of the hour is still allowed, and the 21st is not.
      const twentieth = await send(19);
      assert.equal(twentieth.status, 201, twentieth.text);
      const refused = await send(20);
      assert.equal(refused.status, 429);
      assert.equal(refused.body.code, 'rest_too_many_requests');

      // Past the limit, a retry still gets its stored ticket, and the same key with another body its 422.
      const first = await send(0);
      assert.equal(first.status, 201, first.text);
      assert.equal(first.body.id, ids[0]);
      const last = await send(19);
      assert.equal(last.status, 201, last.text);
      assert.equal(last.body.id, twentieth.body.id);
      const reused = await send(0, 'A different body.');
      assert.equal(reused.status, 422);
      assert.equal(reused.body.code, 'svc_request_key_reused');
      assert.equal(await count('wp_posts', { post_type: 'svc_ticket', post_title: 'Retried 0' }), 1);
      assert.equal(await count('wp_posts', { post_type: 'svc_ticket', post_title: 'Retried 20' }), 0);
      // The refused new request was counted, as refusals are; the retries after it were not.
      assert.equal(await hits(), counted + 2);
    } finally {
      oracle.clock.set(credentials.generated_at * 1000);
    }
  });
});
