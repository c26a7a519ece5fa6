/** `understudy seed --tickets N`: rows in the storage map's shape that the ticket routes serve like any other. */
import assert from 'node:assert/strict';
import { seedTickets } from '../../../../lib/support/seed/bulk-tickets';
import { API, as } from '../../../harness/support';
import { OracleSite, openOracle } from '../../../harness/oracle';

describe('seedTickets', function () {
  let oracle: OracleSite;
  before(async () => { oracle = await openOracle(); });
  after(async () => { await oracle.close(); });

  it('writes tickets with messages and meta in the storage map\'s shape, listed by the API', async () => {
    const result = await seedTickets(oracle.site, { tickets: 250, messagesPerTicket: 2, batchSize: 100 });
    assert.deepEqual(result, { tickets: 250, messages: 500 });
    const knex = oracle.site.db.knex;
    const tickets = await knex('wp_posts').where({ post_type: 'svc_ticket' }).count({ n: '*' }).first();
    assert.equal(Number((tickets as { n: number }).n), 450, '200 from the oracle plus 250 seeded');
    const newest = await knex('wp_posts').where({ post_type: 'svc_ticket' }).orderBy('ID', 'desc').first();
    assert.match(newest.post_status, /^svc-(open|waiting|resolved)$/);
    assert.equal(newest.post_name, `svc-ticket-${String(newest.ID).padStart(6, '0')}`);
    const meta = (await knex('wp_postmeta').where({ post_id: newest.ID })).map((m: { meta_key: string }) => m.meta_key).sort();
    assert.deepEqual(meta.filter((k: string) => k !== '_svc_assignee'), ['_svc_customer_email', '_svc_customer_name', '_svc_priority', '_svc_source', '_svc_version']);
    const messages = await knex('wp_posts').where({ post_type: 'svc_message', post_parent: newest.ID });
    assert.equal(messages.length, 2);
    const list = await as(oracle.app, 'agent1').get(`${API}/tickets`);
    assert.equal(list.headers['x-wp-total'], '450');
    const one = await as(oracle.app, 'agent1').get(`${API}/tickets/${newest.ID}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.messages.length, 2);
    assert.equal(one.body.version, 2);
  });

  it('spreads statuses and priorities as on a busy desk, deterministically for a given seed', async () => {
    const rows = await oracle.site.db.knex('wp_posts').where({ post_type: 'svc_ticket' }).where('ID', '>', 824).select('post_status');
    const share = (status: string) => rows.filter((r: { post_status: string }) => r.post_status === status).length / rows.length;
    assert.ok(share('svc-resolved') > 0.45 && share('svc-open') > 0.08 && share('svc-waiting') > 0.08, JSON.stringify(rows.length));
  });
});
