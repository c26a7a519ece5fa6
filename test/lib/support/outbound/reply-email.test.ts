/**
 * Emailing agents' public replies: a real SMTP server receives the customer's copy with threading
 * headers and attachments; cancelled deliveries stay unsent; a refused send is recorded and the
 * agent's retry sends it; a crash mid-send sends the same message again.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { JobQueue } from '../../../../lib/jobs/queue';
import { beginDeliveryAttempt } from '../../../../lib/support/outbound/delivery-state';
import { supportJobHandlers } from '../../../../lib/support/jobs/handlers';
import { JobWorker } from '../../../../lib/jobs/worker';
import { fixedClock } from '../../../../lib/wp/clock';
import { addPostMeta, insertPost } from '../../../../lib/wp/posts';
import { API, as } from '../../../harness/support';
import { TestSite, jobsOf, openTestSite } from '../../../harness/site';
import { SmtpCapture, startSmtpCapture } from '../../../harness/smtp';

describe('email deliveries of agents\' replies', function () {
  let t: TestSite;
  let smtp: SmtpCapture;
  let worker: JobWorker;
  before(async () => {
    smtp = await startSmtpCapture();
    t = await openTestSite({ oracle: true, smtpUrl: smtp.url });
    worker = new JobWorker(t.site, { handlers: supportJobHandlers() });
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });
  beforeEach(() => {
    smtp.clear();
    smtp.refuseRecipients(null);
  });

  const messageIdOf = async (messageId: number) =>
    (await t.site.db.knex('wp_postmeta').where({ post_id: messageId, meta_key: '_svc_message_id' }).first()).meta_value as string;
  const delivery = async (ticketId: number, messageId: number) => {
    const seen = await as(t.app, 'agent1').get(`${API}/tickets/${ticketId}`);
    return seen.body.messages.find((m: { id: number }) => m.id === messageId).deliveries[0];
  };
  const open = async (subject: string) => (await as(t.app, 'customer1').post(`${API}/tickets`).send({ subject, body: 'My export fails.' })).body;
  const agentReply = async (ticketId: number, version: number, body: string) => {
    const res = await as(t.app, 'agent1').post(`${API}/tickets/${ticketId}/messages`).send({ body, version });
    assert.equal(res.status, 201, res.text);
    return res.body;
  };

  it('emails the reply to the customer from the site, threaded to the conversation, with its files', async () => {
    const ticket = await open('Export fails');
    const first = ticket.messages[0].id;
    const reply = await as(t.app, 'agent1').post(`${API}/tickets/${ticket.id}/messages`)
      .field('body', 'Please try the attached settings.').field('version', '1')
      .attach('files[]', Buffer.from('timeout=30\n'), { filename: 'settings.ini', contentType: 'text/plain' });
    assert.equal(reply.status, 201, reply.text);
    await worker.runDueJobs();

    const [mail] = await smtp.waitForEmails(1);
    assert.ok(mail);
    const { parsed } = mail;
    assert.deepEqual(mail.envelopeTo, ['customer1@example.test']);
    assert.equal(parsed.from?.text, '"WP Oracle" <admin@example.test>');
    assert.deepEqual(parsed.to && !Array.isArray(parsed.to) ? parsed.to.value.map((a) => a.address) : null, ['customer1@example.test']);
    assert.equal(parsed.replyTo?.value[0]?.address, 'admin@example.test');
    assert.equal(parsed.subject, `Re: Export fails [#${ticket.id}]`);
    assert.equal(parsed.messageId, await messageIdOf(reply.body.id));
    assert.equal(parsed.inReplyTo, await messageIdOf(first));
    assert.deepEqual([parsed.references].flat(), [await messageIdOf(first)]);
    assert.equal(parsed.text?.trim(), 'Please try the attached settings.');
    assert.deepEqual(parsed.attachments.map((a) => [a.filename, a.contentType, a.content.toString()]), [['settings.ini', 'text/plain', 'timeout=30\n']]);

    const sent = await delivery(ticket.id, reply.body.id);
    assert.deepEqual([sent.status, sent.attempts, sent.last_error], ['sent', 1, '']);
    assert.equal((await jobsOf(t.site, 'email_delivery')).pop().status, 'done');
  });

  it('threads a later reply to the customer\'s last message and leaves internal notes out of References', async () => {
    const ticket = await open('Login loop');
    const m1 = ticket.messages[0].id;
    const m2 = (await agentReply(ticket.id, 1, 'Clear your cookies, please.')).id;
    await as(t.app, 'agent1').post(`${API}/tickets/${ticket.id}/messages`).send({ body: 'Probably the SSO bug.', version: 2, visibility: 'internal' });
    const m3 = (await as(t.app, 'customer1').post(`${API}/tickets/${ticket.id}/messages`).send({ body: 'Still looping.', version: 3 })).body.id;
    const m4 = (await agentReply(ticket.id, 4, 'Fixed on our side.')).id;
    await worker.runDueJobs();

    const mails = await smtp.waitForEmails(2);
    const last = mails.find((m) => m.parsed.text?.includes('Fixed on our side.'));
    assert.ok(last);
    assert.equal(last.parsed.messageId, await messageIdOf(m4));
    assert.equal(last.parsed.inReplyTo, await messageIdOf(m3));
    assert.deepEqual([last.parsed.references].flat(), [await messageIdOf(m1), await messageIdOf(m2), await messageIdOf(m3)]);
  });

  it('asks the customer to answer to the mailbox the ticket came in through', async () => {
    const ticket = await open('Through a mailbox');
    const knex = t.site.db.knex;
    const mailboxId = await insertPost(knex, t.site.db.tables, 'http://127.0.0.1:8081', {
      post_type: 'svc_mailbox', post_status: 'publish', post_name: 'helpdesk', post_title: 'help@example.test', date: { local: '2026-01-01 00:00:00', gmt: '2026-01-01 00:00:00' },
    });
    await addPostMeta(knex, t.site.db.tables, mailboxId, { _svc_address: 'help@example.test' });
    await addPostMeta(knex, t.site.db.tables, ticket.id, { _svc_mailbox: 'helpdesk' });
    await agentReply(ticket.id, 1, 'Answer me by email.');
    await worker.runDueJobs();
    const [mail] = await smtp.waitForEmails(1);
    assert.equal(mail?.parsed.replyTo?.value[0]?.address, 'help@example.test');
  });

  it('does not send a delivery the agent cancelled before its job ran', async () => {
    const ticket = await open('Never mind');
    const reply = await agentReply(ticket.id, 1, 'Draft that should not go out.');
    const cancelled = await as(t.app, 'agent1').patch(`${API}/tickets/${ticket.id}/deliveries/${reply.deliveries[0].id}`).send({ action: 'cancel', attempts: 0 });
    assert.equal(cancelled.status, 200, cancelled.text);
    await worker.runDueJobs();
    assert.equal(smtp.sentEmails().length, 0);
    const d = await delivery(ticket.id, reply.id);
    assert.deepEqual([d.status, d.attempts], ['cancelled', 0]);
    assert.equal((await jobsOf(t.site, 'email_delivery')).pop().status, 'done');
  });

  it('marks a refused send failed with the server\'s error; the agent\'s retry queues it again and it is sent', async () => {
    const ticket = await open('Bounce');
    const reply = await agentReply(ticket.id, 1, 'Here is your answer.');
    smtp.refuseRecipients('Mailbox unavailable');
    await worker.runDueJobs();
    const failed = await delivery(ticket.id, reply.id);
    assert.deepEqual([failed.status, failed.attempts], ['failed', 1]);
    assert.match(failed.last_error, /550.*Mailbox unavailable/);
    const job = (await jobsOf(t.site, 'email_delivery')).pop();
    assert.deepEqual([job.status, job.last_error], ['failed', failed.last_error], 'a failed send is not retried by itself');

    smtp.refuseRecipients(null);
    const retried = await as(t.app, 'agent1').patch(`${API}/tickets/${ticket.id}/deliveries/${failed.id}`).send({ action: 'retry', attempts: 1 });
    assert.deepEqual([retried.status, retried.body.status], [200, 'queued']);
    await worker.runDueJobs();
    const [mail] = await smtp.waitForEmails(1);
    assert.equal(mail?.parsed.messageId, await messageIdOf(reply.id));
    const sent = await delivery(ticket.id, reply.id);
    assert.deepEqual([sent.status, sent.attempts, sent.last_error], ['sent', 2, '']);
  });

  it('sends the same message again when the worker sending it died: same Message-ID, one more attempt', async () => {
    const ticket = await open('Crash');
    const reply = await agentReply(ticket.id, 1, 'Sent twice at most.');
    // A worker claims the job, starts the attempt (delivery `sending`) and dies before recording the end.
    const dead = await new JobQueue(t.site.db, t.clock).claim('dead-worker', ['email_delivery'], 30);
    assert.deepEqual(dead?.payload, { delivery_id: reply.deliveries[0].id });
    assert.ok(!('skipped' in (await beginDeliveryAttempt(t.site, reply.deliveries[0].id))));
    assert.equal((await delivery(ticket.id, reply.id)).status, 'sending');
    const later = new JobWorker(await t.openAnother({ clock: fixedClock(t.clock.now() + 31_000) }), { handlers: supportJobHandlers() });
    await later.runDueJobs();
    const job = await t.site.db.knex(t.site.db.tables.plugin('svc', 'jobs')).where({ id: dead?.id }).first();
    assert.deepEqual([job.status, job.attempts, job.locked_by], ['done', 2, null]);
    const [mail] = await smtp.waitForEmails(1);
    assert.equal(mail?.parsed.messageId, await messageIdOf(reply.id));
    const d = await delivery(ticket.id, reply.id);
    assert.deepEqual([d.status, d.attempts], ['sent', 2]);
  });

  it('writes the email into <data>/outbox as an .eml file when no SMTP server is configured', async () => {
    const outbox = path.join(t.config.dataDir, 'outbox');
    const ticket = await open('Embedded');
    const reply = await agentReply(ticket.id, 1, 'Read me in the outbox.');
    const embedded = await t.openAnother({ config: { smtpUrl: undefined } });
    await new JobWorker(embedded, { handlers: supportJobHandlers() }).runDueJobs();
    const files = fs.readdirSync(outbox).filter((f) => f.endsWith('.eml'));
    assert.equal(files.length, 1);
    const parsed = await simpleParser(fs.readFileSync(path.join(outbox, files[0] as string)));
    assert.equal(parsed.messageId, await messageIdOf(reply.id));
    assert.equal(parsed.subject, `Re: Embedded [#${ticket.id}]`);
  });
});
