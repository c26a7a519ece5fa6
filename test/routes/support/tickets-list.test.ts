/** GET /support/v1/tickets: who sees which tickets, filters, order and pagination. */
import assert from 'node:assert/strict';
import request from 'supertest';
import { API, as, ticketIdsOwnedBy } from '../../harness/support';
import { OracleSite, openOracle, phpConnection } from '../../harness/oracle';
import { eventually } from '../../harness/eventually';
import { loadTicketIndex } from '../../harness/desk';

describe('GET /support/v1/tickets', function () {
  let oracle: OracleSite;
  before(async () => { oracle = await openOracle(); });
  after(async () => { await oracle.close(); });

  it('lists every ticket to an agent, newest activity first, 20 per page with WordPress pagination headers', async () => {
    const res = await as(oracle.app, 'agent1').get(`${API}/tickets`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers['x-wp-total'], '200');
    assert.equal(res.headers['x-wp-totalpages'], '10');
    assert.equal(res.headers['cache-control'], 'private, no-store');
    assert.match(res.headers.link, /<http:\/\/127\.0\.0\.1:8081\/wp-json\/support\/v1\/tickets\?page=2>; rel="next"/);
    assert.equal(res.body.length, 20);
    const updated = res.body.map((t: { updated_at: string }) => t.updated_at);
    assert.deepEqual(updated, [...updated].sort().reverse());
    assert.deepEqual(Object.keys(res.body[0]), ['id', 'subject', 'status', 'priority', 'source', 'customer_name', 'customer_email', 'created_at', 'updated_at', 'version', 'assignee']);
    assert.match(res.body[0].created_at, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it('lists to a customer exactly the tickets they own, by author or by email', async () => {
    for (const [login, id, email] of [['customer1', 4, 'customer1@example.test'], ['customer2', 5, 'customer2@example.test']] as const) {
      const owned = await ticketIdsOwnedBy(oracle.site.db.knex, id, email);
      const res = await as(oracle.app, login).get(`${API}/tickets?per_page=100`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.map((t: { id: number }) => t.id).sort((a: number, b: number) => a - b), owned, login);
      assert.equal(res.headers['x-wp-total'], String(owned.length));
      assert.ok(res.body.every((t: Record<string, unknown>) => !('assignee' in t)), 'customers do not see the assignee');
    }
  });

  it('filters by status for everyone, and by priority and assignment for agents', async () => {
    const resolved = await as(oracle.app, 'agent1').get(`${API}/tickets?status=resolved&per_page=100`);
    assert.ok(resolved.body.length > 0 && resolved.body.every((t: { status: string }) => t.status === 'resolved'));
    const high = await as(oracle.app, 'agent1').get(`${API}/tickets?priority=high&per_page=100`);
    assert.ok(high.body.length > 0 && high.body.every((t: { priority: string }) => t.priority === 'high'));
    const mine = await as(oracle.app, 'agent1').get(`${API}/tickets?assignment=mine&per_page=100`);
    assert.ok(mine.body.length > 0 && mine.body.every((t: { assignee: number }) => t.assignee === 2));
    const unassigned = await as(oracle.app, 'agent1').get(`${API}/tickets?assignment=unassigned&per_page=100`);
    assert.ok(unassigned.body.length > 0 && unassigned.body.every((t: { assignee: unknown }) => t.assignee === null));
    assert.equal(Number(mine.headers['x-wp-total']) + Number(unassigned.headers['x-wp-total']) <= 200, true);
  });

  it('ignores agent-only filters from a customer instead of leaking other tickets', async () => {
    const all = await as(oracle.app, 'customer1').get(`${API}/tickets?per_page=100`);
    const filtered = await as(oracle.app, 'customer1').get(`${API}/tickets?per_page=100&assignment=unassigned&priority=high`);
    assert.deepEqual(filtered.body, all.body);
  });

  it('searches subject, customer name and email, and message text', async () => {
    const bySubject = await as(oracle.app, 'agent1').get(`${API}/tickets?search=${encodeURIComponent('Broken link in the confirmation')}`);
    assert.ok(bySubject.body.some((t: { id: number }) => t.id === 4));
    const byEmail = await as(oracle.app, 'agent1').get(`${API}/tickets?search=rosa.weber2`);
    assert.ok(byEmail.body.some((t: { id: number }) => t.id === 9));
    const byMessage = await as(oracle.app, 'agent1').get(`${API}/tickets?search=${encodeURIComponent('which browser are you using')}`);
    assert.ok(byMessage.body.some((t: { id: number }) => t.id === 4));
  });

  it('never lets a customer find a ticket by the text of an internal note', async () => {
    // "Escalated to engineering." appears only in internal notes (post_status private).
    const agent = await as(oracle.app, 'agent1').get(`${API}/tickets?search=${encodeURIComponent('Escalated to engineering')}&per_page=100`);
    assert.ok(agent.body.length > 0);
    for (const login of ['customer1', 'customer2'] as const) {
      const customer = await as(oracle.app, login).get(`${API}/tickets?search=${encodeURIComponent('Escalated to engineering')}&per_page=100`);
      assert.equal(customer.status, 200);
      assert.deepEqual(customer.body, [], login);
    }
  });

  it('refuses anonymous callers with 401 and bad arguments with 400 before that', async () => {
    const anonymous = await request(oracle.app).get(`${API}/tickets`);
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.body.code, 'rest_forbidden');
    const bad = await request(oracle.app).get(`${API}/tickets?status=closed`);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'rest_invalid_param');
    const past = await as(oracle.app, 'agent1').get(`${API}/tickets?page=11`);
    assert.equal(past.status, 400);
    assert.equal(past.body.code, 'rest_post_invalid_page_number');
  });

  const queriesOf = async (send: () => Promise<unknown>) => {
    const seen: string[] = [];
    const listener = (q: { sql: string }) => seen.push(q.sql);
    oracle.site.db.knex.on('query', listener);
    try {
      await send();
    } finally {
      oracle.site.db.knex.removeListener('query', listener);
    }
    return seen.filter((sql) => /wp_posts|wp_postmeta/.test(sql) && !/svc_/.test(sql));
  };

  it('once warm, lists from memory: a page seen before costs no query, a new one reads only its tickets by ID', async () => {
    await loadTicketIndex(oracle.site);
    await as(oracle.app, 'agent1').get(`${API}/tickets?priority=normal&per_page=10&page=3`);
    assert.deepEqual(await queriesOf(() => as(oracle.app, 'agent1').get(`${API}/tickets?priority=normal&per_page=10&page=3`)), []);
    const later = await queriesOf(() => as(oracle.app, 'agent1').get(`${API}/tickets?status=resolved&per_page=7&page=4`));
    // No sort, no count, no filter in SQL: the page's tickets by ID, then their meta.
    assert.ok(later.length <= 2, later.join('\n'));
    for (const sql of later) assert.doesNotMatch(sql, /count\(|order by `p`.`post_modified`|limit/i);
    if (later.length) assert.match(later[0] as string, /`p`.`ID` in \(/);
  });

  it('shows this process\'s own changes at once', async () => {
    await as(oracle.app, 'agent1').get(`${API}/tickets`);
    const created = await as(oracle.app, 'customer1').post(`${API}/tickets`).send({ subject: 'Fresh one', body: 'x' });
    const list = await as(oracle.app, 'agent1').get(`${API}/tickets`);
    assert.equal(list.body[0].id, created.body.id);
    assert.equal(list.headers['x-wp-total'], '201');
  });

  it('shows a ticket changed by PHP behind its back within 2 seconds', async () => {
    const first = await as(oracle.app, 'agent1').get(`${API}/tickets?status=waiting`);
    const target = (await as(oracle.app, 'agent1').get(`${API}/tickets?status=resolved&per_page=1`)).body[0].id;
    await oracle.site.db.knex('wp_posts').where({ ID: target }).update({ post_status: 'svc-waiting', post_modified: '2027-01-01 00:00:00' });
    const started = Date.now();
    await eventually(async () => (await as(oracle.app, 'agent1').get(`${API}/tickets?status=waiting`)).body[0]?.id === target, 2000);
    assert.ok(Date.now() - started < 2000);
    assert.notEqual(first.body[0].id, target);
  });
  // Each listed ticket is encoded once and kept (lib/support/tickets/present.ts): these show that a
  // kept answer never outlives the ticket, the viewer's view of it, or the list's size.
  it('answers a ticket changed since a list kept it as it is now, and each viewer as that viewer sees it', async () => {
    const url = `${API}/tickets?status=open&per_page=5`;
    const [listed] = (await as(oracle.app, 'agent1').get(url)).body;
    assert.ok('assignee' in listed);
    const priority = listed.priority === 'high' ? 'low' : 'high';
    const patched = await as(oracle.app, 'agent1').patch(`${API}/tickets/${listed.id}`).send({ version: listed.version, priority });
    assert.equal(patched.status, 200, patched.text);
    const again = (await as(oracle.app, 'agent1').get(url)).body.find((t: { id: number }) => t.id === listed.id);
    assert.deepEqual([again.priority, again.version], [priority, patched.body.version]);
    const asCustomer = await as(oracle.app, 'agent1').get(url).set('X-Svc-View', 'customer');
    assert.ok(asCustomer.body.length && asCustomer.body.every((t: Record<string, unknown>) => !('assignee' in t)), 'the customer view of a kept page');
    assert.ok((await as(oracle.app, 'agent1').get(url)).body.every((t: Record<string, unknown>) => 'assignee' in t), 'the agent view again');
  });

  it('filters, pretty-prints and envelopes a kept page as any other answer', async () => {
    const url = `${API}/tickets?status=open&per_page=5`;
    const plain = await as(oracle.app, 'agent1').get(url);
    const fields = await as(oracle.app, 'agent1').get(`${url}&_fields=id,priority`);
    assert.deepEqual(fields.body, plain.body.map((t: { id: number; priority: string }) => ({ id: t.id, priority: t.priority })));
    const pretty = await as(oracle.app, 'agent1').get(`${url}&_pretty=1`);
    assert.equal(pretty.text, JSON.stringify(plain.body, null, 4).replace(/\//g, '\\/'));
    const envelope = await as(oracle.app, 'agent1').get(`${url}&_envelope=1`);
    assert.deepEqual(envelope.body.body, plain.body);
  });

  it('links the next page as soon as the list outgrows its last page', async () => {
    const total = Number((await as(oracle.app, 'agent1').get(`${API}/tickets?status=open&per_page=1`)).headers['x-wp-total']);
    const url = `${API}/tickets?status=open&per_page=${total}`;
    assert.doesNotMatch((await as(oracle.app, 'agent1').get(url)).headers.link, /rel="next"/, 'one page: no next');
    await as(oracle.app, 'customer1').post(`${API}/tickets`).send({ subject: 'One more', body: 'x' });
    const grown = await as(oracle.app, 'agent1').get(url);
    assert.equal(grown.headers['x-wp-totalpages'], '2');
    assert.match(grown.headers.link, /[?&]page=2>; rel="next"/);
  });

  it('stops showing agent fields to an agent demoted by PHP within 2 seconds', async () => {
    const url = `${API}/tickets?per_page=5`;
    assert.ok((await as(oracle.app, 'agent1').get(url)).body.every((t: Record<string, unknown>) => 'assignee' in t));
    const php = phpConnection(oracle);
    try {
      await php('wp_usermeta').where({ user_id: 2, meta_key: 'wp_capabilities' }).update({ meta_value: 'a:1:{s:10:"subscriber";b:1;}' });
    } finally {
      await php.destroy();
    }
    await eventually(async () => (await as(oracle.app, 'agent1').get(url)).body.every((t: Record<string, unknown>) => !('assignee' in t)), 2000);
  });
});
