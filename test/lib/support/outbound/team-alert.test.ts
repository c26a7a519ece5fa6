/**
 * Team alerts to a real local HTTP receiver: the body exactly as the contract's section 6, the
 * headers and signature, the settings that switch them, and the retry schedule on an injected clock.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { teamAlertHandler } from '../../../../lib/support/jobs/handlers/team-alert';
import { JobWorker } from '../../../../lib/jobs/worker';
import { unixSeconds } from '../../../../lib/wp/clock';
import { API, as } from '../../../harness/support';
import { TestSite, jobsOf, openTestSite, setSupportSettings } from '../../../harness/site';
import { WebhookReceiver, startWebhookReceiver } from '../../../harness/webhook-receiver';

describe('team alerts', function () {
  let t: TestSite;
  let receiver: WebhookReceiver;
  let worker: JobWorker;
  before(async () => {
    receiver = await startWebhookReceiver();
    t = await openTestSite({ oracle: true });
    // Only alerts here: reply emails are another test's business.
    worker = new JobWorker(t.site, { handlers: { team_alert: teamAlertHandler() } });
  });
  after(async () => {
    await t?.close();
    await receiver?.close();
  });
  beforeEach(async () => {
    // Each test starts from an empty queue, so an earlier test's retry cannot fire in it.
    await t.site.db.knex(t.site.db.tables.plugin('svc', 'jobs')).del();
    receiver.received.length = 0;
    receiver.hold(false);
    await setSupportSettings(t.site, { alerts_url: `${receiver.url}/hook`, alerts_secret: '', alerts_preview: false, alerts_customer_replied: false });
  });

  const open = async (subject = 'Printer on fire', body = 'Smoke everywhere.') => {
    const res = await as(t.app, 'customer1').post(`${API}/tickets`).send({ subject, body });
    assert.equal(res.status, 201, res.text);
    return res.body;
  };
  const lastAlertJob = async () => (await jobsOf(t.site, 'team_alert')).pop();
  const isoNow = () => new Date(t.clock.now()).toISOString().replace(/\.\d{3}Z$/, '+00:00');

  it('posts ticket_created with exactly the contract\'s body, signed with the secret over the raw body', async () => {
    await setSupportSettings(t.site, { alerts_url: `${receiver.url}/hook`, alerts_secret: 's3cret', alerts_preview: false });
    const ticket = await open();
    await worker.runDueJobs();
    const [hook] = receiver.received;
    assert.ok(hook);
    assert.equal(receiver.received.length, 1);
    assert.deepEqual([hook.method, hook.path], ['POST', '/hook']);
    assert.deepEqual(hook.json, {
      event: 'ticket_created',
      title: `New ticket #${ticket.id}: Printer on fire`,
      url: `http://127.0.0.1:8081/wp-admin/admin.php?page=svc-tickets&ticket=${ticket.id}`,
      ticket: {
        id: ticket.id, subject: 'Printer on fire', status: 'open', priority: 'normal', source: 'api',
        customer_name: ticket.customer_name, customer_email: 'customer1@example.test', created_at: ticket.created_at, message: '',
      },
      sent_at: isoNow(),
    });
    assert.deepEqual(Object.keys(hook.json as object), ['event', 'title', 'url', 'ticket', 'sent_at']);
    assert.match(String(hook.headers['content-type']), /^application\/json/);
    assert.equal(hook.headers['x-svc-event'], 'ticket_created');
    assert.match(String(hook.headers['x-svc-delivery']), /^[0-9a-f]{32}$/);
    assert.match(String(hook.headers['user-agent']), /^Understudy\/\d+\.\d+\.\d+/);
    const expected = `sha256=${createHmac('sha256', 's3cret').update(hook.raw).digest('hex')}`;
    assert.equal(hook.headers['x-svc-signature'], expected);
    assert.equal((await lastAlertJob()).status, 'done');
  });

  it('fills ticket.message only with message preview on, and sends no signature without a secret', async () => {
    await setSupportSettings(t.site, { alerts_url: `${receiver.url}/hook`, alerts_preview: true });
    await open('Preview', 'First words of the customer.');
    await worker.runDueJobs();
    const [hook] = receiver.received;
    assert.equal((hook?.json as { ticket: { message: string } }).ticket.message, 'First words of the customer.');
    assert.equal(hook?.headers['x-svc-signature'], undefined);
  });

  it('sends customer_replied only when it is switched on, with the reply as the preview', async () => {
    const ticket = await open();
    await worker.runDueJobs();
    await as(t.app, 'customer1').post(`${API}/tickets/${ticket.id}/messages`).send({ body: 'Any news?', version: 1 });
    await worker.runDueJobs();
    assert.deepEqual(receiver.received.map((h) => h.headers['x-svc-event']), ['ticket_created'], 'off by default');
    assert.deepEqual((await jobsOf(t.site, 'team_alert')).map((j) => JSON.parse(j.payload).event), ['ticket_created'], 'and not queued while off');

    await setSupportSettings(t.site, { alerts_url: `${receiver.url}/hook`, alerts_customer_replied: true, alerts_preview: true });
    await as(t.app, 'customer1').post(`${API}/tickets/${ticket.id}/messages`).send({ body: 'Hello?', version: 2 });
    await worker.runDueJobs();
    const hook = receiver.received[1];
    const body = hook?.json as { event: string; title: string; ticket: { message: string } };
    assert.deepEqual([body.event, body.title, body.ticket.message], ['customer_replied', `Customer replied on #${ticket.id}: Printer on fire`, 'Hello?']);
  });

  it('retries after 503s at 1, 5 and 30 minutes with the same delivery id, then succeeds', async () => {
    receiver.answer(503, 503, 503);
    await open();
    const runAts: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const failedAt = unixSeconds(t.clock);
      await worker.runDueJobs();
      const job = await lastAlertJob();
      assert.deepEqual([job.status, job.attempts, job.last_error], ['queued', attempt, 'The receiver answered HTTP 503 Service Unavailable.']);
      runAts.push(Number(job.run_at) - failedAt);
      assert.equal(await worker.runDueJobs(), 0, 'not before its time');
      t.clock.set(Number(job.run_at) * 1000);
    }
    assert.deepEqual(runAts, [60, 300, 1800]);
    await worker.runDueJobs();
    assert.deepEqual([(await lastAlertJob()).status, (await lastAlertJob()).attempts], ['done', 4]);
    assert.equal(receiver.received.length, 4);
    assert.equal(new Set(receiver.received.map((h) => h.headers['x-svc-delivery'])).size, 1, 'receivers can drop repeats');
  });

  it('gives up after the third retry', async () => {
    receiver.answer(500, 502, 503, 504);
    await open();
    for (let i = 0; i < 4; i++) {
      await worker.runDueJobs();
      t.clock.advance(1800_000);
    }
    const job = await lastAlertJob();
    assert.deepEqual([job.status, job.attempts, job.last_error], ['failed', 4, 'The receiver answered HTTP 504 Gateway Timeout.']);
  });

  it('retries after a 429, and does not retry after a 404', async () => {
    receiver.answer(429);
    await open();
    await worker.runDueJobs();
    assert.equal((await lastAlertJob()).status, 'queued');
    t.clock.advance(60_000);
    await worker.runDueJobs();
    assert.equal((await lastAlertJob()).status, 'done');

    receiver.answer(404);
    await open();
    await worker.runDueJobs();
    t.clock.advance(3600_000);
    await worker.runDueJobs();
    const job = await lastAlertJob();
    assert.deepEqual([job.status, job.attempts, job.last_error], ['failed', 1, 'The receiver answered HTTP 404 Not Found.']);
  });

  it('retries after a timeout', async () => {
    receiver.hold(true);
    await open();
    const impatient = new JobWorker(t.site, { handlers: { team_alert: teamAlertHandler({ timeoutMs: 300 }) } });
    await impatient.runDueJobs();
    const job = await lastAlertJob();
    assert.deepEqual([job.status, job.attempts, job.last_error], ['queued', 1, 'No answer within 0.3 s.']);
    assert.equal(Number(job.run_at), unixSeconds(t.clock) + 60);
  });

  it('refuses a plain http:// URL that is not loopback, without connecting, and fails the job with the reason', async () => {
    await setSupportSettings(t.site, { alerts_url: 'http://alerts.example.com/hook' });
    await open();
    await worker.runDueJobs();
    const job = await lastAlertJob();
    assert.equal(job.status, 'failed');
    assert.match(job.last_error, /must start with https:\/\//);
  });

  it('queues nothing when no URL is set, and a job whose URL was removed before it ran ends done, unsent', async () => {
    await setSupportSettings(t.site, {});
    await open();
    assert.equal((await jobsOf(t.site, 'team_alert')).length, 0, 'no alert queued without a URL');

    await setSupportSettings(t.site, { alerts_url: `${receiver.url}/hook` });
    await open();
    await setSupportSettings(t.site, {});
    await worker.runDueJobs();
    assert.equal(receiver.received.length, 0);
    assert.equal((await lastAlertJob()).status, 'done');
  });
});
