/**
 * Agents' reply emails against line breaks in everything that goes into their headers: the ticket's
 * subject (typed by the customer), the customer's and the agent's names, the blog name, admin_email and
 * a mailbox address (settings, written by `option update` or straight into the tables). The email is
 * really sent, to a real SMTP server and into the outbox, and parsed as a mail client would.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ParsedMail, simpleParser } from 'mailparser';
import { supportJobHandlers } from '../../../../lib/support/jobs/handlers';
import { JobWorker } from '../../../../lib/jobs/worker';
import { addPostMeta, insertPost } from '../../../../lib/wp/posts';
import { API, as } from '../../../harness/support';
import { TestSite, jobsOf, openTestSite } from '../../../harness/site';
import { SmtpCapture, startSmtpCapture } from '../../../harness/smtp';

const INJECTION = '\r\nBcc: evil@evil.test\r\nX-Injected: yes';
/** In an address, this alone turns it into a group whose one member, evil@evil.test, gets the mail or the answers. */
const ADDRESS_INJECTION = '\r\nBcc: evil@evil.test';

/** Every address a mail client would answer or copy: From, To, Cc, Bcc, Reply-To (groups flattened). */
function addressesIn(mail: ParsedMail): string[] {
  const objects = [mail.from, mail.to, mail.cc, mail.bcc, mail.replyTo].flat().filter((a) => a !== undefined);
  return objects.flatMap((o) => o.value.flatMap((a) => [a.address ?? '', ...(a.group ?? []).map((g) => g.address ?? '')])).filter(Boolean);
}

const headerNames = (mail: ParsedMail) => mail.headerLines.map((h) => h.key.toLowerCase());

describe('reply emails cannot be given extra headers or recipients', function () {
  let t: TestSite;
  let smtp: SmtpCapture;
  let worker: JobWorker;
  let outbox: string;

  before(async () => {
    smtp = await startSmtpCapture();
    t = await openTestSite({ oracle: true, smtpUrl: smtp.url });
    worker = new JobWorker(t.site, { handlers: supportJobHandlers() });
    outbox = path.join(t.config.dataDir, 'outbox');
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });
  beforeEach(() => {
    smtp.clear();
    fs.rmSync(outbox, { recursive: true, force: true });
  });

  const knex = () => t.site.db.knex;
  /** As `understudy option update` writes it; the worker of another process reads it within the options' freshness bound. */
  const setOption = (name: string, value: string) => t.site.options.update(name, value);
  const ticketMeta = async (ticketId: number, key: string, value: string) => {
    await knex()('wp_postmeta').where({ post_id: ticketId, meta_key: key }).update({ meta_value: value });
  };

  /** customer1 opens a ticket, agent1 answers it in public; the reply's delivery and the ticket. */
  async function agentAnswers(subject: string, prepare: (ticketId: number) => Promise<void> = async () => {}) {
    const opened = await as(t.app, 'customer1').post(`${API}/tickets`).send({ subject, body: 'Where is my refund?' });
    assert.equal(opened.status, 201, opened.text);
    await prepare(opened.body.id);
    const reply = await as(t.app, 'agent1').post(`${API}/tickets/${opened.body.id}/messages`).send({ body: 'It is on its way.', version: 1 });
    assert.equal(reply.status, 201, reply.text);
    return { ticketId: Number(opened.body.id), messageId: Number(reply.body.id) };
  }

  const deliveryOf = async (ticketId: number, messageId: number) => {
    const seen = await as(t.app, 'agent1').get(`${API}/tickets/${ticketId}`);
    return seen.body.messages.find((m: { id: number }) => m.id === messageId).deliveries[0];
  };

  /** A worker of another process that writes to the outbox (no SMTP_URL), opened now so it reads the settings as they are. */
  const outboxWorker = async () => new JobWorker(await t.openAnother({ config: { smtpUrl: undefined } }), { handlers: supportJobHandlers() });

  const outboxMessages = async () =>
    Promise.all((fs.existsSync(outbox) ? fs.readdirSync(outbox) : []).map(async (f) => simpleParser(fs.readFileSync(path.join(outbox, f)))));

  describe('with line breaks in the subject, the names and the settings', function () {
    const mailboxAddress = `help@example.test${ADDRESS_INJECTION}`;
    before(async () => {
      await setOption('blogname', `Oracle Help${INJECTION}`);
      await setOption('admin_email', `admin@example.test${ADDRESS_INJECTION}`);
      await knex()('wp_users').where({ user_login: 'customer1' }).update({ display_name: `Customer One${INJECTION}` });
      await knex()('wp_users').where({ user_login: 'agent1' }).update({ display_name: `Agent One${INJECTION}` });
      const mailbox = await insertPost(knex(), t.site.db.tables, 'http://127.0.0.1:8081', {
        post_type: 'svc_mailbox', post_status: 'publish', post_name: 'broken', post_title: 'broken', date: { local: '2026-01-01 00:00:00', gmt: '2026-01-01 00:00:00' },
      });
      await addPostMeta(knex(), t.site.db.tables, mailbox, { _svc_address: mailboxAddress });
    });
    after(async () => {
      await setOption('blogname', 'WP Oracle');
      await setOption('admin_email', 'admin@example.test');
      await knex()('wp_users').where({ user_login: 'customer1' }).update({ display_name: 'Customer One' });
      await knex()('wp_users').where({ user_login: 'agent1' }).update({ display_name: 'Agent One' });
    });

    /** What every copy must look like: to the customer alone, the subject whole on one line, no header or address added. */
    function assertClean(mail: ParsedMail, ticketId: number): void {
      assert.ok(!headerNames(mail).includes('bcc'), headerNames(mail).join());
      assert.ok(!headerNames(mail).includes('x-injected'), headerNames(mail).join());
      assert.equal(mail.subject, `Re: Refund Bcc: evil@evil.test X-Injected: yes [#${ticketId}]`);
      assert.ok(!addressesIn(mail).includes('evil@evil.test'), addressesIn(mail).join());
      assert.deepEqual(mail.to && !Array.isArray(mail.to) ? mail.to.value.map((a) => a.address) : null, ['customer1@example.test']);
      assert.equal(mail.text?.trim(), 'It is on its way.');
    }

    it('sends through SMTP to the customer alone, from the default sender, with no added header', async () => {
      const { ticketId, messageId } = await agentAnswers(`Refund${INJECTION}`, (id) => addPostMeta(knex(), t.site.db.tables, id, { _svc_mailbox: 'broken' }).then(() => undefined));
      await worker.runDueJobs();
      const [mail] = await smtp.waitForEmails(1);
      assert.ok(mail);
      assertClean(mail.parsed, ticketId);
      assert.deepEqual(mail.envelopeTo, ['customer1@example.test']);
      assert.equal(mail.envelopeFrom, 'wordpress@127.0.0.1', 'an admin_email that is not one address is not used as the sender');
      assert.equal(mail.parsed.replyTo, undefined, 'neither the mailbox nor admin_email is one address, so there is no Reply-To');
      assert.equal((await deliveryOf(ticketId, messageId)).status, 'sent');
    });

    it('writes the same clean message into the outbox', async () => {
      const { ticketId } = await agentAnswers(`Refund${INJECTION}`);
      await (await outboxWorker()).runDueJobs();
      const [mail, more] = await outboxMessages();
      assert.ok(mail && !more);
      assertClean(mail, ticketId);
      assert.deepEqual(mail.from?.value.map((a) => a.address), ['wordpress@127.0.0.1']);
    });
  });

  it('sends nothing to a customer address holding a line break, and the delivery says why', async () => {
    const { ticketId, messageId } = await agentAnswers('Address gone wrong', async (id) => {
      await ticketMeta(id, '_svc_customer_email', `customer1@example.test${ADDRESS_INJECTION}`);
      await ticketMeta(id, '_svc_customer_name', '');
    });
    await (await outboxWorker()).runDueJobs();
    await worker.runDueJobs();
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(smtp.sentEmails().map((m) => m.envelopeTo), []);
    assert.deepEqual(await outboxMessages(), []);
    const delivery = await deliveryOf(ticketId, messageId);
    assert.equal(delivery.status, 'failed');
    assert.match(delivery.last_error, /^Invalid To address "customer1@example\.test\\r\\nBcc: evil@evil\.test": it must be exactly one email address\.$/);
    assert.equal((await jobsOf(t.site, 'email_delivery')).pop().status, 'failed');
  });
});
