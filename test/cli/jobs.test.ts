/**
 * `understudy jobs` and `understudy alerts test` against a scratch database, and the worker that
 * `understudy serve` runs: it delivers a queued alert while serving and stops with the server.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { runCli } from '../../lib/cli';
import { OpenedSite } from '../../lib/boot';
import { enqueueJob } from '../../lib/support/enqueue';
import { systemClock, unixSeconds } from '../../lib/wp/clock';
import { ScratchDatabase, scratchDatabase } from '../harness/db';
import { eventually } from '../harness/eventually';
import { WebhookReceiver, startWebhookReceiver } from '../harness/webhook-receiver';
import { capture, cli, envFor, openFor, scratchDir } from './cli-harness';

/** The timers that keep this process alive (a worker's tick left running would). */
function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
}

describe('understudy jobs and alerts', function () {
  let db: ScratchDatabase;
  let env: Record<string, string>;
  let opened: OpenedSite;
  let receiver: WebhookReceiver;

  before(async () => {
    db = await scratchDatabase();
    env = envFor(db.target);
    opened = await openFor(env);
    receiver = await startWebhookReceiver();
  });
  after(async () => {
    await opened?.site.close();
    await db?.drop();
    await receiver?.close();
  });

  const jobs = () => opened.site.db.knex(opened.site.db.tables.plugin('svc', 'jobs'));
  const T = 1_795_000_000;

  describe('jobs', () => {
    before(async () => {
      await jobs().del();
      await jobs().insert([
        { kind: 'team_alert', payload: '{"event":"ticket_created","ticket_id":7,"message_id":8}', status: 'done', run_at: T, attempts: 1, created_at: T, updated_at: T + 1 },
        { kind: 'email_delivery', payload: '{"delivery_id":9}', status: 'failed', run_at: T, attempts: 1, last_error: '550 Mailbox unavailable', created_at: T, updated_at: T + 2 },
        { kind: 'team_alert', payload: '{"event":"customer_replied","ticket_id":7,"message_id":10}', status: 'queued', run_at: T + 60, attempts: 1, last_error: 'The receiver answered HTTP 503 Service Unavailable.', created_at: T, updated_at: T + 3 },
      ]);
    });

    it('prints the counts per status and the latest jobs as JSON', async () => {
      const run = await cli(['jobs', '--format=json'], env);
      assert.equal(run.status, 0, run.stderr);
      const out = JSON.parse(run.stdout);
      assert.deepEqual(out.counts, { queued: 1, running: 0, failed: 1, done: 1 });
      assert.deepEqual(out.jobs.map((j: { kind: string; status: string }) => [j.kind, j.status]), [['team_alert', 'queued'], ['email_delivery', 'failed'], ['team_alert', 'done']]);
      assert.deepEqual(out.jobs[0], {
        id: out.jobs[0].id, kind: 'team_alert', status: 'queued', attempts: 1, run_at: new Date((T + 60) * 1000).toISOString().replace('.000Z', 'Z'),
        locked_by: null, locked_until: null, last_error: 'The receiver answered HTTP 503 Service Unavailable.',
        payload: { event: 'customer_replied', ticket_id: 7, message_id: 10 },
        created_at: new Date(T * 1000).toISOString().replace('.000Z', 'Z'), updated_at: new Date((T + 3) * 1000).toISOString().replace('.000Z', 'Z'),
      });
    });

    it('filters by status and prints a table by default', async () => {
      const json = JSON.parse((await cli(['jobs', '--format=json', '--status=failed'], env)).stdout);
      assert.deepEqual(json.jobs.map((j: { last_error: string }) => j.last_error), ['550 Mailbox unavailable']);
      const table = await cli(['jobs', '--status', 'failed'], env);
      const lines = table.stdout.trimEnd().split('\n');
      assert.equal(lines[0], 'queued: 1, running: 0, failed: 1, done: 1');
      assert.match(lines[2] ?? '', /^\| id +\| kind +\| status +\| attempts \| run_at +\| last_error +\| payload +\|$/);
      assert.match(lines[4] ?? '', /\| email_delivery \| failed +\| 1 +\| .* \| 550 Mailbox unavailable \| \{"delivery_id":9\} \|$/);
    });

    it('refuses an unknown status with status 1', async () => {
      const run = await cli(['jobs', '--status=lost'], env);
      assert.deepEqual([run.status, run.stderr], [1, "Error: Invalid value for --status: 'lost' (expected 'queued', 'running', 'failed', 'done')\n"]);
    });
  });

  describe('alerts test', () => {
    beforeEach(() => { receiver.received.length = 0; });

    it('sends a signed test event to the URL set with option patch and prints the receiver\'s answer', async () => {
      await cli(['option', 'patch', 'insert', 'svc_settings', 'alerts_url', `${receiver.url}/hook`], env);
      await cli(['option', 'patch', 'insert', 'svc_settings', 'alerts_secret', 'k3y'], env);
      const run = await cli(['alerts', 'test'], env);
      assert.deepEqual(run, { status: 0, stdout: `Success: Sent a test alert to ${receiver.url}/hook; the receiver answered HTTP 200.\n`, stderr: '' });
      const [hook] = receiver.received;
      const body = hook?.json as { event: string; ticket: Record<string, unknown> };
      assert.equal(body.event, 'test');
      assert.equal(hook?.headers['x-svc-event'], 'test');
      assert.deepEqual(Object.keys(body.ticket), ['id', 'subject', 'status', 'priority', 'source', 'customer_name', 'customer_email', 'created_at', 'message']);
      assert.equal(body.ticket.message, '');
      assert.equal(hook?.headers['x-svc-signature'], `sha256=${createHmac('sha256', 'k3y').update(hook?.raw ?? '').digest('hex')}`);
    });

    it('prints the URL and the receiver\'s status as JSON with --format=json', async () => {
      await cli(['option', 'patch', 'insert', 'svc_settings', 'alerts_url', `${receiver.url}/hook`], env);
      const run = await cli(['alerts', 'test', '--format=json'], env);
      assert.equal(run.status, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout), { url: `${receiver.url}/hook`, status: 200 });
    });

    it('reports the receiver\'s refusal with status 1', async () => {
      receiver.answer(404);
      const run = await cli(['alerts', 'test'], env);
      assert.deepEqual(run, { status: 1, stdout: '', stderr: 'Error: The receiver answered HTTP 404 Not Found.\n' });
    });

    it('reports a plain http:// URL to another host without sending anything', async () => {
      await cli(['option', 'patch', 'update', 'svc_settings', 'alerts_url', 'http://alerts.example.com/hook'], env);
      const run = await cli(['alerts', 'test'], env);
      assert.equal(run.status, 1);
      assert.match(run.stderr, /^Error: The team-alert URL must start with https:\/\/ \(plain http:\/\/ only for loopback addresses\), got "http:\/\/alerts\.example\.com\/hook"\.\n$/);
      assert.equal(receiver.received.length, 0);
    });

    it('says so when no URL is set', async () => {
      await cli(['option', 'delete', 'svc_settings'], env);
      const run = await cli(['alerts', 'test'], env);
      assert.deepEqual(run, { status: 1, stdout: '', stderr: 'Error: No team-alert URL is set (svc_settings key alerts_url).\n' });
    });
  });

  describe('the worker of serve', () => {
    it('delivers a job queued by another process while serving, and stops with the server', async () => {
      await cli(['option', 'update', 'svc_settings', JSON.stringify({ alerts_url: `${receiver.url}/hook` }), '--format=json'], env);
      await jobs().del();
      receiver.received.length = 0;
      const stderr = capture();
      const controller = new AbortController();
      const timersBefore = activeTimers();
      const done = runCli(['serve', '--port=0'], { env, cwd: scratchDir(), stdout: capture(), stderr, signal: controller.signal });
      await eventually(async () => stderr.text().includes(' at http://'), 20_000, 20);
      const id = await enqueueJob(opened.site.db.knex, opened.site.db.tables, 'team_alert', { event: 'test', ticket_id: 0 }, unixSeconds(systemClock));
      await eventually(async () => (await jobs().where({ id }).first()).status === 'done', 5000);
      assert.equal((receiver.received[0]?.json as { event: string }).event, 'test');
      controller.abort();
      assert.equal(await done, 0);
      // No timer left beside what ran before (the database driver's timers of the connections it closed run out within milliseconds).
      await eventually(async () => activeTimers() <= timersBefore, 2000, 10);
    });
  });
});
