/**
 * Health, metrics and request logs of `understudy serve` (docs/deploy.md): health at /-/health/*,
 * metrics only on the configured loopback port or behind the token (never on the public port
 * otherwise), and one JSON line per request holding no secret, cookie or body.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { demoFixture, seedDemoSite } from '../../lib/demo/seed';
import { jobsTable } from '../../lib/jobs/queue';
import { unixSeconds } from '../../lib/wp/clock';
import { envFor, openFor } from '../cli/cli-harness';
import { ScratchDatabase, scratchDatabase } from '../harness/db';
import { eventually } from '../harness/eventually';
import { StartedServe, requestRecords, startServe } from './serve-harness';

const demoUser = (login: string) => demoFixture.users.find((u) => u.login === login)!;
const password = demoUser('agent').application_password.password;
const basic = `Basic ${Buffer.from(`agent:${password}`).toString('base64')}`;

describe('serve in production: health, metrics, request logs', function () {
  let db: ScratchDatabase;
  let env: Record<string, string>;

  before(async () => {
    db = await scratchDatabase();
    env = envFor(db.target, { WP_ENVIRONMENT_TYPE: 'local', LOG_FORMAT: 'json' });
    const { site } = await openFor(env);
    try {
      await seedDemoSite(site);
    } finally {
      await site.close();
    }
  });
  after(async () => { await db?.drop(); });

  describe('with --metrics-port', () => {
    let server: StartedServe;
    let metricsUrl: string;
    before(async () => {
      server = await startServe(['serve', '--port=0', '--metrics-port=0'], env);
      metricsUrl = /Metrics for Prometheus at ([^\s"]+)/.exec(server.stderr.text())?.[1] as string;
    });
    after(async () => { assert.equal(await server.stop(), 0); });

    it('answers liveness and readiness outside every plugin namespace, as JSON that says nothing private', async () => {
      const live = await request(server.url).get('/-/health/live');
      assert.deepEqual([live.status, live.body], [200, { status: 'live' }]);
      const ready = await request(server.url).get('/-/health/ready');
      assert.equal(ready.status, 200, ready.text);
      assert.deepEqual(ready.body, { status: 'ready', checks: { database: 'ok', storage: 'ok', jobs: 'ok' } });
      assert.equal(ready.headers['cache-control'], 'no-store');
      assert.equal((await request(server.url).post('/-/health/ready')).status, 405);
    });

    it('serves metrics on the loopback metrics port only: requests by route pattern and status, latency, the job queue', async () => {
      assert.match(metricsUrl, /^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      assert.equal((await request(server.url).get('/wp-json/support/v1/tickets?per_page=2').set('Authorization', basic)).status, 200);
      assert.equal((await request(server.url).get('/wp-json/support/v1/tickets/999999').set('Authorization', basic)).status, 404);
      // admin-ajax by its action when the action is one of ours; any other name invents no label.
      assert.equal((await request(server.url).get('/wp-admin/admin-ajax.php?action=logged-in')).status, 400);
      assert.equal((await request(server.url).get('/wp-admin/admin-ajax.php?action=made-up-label-123')).status, 400);
      const text = (await request(metricsUrl.replace(/\/metrics$/, '')).get('/metrics')).text;
      assert.match(text, /understudy_http_requests_total\{route="admin-ajax:logged-in",method="GET",status="400"\} 1/);
      assert.match(text, /understudy_http_requests_total\{route="admin-ajax",method="GET",status="400"\} 1/);
      assert.doesNotMatch(text, /made-up-label-123/);
      assert.match(text, /understudy_http_requests_total\{route="\/support\/v1\/tickets",method="GET",status="200"\} 1/);
      assert.match(text, /understudy_http_requests_total\{route="\/support\/v1\/tickets\/\{id\}",method="GET",status="404"\} 1/);
      assert.match(text, /understudy_http_request_duration_seconds_bucket\{le="\+Inf",route="\/support\/v1\/tickets",method="GET"\} 1/);
      assert.match(text, /understudy_jobs_due 0/);
      assert.match(text, /understudy_jobs_oldest_due_age_seconds 0/);
      // The caches' loads: WordPress options and users for the sign-in, the ticket index for the list.
      for (const cache of ['options', 'users', 'ticket_index']) assert.match(text, new RegExp(`understudy_cache_reloads_total\\{cache="${cache}"\\} [1-9]`), cache);
      // Not on the public port, not even with a token-looking header: it is no route there.
      const open = await request(server.url).get('/-/metrics').set('Authorization', 'Bearer anything-at-all-here');
      assert.equal(open.status, 404);
      assert.doesNotMatch(open.text, /understudy_/);
      assert.equal((await request(server.url).get('/metrics')).status, 404);
    });

    it('turns not ready while a due job waits too long (the queue is stuck), and ready again once it is gone', async () => {
      const { site } = await openFor(env);
      try {
        const now = unixSeconds(site.clock);
        const [id] = await site.db.knex(jobsTable(site.db.tables)).insert({
          kind: 'no_worker_runs_this', payload: '{}', status: 'queued', run_at: now - 600, attempts: 0, created_at: now - 600, updated_at: now - 600,
        });
        let last: request.Response | undefined;
        await eventually(async () => { last = await request(server.url).get('/-/health/ready'); return last.status === 503; }, 5000);
        assert.deepEqual(last?.body, { status: 'not_ready', checks: { database: 'ok', storage: 'ok', jobs: 'failed' } });
        const text = (await request(metricsUrl.replace(/\/metrics$/, '')).get('/metrics')).text;
        assert.match(text, /understudy_jobs_due 1/);
        assert.match(text, /understudy_jobs_oldest_due_age_seconds (6\d\d)/);
        await site.db.knex(jobsTable(site.db.tables)).where({ id }).del();
        await eventually(async () => (await request(server.url).get('/-/health/ready')).status === 200, 5000);
      } finally {
        await site.close();
      }
    });

    it('logs one JSON line per request with its id, route, status, duration and user, and never a credential, cookie, query or body', async () => {
      const secrets = [password, basic.slice(6), 'cookie-secret-value-123', 'nonce-secret-456', 'query-secret-789', 'body-secret-000'];
      const res = await request(server.url).post('/wp-json/support/v1/tickets?_wpnonce=query-secret-789')
        .set('Authorization', basic).set('Cookie', 'wordpress_logged_in_abc=cookie-secret-value-123; other=cookie-secret-value-123')
        .set('X-WP-Nonce', 'nonce-secret-456').set('X-Request-Id', 'trace-42.a')
        .send({ subject: 'body-secret-000', message: 'body-secret-000' });
      assert.equal(res.headers['x-request-id'], 'trace-42.a');
      const record = requestRecords(server.stderr.text()).find((r) => r.request_id === 'trace-42.a');
      assert.ok(record, server.stderr.text());
      assert.deepEqual(
        [record.method, record.route, record.path, record.status, typeof record.duration_ms, record.msg],
        ['POST', '/support/v1/tickets', '/wp-json/support/v1/tickets', res.status, 'number', 'request'],
      );
      assert.ok(Number(record.user_id) > 0);
      for (const secret of secrets) assert.ok(!server.stderr.text().includes(secret), `the log holds ${secret}`);

      // A request id that is not a short token is replaced by one of ours, and returned.
      const made = await request(server.url).get('/-/health/live').set('X-Request-Id', 'a b <script>');
      assert.match(made.headers['x-request-id'], /^[0-9a-f-]{36}$/);
    });
  });

  describe('with METRICS_TOKEN (no metrics port)', () => {
    let server: StartedServe;
    const token = 'metrics-token-0123456789abcdef';
    before(async () => { server = await startServe(['serve', '--port=0'], { ...env, METRICS_TOKEN: token }); });
    after(async () => { assert.equal(await server.stop(), 0); });

    it('answers /-/metrics only with the bearer token, and opens no metrics port', async () => {
      assert.doesNotMatch(server.stderr.text(), /Metrics for Prometheus/);
      assert.equal((await request(server.url).get('/-/metrics')).status, 401);
      const wrong = await request(server.url).get('/-/metrics').set('Authorization', `Bearer ${token.replace(/f$/, 'e')}`);
      assert.equal(wrong.status, 401);
      assert.doesNotMatch(wrong.text, /understudy_/);
      const ok = await request(server.url).get('/-/metrics').set('Authorization', `Bearer ${token}`);
      assert.equal(ok.status, 200);
      assert.match(ok.headers['content-type'], /^text\/plain/);
      assert.match(ok.text, /understudy_http_requests_total\{route="\/-\/metrics",method="GET",status="401"\} 2/);
      assert.ok(!server.stderr.text().includes(token), 'the token is never logged');
    });
  });
});
