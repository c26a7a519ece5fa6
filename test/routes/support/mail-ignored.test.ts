/**
 * Mail that names no usable sender, and mail intake ignored, as agents find it: an unlinked ticket for
 * `From: Big Bug bb@bug.com` that only agents see and that sends no mail (a real SMTP server and the
 * job worker), and the internal routes GET /mail/admin/ignored and POST …/<receipt-id>/ticket.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { JobWorker } from '../../../lib/jobs/worker';
import { supportJobHandlers } from '../../../lib/support/jobs/handlers';
import { IssuedCredentials } from '../../../lib/support/mailboxes/admin';
import { uploadsDirOf } from '../../../lib/support/tickets/attachments';
import { addTestMailbox, countRows, postMeta, relayPost } from '../../harness/mail';
import { TestSite, openTestSite } from '../../harness/site';
import { SmtpCapture, startSmtpCapture } from '../../harness/smtp';
import { API, as } from '../../harness/support';

let serial = 0;
/** A raw message with these header lines (a fresh Message-ID unless one is given) and a plain body. */
function rawMessage(headers: string[], body = 'Hello from the test.'): Buffer {
  serial += 1;
  const lines = headers.some((h) => /^Message-ID:/i.test(h)) ? headers : [...headers, `Message-ID: <ignored-${serial}-${process.pid}@mail.example.test>`];
  return Buffer.from([...lines, 'To: help@support.example.test', 'Content-Type: text/plain; charset=utf-8', '', body, ''].join('\r\n'));
}

describe('mail without a usable sender, and ignored mail for agents', function () {
  this.timeout(60_000);
  let t: TestSite;
  let smtp: SmtpCapture;
  let worker: JobWorker;
  let help: IssuedCredentials;
  let sales: IssuedCredentials;

  before(async () => {
    smtp = await startSmtpCapture();
    t = await openTestSite({ oracle: true, smtpUrl: smtp.url });
    worker = new JobWorker(t.site, { handlers: supportJobHandlers() });
    help = await addTestMailbox(t.site, 'help');
    sales = await addTestMailbox(t.site, 'sales');
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });

  const receiptRow = (receiptId: string) => t.site.db.knex('wp_svc_mail_receipts').where({ receipt_id: receiptId }).first();
  const tickets = () => countRows(t.site, 'wp_posts', { post_type: 'svc_ticket' });
  const openFrom = (receiptId: string) => as(t.app, 'agent1').post(`${API}/mail/admin/ignored/${receiptId}/ticket`);

  /** Relays a message and returns the 202 body. */
  async function relay(mailbox: IssuedCredentials, raw: Buffer): Promise<Record<string, any>> {
    const res = await relayPost(t.app, t.site, mailbox, raw);
    assert.equal(res.status, 202, res.text);
    return res.body;
  }

  describe('a message whose From names no usable sender', function () {
    it('opens a ticket linked to no one that agents see with the raw From, no customer can read, and that sends no mail', async () => {
      const answer = await relay(help, rawMessage(['From: Big Bug bb@bug.com', 'Subject: undef method parameter bug'], 'foo bar'));
      assert.equal(answer.outcome, 'ticket_created');
      const ticketId = Number(answer.ticket_id);
      const seen = await as(t.app, 'agent1').get(`${API}/tickets/${ticketId}`);
      assert.equal(seen.status, 200, seen.text);
      assert.deepEqual([seen.body.raw_from, seen.body.customer_email, seen.body.customer_name], ['Big Bug bb@bug.com', '', '']);
      assert.equal(seen.body.messages[0].body, 'foo bar');
      const customerView = await as(t.app, 'agent1').get(`${API}/tickets/${ticketId}`).set('X-Svc-View', 'customer');
      assert.ok(!('raw_from' in customerView.body), 'the raw From is for agents only');
      for (const login of ['customer1', 'customer2'] as const) {
        assert.equal((await as(t.app, login).get(`${API}/tickets/${ticketId}`)).status, 404, login);
        const theirs = await as(t.app, login).get(`${API}/tickets?per_page=100`);
        assert.ok(!theirs.body.some((x: { id: number }) => x.id === ticketId), login);
      }

      // Nothing goes out, neither when it arrives nor when an agent answers it publicly: there is no one to send to.
      await worker.runDueJobs();
      const reply = await as(t.app, 'agent1').post(`${API}/tickets/${ticketId}/messages`).send({ body: 'Which version do you run?', version: 1 });
      assert.equal(reply.status, 201, reply.text);
      await worker.runDueJobs();
      assert.deepEqual(smtp.sentEmails(), []);
      assert.equal(await countRows(t.site, 'wp_svc_jobs', { kind: 'email_delivery' }), 0);
    });

    it('opens one for a From listing two bare addresses too', async () => {
      const answer = await relay(help, rawMessage(['From: bb@bug.com cc@bug.com', 'Subject: two senders']));
      assert.equal(answer.outcome, 'ticket_created');
      const meta = await postMeta(t.site, Number(answer.ticket_id));
      assert.deepEqual([meta._svc_raw_from, meta._svc_customer_email], ['bb@bug.com cc@bug.com', '']);
    });
  });

  describe('GET /mail/admin/ignored', function () {
    let autoReply: Record<string, any>;
    let bulk: Record<string, any>;
    before(async () => {
      autoReply = await relay(help, rawMessage(['From: Customer One <customer1@example.test>', 'Auto-Submitted: auto-replied', 'Subject: Out of office'], 'I am away until Monday.'));
      bulk = await relay(sales, rawMessage(['From: news@shop.example.test', 'Precedence: bulk', 'Subject: Our news']));
      assert.deepEqual([autoReply.reason, bulk.reason], ['auto_submitted', 'precedence']);
    });

    it('answers 401 signed out and 403 to customers', async () => {
      const anonymous = await request(t.app).get(`${API}/mail/admin/ignored`);
      assert.deepEqual([anonymous.status, anonymous.body.code], [401, 'rest_forbidden']);
      const customer = await as(t.app, 'customer1').get(`${API}/mail/admin/ignored`);
      assert.deepEqual([customer.status, customer.body.code], [403, 'rest_forbidden']);
    });

    it('lists ignored mail newest first with its reason, From, subject and whether its message is kept, paginated', async () => {
      const res = await as(t.app, 'agent1').get(`${API}/mail/admin/ignored`);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers['cache-control'], 'private, no-store');
      const mine = res.body.filter((r: { receipt_id: string }) => [autoReply.receipt_id, bulk.receipt_id].includes(r.receipt_id));
      assert.deepEqual(mine.map((r: Record<string, unknown>) => Object.keys(r)), [0, 1].map(() => ['receipt_id', 'mailbox', 'reason', 'raw_from', 'subject', 'received_at', 'ticket_id', 'message_kept']));
      const item = mine.find((r: { receipt_id: string }) => r.receipt_id === autoReply.receipt_id);
      assert.deepEqual([item.mailbox, item.reason, item.raw_from, item.subject, item.ticket_id, item.message_kept], ['help', 'auto_submitted', 'Customer One <customer1@example.test>', 'Out of office', null, true]);
      assert.match(item.received_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      assert.ok(res.body.every((r: { reason: string }) => typeof r.reason === 'string'));

      const total = Number(res.headers['x-wp-total']);
      assert.equal(total, res.body.length);
      const page2 = await as(t.app, 'agent1').get(`${API}/mail/admin/ignored?per_page=1&page=2`);
      assert.deepEqual([page2.status, page2.headers['x-wp-total'], page2.headers['x-wp-totalpages'], page2.body.length], [200, String(total), String(total), 1]);
      const past = await as(t.app, 'agent1').get(`${API}/mail/admin/ignored?per_page=1&page=${total + 1}`);
      assert.deepEqual([past.status, past.body.code], [400, 'rest_post_invalid_page_number']);
    });

    it('filters by reason and by mailbox, and refuses an unknown reason', async () => {
      const byReason = await as(t.app, 'agent1').get(`${API}/mail/admin/ignored?reason=precedence`);
      assert.deepEqual(byReason.body.map((r: { receipt_id: string }) => r.receipt_id), [bulk.receipt_id]);
      const byMailbox = await as(t.app, 'agent1').get(`${API}/mail/admin/ignored?mailbox=sales`);
      assert.deepEqual(byMailbox.body.map((r: { receipt_id: string }) => r.receipt_id), [bulk.receipt_id]);
      const unknown = await as(t.app, 'agent1').get(`${API}/mail/admin/ignored?reason=spam`);
      assert.deepEqual([unknown.status, unknown.body.code], [400, 'rest_invalid_param']);
    });
  });

  describe('POST /mail/admin/ignored/<receipt-id>/ticket', function () {
    it('opens a ticket from an ignored message once, as intake would have (its sender as the customer); a repeat answers the same ticket', async () => {
      const ignored = await relay(help, rawMessage(['From: Customer One <customer1@example.test>', 'Auto-Submitted: auto-generated', 'Subject: Printer error 49'], 'The printer shows error 49.'));
      const before = await tickets();
      const first = await openFrom(ignored.receipt_id);
      assert.equal(first.status, 201, first.text);
      assert.match(first.headers.location, new RegExp(`/support/v1/tickets/${first.body.id}$`));
      assert.deepEqual([first.body.subject, first.body.customer_email, first.body.source, first.body.messages[0].body], ['Printer error 49', 'customer1@example.test', 'email', 'The printer shows error 49.']);
      assert.equal((await as(t.app, 'customer1').get(`${API}/tickets/${first.body.id}`)).status, 200, 'its customer sees it, as any emailed ticket');
      const again = await openFrom(ignored.receipt_id);
      assert.deepEqual([again.status, again.body.id], [200, first.body.id]);
      assert.equal(await tickets(), before + 1);
      const row = await receiptRow(ignored.receipt_id);
      assert.deepEqual([row.outcome, row.reason, Number(row.ticket_id)], ['ignored', 'auto_submitted', first.body.id]);
      const listed = await as(t.app, 'agent1').get(`${API}/mail/admin/ignored?reason=auto_submitted`);
      assert.equal(listed.body.find((r: { receipt_id: string }) => r.receipt_id === ignored.receipt_id).ticket_id, first.body.id);
    });

    it('opens one ticket when agents ask at the same moment', async () => {
      const ignored = await relay(help, rawMessage(['From: a@b.test, c@d.test', 'Precedence: list', 'Subject: Race']));
      const before = await tickets();
      const answers = await Promise.all([0, 1, 2].map(() => openFrom(ignored.receipt_id)));
      assert.deepEqual(answers.map((a) => a.status).sort(), [200, 200, 201]);
      assert.equal(new Set(answers.map((a) => a.body.id)).size, 1);
      assert.equal(answers[0]?.body.raw_from, 'a@b.test, c@d.test');
      assert.equal(await tickets(), before + 1);
    });

    it('refuses, changing nothing: 401 signed out, 403 customers, 404 unknown or not ignored, 410 message gone, 409 already stored', async () => {
      const ignored = await relay(help, rawMessage(['From: x@y.test', 'Precedence: junk', 'Subject: Junk']));
      const before = await tickets();
      assert.equal((await request(t.app).post(`${API}/mail/admin/ignored/${ignored.receipt_id}/ticket`)).status, 401);
      assert.equal((await as(t.app, 'customer1').post(`${API}/mail/admin/ignored/${ignored.receipt_id}/ticket`)).status, 403);
      const unknown = await openFrom('0'.repeat(32));
      assert.deepEqual([unknown.status, unknown.body.code], [404, 'svc_receipt_not_found']);
      const created = await relay(help, rawMessage(['From: Robin <robin@example.net>', 'Subject: Fine']));
      assert.equal((await openFrom(created.receipt_id)).status, 404, 'a message that opened a ticket is not ignored');

      // The same message delivered again is ignored as a duplicate: it is stored already.
      const raw = rawMessage(['From: Robin <robin@example.net>', 'Subject: Twice']);
      await relay(help, raw);
      const duplicate = await relay(help, raw);
      assert.equal(duplicate.reason, 'duplicate');
      const stored = await openFrom(duplicate.receipt_id);
      assert.deepEqual([stored.status, stored.body.code], [409, 'svc_message_already_stored']);

      const row = await receiptRow(ignored.receipt_id);
      fs.rmSync(path.join(uploadsDirOf(t.site.config), row.raw_file));
      const gone = await openFrom(ignored.receipt_id);
      assert.deepEqual([gone.status, gone.body.code], [410, 'svc_message_not_kept']);
      const listed = await as(t.app, 'agent1').get(`${API}/mail/admin/ignored?reason=precedence`);
      assert.equal(listed.body.find((r: { receipt_id: string }) => r.receipt_id === ignored.receipt_id).message_kept, false);
      assert.equal(await tickets(), before + 2, 'only the two messages relayed opened tickets');
      assert.equal((await receiptRow(ignored.receipt_id)).ticket_id, null);
    });
  });
});
