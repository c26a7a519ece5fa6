/**
 * Form notifications through the durable job queue, against a real SMTP server that is down when the
 * visitor submits and comes up later: the visitor is answered at once, the email waits in svc_jobs,
 * each failed try is rescheduled on the queue's delays (an injected clock moves, nothing waits), and
 * the first try after the server is back delivers it exactly once. `understudy jobs` shows the job.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { NOTIFICATION_RETRY_DELAYS } from '../../../lib/forms/notifications';
import { JobWorker } from '../../../lib/jobs/worker';
import { jobHandlers } from '../../../lib/worker';
import { cli, envFor } from '../../cli/cli-harness';
import { insertFormRow, submissionRows } from '../../harness/forms';
import { TestSite, jobsOf, openTestSite } from '../../harness/site';
import { SmtpCapture, startSmtpCapture } from '../../harness/smtp';

const OWNER_ACTION = {
  type: 'email', to: 'owner@example.test', from: 'forms@example.test', subject: 'New message from [name]',
  message: 'From [name] <[email]>:\n[message]', content_type: 'text/plain', headers: 'Reply-To: [name] <[email]>',
};
const SETTINGS = { required_fields: 'name,email', email_fields: 'email', actions: [OWNER_ACTION] };

describe('form notifications through the job queue, with the SMTP server down and then up', function () {
  let t: TestSite;
  let port: number;
  let smtp: SmtpCapture | null = null;

  before(async () => {
    // A port where an SMTP server was and is no more: connections to it are refused until one starts there again.
    const gone = await startSmtpCapture();
    port = Number(new URL(gone.url).port);
    await gone.close();
    t = await openTestSite({ smtpUrl: `smtp://127.0.0.1:${port}` });
  });
  after(async () => {
    await serverDown();
    await t?.close();
  });
  afterEach(async () => {
    await serverDown();
    await jobs().del();
  });

  const jobs = () => t.site.db.knex(t.site.db.tables.plugin('svc', 'jobs'));
  const notifications = async (): Promise<Array<Record<string, any>>> => (await jobsOf(t.site, 'form_notification')).map((row: Record<string, any>) => ({
    ...row, attempts: Number(row.attempts), run_at: Number(row.run_at), payload: JSON.parse(row.payload),
  }));
  const nowSeconds = () => Math.floor(t.clock.now() / 1000);
  const advance = (seconds: number) => t.clock.set(t.clock.now() + seconds * 1000);
  /** One run of the worker `serve` runs (every kind's handler), over the jobs due by the injected clock. */
  const runJobs = () => new JobWorker(t.site, { handlers: jobHandlers() }).runDueJobs();
  async function serverUp(): Promise<SmtpCapture> {
    smtp = await startSmtpCapture({ port });
    return smtp;
  }
  async function serverDown(): Promise<void> {
    await smtp?.close();
    smtp = null;
  }
  const submit = (id: number, fields: Record<string, string> = {}) => request(t.app).post('/wp-admin/admin-ajax.php').type('form')
    .send({ action: 'frm_form_submit', _frm_form_id: String(id), [`_frm_h${id}`]: '', name: 'Ada', email: 'ada@example.test', message: 'Hello', ...fields });

  it('answers at once, retries on the queue\'s delays while the server is down, then delivers exactly one email', async () => {
    const formId = await insertFormRow(t.site, { settings: SETTINGS });
    const submittedAt = nowSeconds();
    const res = await submit(formId);
    assert.deepEqual(res.body, { message: { type: 'success', text: 'Thank you! We will be in touch soon.' }, hide_form: false });
    const [row] = await submissionRows(t.site, formId);
    const [queued, ...more] = await notifications();
    assert.deepEqual(more, []);
    assert.deepEqual([queued?.status, queued?.attempts, queued?.run_at, queued?.last_error], ['queued', 0, submittedAt, null]);
    assert.deepEqual({ ...queued?.payload, message: undefined }, { form_id: formId, submission_id: Number(row?.id), action: 0, message: undefined });
    const composed = queued?.payload.message;
    assert.deepEqual({ ...composed, messageId: undefined }, {
      to: ['owner@example.test'], from: 'forms@example.test', replyTo: '"Ada" <ada@example.test>', subject: 'New message from Ada',
      text: 'From Ada <ada@example.test>:\nHello', headers: {}, messageId: undefined,
    });
    assert.match(composed.messageId, new RegExp(`^<frm\\.${formId}\\.[0-9a-f]{16}@127\\.0\\.0\\.1>$`));

    // First try: the server is down; the job goes back to the queue for the first delay.
    assert.equal(await runJobs(), 1);
    let [job] = await notifications();
    assert.deepEqual([job?.status, job?.attempts, job?.run_at], ['queued', 1, submittedAt + NOTIFICATION_RETRY_DELAYS[0]]);
    assert.match(String(job?.last_error), /ECONNREFUSED/);
    assert.equal(await runJobs(), 0, 'not due before its time');
    advance(NOTIFICATION_RETRY_DELAYS[0] - 1);
    assert.equal(await runJobs(), 0, 'not due a second early');
    advance(1);
    assert.equal(await runJobs(), 1);
    [job] = await notifications();
    assert.deepEqual([job?.status, job?.attempts, job?.run_at], ['queued', 2, nowSeconds() + NOTIFICATION_RETRY_DELAYS[1]]);

    // The server comes up; the next try delivers.
    const server = await serverUp();
    advance(NOTIFICATION_RETRY_DELAYS[1]);
    assert.equal(await runJobs(), 1);
    [job] = await notifications();
    assert.deepEqual([job?.status, job?.attempts, job?.last_error], ['done', 3, null]);
    assert.deepEqual(job?.payload, { form_id: formId, submission_id: Number(row?.id), action: 0, message_id: composed.messageId }, 'the sent email leaves the table');
    const [mail, ...others] = server.sentEmails();
    assert.deepEqual(others, [], 'exactly one email');
    assert.deepEqual(mail?.envelopeTo, ['owner@example.test']);
    assert.equal(mail?.envelopeFrom, 'forms@example.test');
    assert.equal(mail?.parsed.subject, 'New message from Ada');
    assert.deepEqual(mail?.parsed.replyTo?.value.map((a) => [a.name, a.address]), [['Ada', 'ada@example.test']]);
    assert.equal(mail?.parsed.text?.trim(), 'From Ada <ada@example.test>:\nHello');
    assert.equal(mail?.parsed.messageId, composed.messageId);
    advance(86_400);
    assert.equal(await runJobs(), 0);
    assert.equal(server.sentEmails().length, 1, 'never sent again');
  });

  it('is listed by `understudy jobs`, waiting with its last error, and done once sent', async () => {
    const formId = await insertFormRow(t.site, { settings: SETTINGS });
    await submit(formId);
    await runJobs();
    const env = envFor(t.scratch.target);
    const waiting = await cli(['jobs', '--format=json'], env);
    assert.equal(waiting.status, 0, waiting.stderr);
    const listed = JSON.parse(waiting.stdout);
    assert.deepEqual(listed.counts, { queued: 1, running: 0, failed: 0, done: 0 });
    const [entry] = listed.jobs;
    assert.deepEqual([entry.kind, entry.status, entry.attempts, entry.run_at], ['form_notification', 'queued', 1, new Date((nowSeconds() + 60) * 1000).toISOString().replace('.000Z', 'Z')]);
    assert.match(entry.last_error, /ECONNREFUSED/);
    assert.equal(entry.payload.form_id, formId);
    assert.equal(entry.payload.message.subject, 'New message from Ada');
    const waitingTable = (await cli(['jobs'], env)).stdout.split('\n');
    const cell = waitingTable[4]?.split(' | ').at(-1)?.replace(/ \|$/, '');
    assert.equal(Array.from(cell ?? '').length, 80, 'the table cuts the payload');
    assert.match(String(cell), /^\{"form_id":\d+,"submission_id":\d+,"action":0,"message":\{.*…$/);
    await serverUp();
    advance(60);
    await runJobs();
    const table = await cli(['jobs'], env);
    assert.equal(table.status, 0, table.stderr);
    assert.equal(table.stdout.split('\n')[0], 'queued: 0, running: 0, failed: 0, done: 1');
    assert.match(table.stdout, /\| form_notification \| done +\| 2 +\| .* \| \{"form_id":\d+,"submission_id":\d+,"action":0,"message_id":"<frm\.\d+\.[0-9a-f]+… \|$/m);
    const [sent] = JSON.parse((await cli(['jobs', '--format=json'], env)).stdout).jobs;
    assert.deepEqual(Object.keys(sent.payload), ['form_id', 'submission_id', 'action', 'message_id'], 'the email is no longer kept');
  });

  it('fails the job for good once the delays are spent, keeping the email and the submission', async () => {
    const formId = await insertFormRow(t.site, { settings: SETTINGS });
    await submit(formId);
    for (const delay of NOTIFICATION_RETRY_DELAYS) {
      assert.equal(await runJobs(), 1);
      const [job] = await notifications();
      assert.deepEqual([job?.status, job?.run_at], ['queued', nowSeconds() + delay]);
      advance(delay);
    }
    assert.equal(await runJobs(), 1);
    const [job] = await notifications();
    assert.deepEqual([job?.status, job?.attempts], ['failed', NOTIFICATION_RETRY_DELAYS.length + 1]);
    assert.match(String(job?.last_error), /ECONNREFUSED/);
    assert.equal(job?.payload.message.subject, 'New message from Ada', 'the email stays for people to see');
    assert.equal((await submissionRows(t.site, formId)).length, 1);
  });

  it('fails at once, without retries, when the server rejects every recipient for good (550)', async () => {
    const formId = await insertFormRow(t.site, { settings: SETTINGS });
    const server = await serverUp();
    server.refuseRecipients('Mailbox unavailable');
    await submit(formId);
    assert.equal(await runJobs(), 1);
    const [job] = await notifications();
    assert.deepEqual([job?.status, job?.attempts], ['failed', 1]);
    assert.match(String(job?.last_error), /550 Mailbox unavailable/);
    assert.equal(server.sentEmails().length, 0);
  });

  it('still sends from a form that does not save submissions: one job per email action, no submission row', async () => {
    const copy = { ...OWNER_ACTION, to: '[name] <[email]>', subject: 'We got your message', headers: '' };
    const formId = await insertFormRow(t.site, { settings: { ...SETTINGS, save_submissions: '0', actions: [OWNER_ACTION, { type: 'webhook' }, copy] } });
    const server = await serverUp();
    await submit(formId);
    assert.deepEqual((await notifications()).map((j) => [j.payload.submission_id, j.payload.action]), [[null, 0], [null, 2]]);
    assert.equal(await runJobs(), 2);
    assert.deepEqual(server.sentEmails().map((m) => [m.envelopeTo, m.parsed.subject]).sort(), [
      [['ada@example.test'], 'We got your message'], [['owner@example.test'], 'New message from Ada'],
    ]);
    assert.equal((await submissionRows(t.site, formId)).length, 0);
  });

  it('queues nothing for spam, a refused submission, or an action with no recipient', async () => {
    const formId = await insertFormRow(t.site, { settings: SETTINGS });
    const spam = await submit(formId, { [`_frm_h${formId}`]: 'http://spam.example' });
    assert.equal(spam.body.message.type, 'success');
    assert.equal((await submit(formId, { email: 'ada@' })).body.message.type, 'error');
    const nobody = await insertFormRow(t.site, { settings: { actions: [{ ...OWNER_ACTION, to: '[missing]' }] } });
    assert.equal((await submit(nobody)).body.message.type, 'success');
    assert.deepEqual(await notifications(), []);
    assert.deepEqual((await submissionRows(t.site, formId)).map((r) => r.is_spam), [1]);
  });

  it('stores nothing when its notification cannot be queued: the submission and its jobs commit together', async () => {
    const formId = await insertFormRow(t.site, { settings: SETTINGS });
    const table = t.site.db.tables.plugin('svc', 'jobs');
    await t.site.db.knex.schema.renameTable(table, `${table}_away`);
    try {
      const res = await submit(formId);
      assert.equal(res.status, 500);
      assert.equal(res.body.message.type, 'error');
    } finally {
      await t.site.db.knex.schema.renameTable(`${table}_away`, table);
    }
    assert.deepEqual(await submissionRows(t.site, formId), []);
  });
});
