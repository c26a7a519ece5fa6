/**
 * The mail corpus (fixtures/mail/*.eml with fixtures/mail/expected.json): each message is posted,
 * signed, through the relay route in order, and what it became is checked in the tables (storage-map
 * shape) and through the ticket API.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { IssuedCredentials } from '../../../lib/support/mailboxes/admin';
import { uploadsDirOf } from '../../../lib/support/tickets/attachments';
import { API, as } from '../../harness/support';
import { MAIL_FIXTURES, addTestMailbox, attachmentRows, countRows, fixture, postMeta, relayPost } from '../../harness/mail';
import { OracleSite, openOracle } from '../../harness/oracle';
import { turnTeamAlertsOn } from '../../harness/site';

interface Expected {
  about: string;
  outcome: 'ticket_created' | 'reply_added' | 'note_added' | 'ignored';
  reason?: string;
  joins?: number | string;
  /** `raw_from`: the From of a message that names no usable sender, kept for agents (the ticket has no customer). */
  ticket?: { subject?: string; status: string; customer_name?: string; customer_email?: string; customer_id?: number; raw_from?: string };
  message?: { body: string; visibility: 'public' | 'internal'; author_kind: string; author_email?: string; author_id?: number; message_id?: string; in_reply_to?: string };
  attachments?: string[];
  content_ids?: Record<string, string>;
  customer_replied?: boolean;
}

const expectations = JSON.parse(fs.readFileSync(path.join(MAIL_FIXTURES, 'expected.json'), 'utf8')) as Record<string, Expected>;
const corpus = Object.entries(expectations).filter(([name]) => name.endsWith('.eml'));

describe('mail corpus through the relay route', function () {
  let oracle: OracleSite;
  let mailbox: IssuedCredentials;
  /** Ticket IDs of the fixtures that opened one, for `joins` by fixture name. */
  const opened = new Map<string, number>();

  before(async () => {
    oracle = await openOracle();
    // Team alerts on, so that what each message sets off is queued and can be checked.
    await turnTeamAlertsOn(oracle.site);
    mailbox = await addTestMailbox(oracle.site, 'help', { address: 'help@support.example.test' });
  });
  after(async () => {
    fs.rmSync(uploadsDirOf(oracle.site.config), { recursive: true, force: true });
    await oracle.close();
  });

  it('has at least 20 fixtures, each with an expectation', () => {
    const files = fs.readdirSync(MAIL_FIXTURES).filter((f) => f.endsWith('.eml')).sort();
    assert.ok(files.length >= 20, `${files.length} fixtures`);
    assert.deepEqual(files, corpus.map(([name]) => name).sort());
  });

  for (const [name, expected] of corpus) {
    it(`${name}: ${expected.about}`, async () => {
      const { knex } = oracle.site.db;
      const before = { posts: await countRows(oracle.site, 'wp_posts'), jobs: await countRows(oracle.site, 'wp_svc_jobs') };
      const joined = typeof expected.joins === 'string' ? opened.get(expected.joins) : expected.joins;
      const versionBefore = joined ? Number((await postMeta(oracle.site, joined))._svc_version) : 0;

      const res = await relayPost(oracle.app, oracle.site, mailbox, fixture(name));
      assert.equal(res.status, 202, res.text);
      assert.match(res.body.receipt_id, /^[0-9a-f]{32}$/);
      assert.equal(res.body.outcome, expected.outcome);
      const receipt = await knex('wp_svc_mail_receipts').where({ receipt_id: res.body.receipt_id }).first();
      assert.equal(receipt.outcome, expected.outcome);
      assert.equal(receipt.mailbox, 'help');

      if (expected.outcome === 'ignored') {
        assert.equal(res.body.reason, expected.reason);
        assert.equal(receipt.reason, expected.reason);
        assert.equal(await countRows(oracle.site, 'wp_posts'), before.posts, 'an ignored message stores no posts');
        assert.equal(await countRows(oracle.site, 'wp_svc_jobs'), before.jobs, 'an ignored message sets nothing off');
        assert.deepEqual(fs.readFileSync(path.join(uploadsDirOf(oracle.site.config), receipt.raw_file)), fixture(name), 'an ignored message is kept as received');
        return;
      }

      const ticketId = Number(res.body.ticket_id);
      const messageId = Number(receipt.message_id);
      assert.equal(Number(receipt.ticket_id), ticketId);
      if (expected.outcome === 'ticket_created') opened.set(name, ticketId);
      else assert.equal(ticketId, joined, `joins ticket ${expected.joins}`);
      await checkTables(ticketId, messageId, expected, name, versionBefore);
      await checkJobs(ticketId, messageId, expected);
      await checkApi(ticketId, messageId, expected);
    });
  }

  it('serves an email\'s inline image inline (its bytes are a real PNG) and the original as a download', async () => {
    const ticketId = opened.get('05-inline-images.eml') as number;
    const ticket = (await as(oracle.app, 'agent1').get(`${API}/tickets/${ticketId}`)).body;
    const [screenshot, , original] = ticket.messages[0].attachments;
    const inline = await as(oracle.app, 'agent1').get(`${API}/tickets/${ticketId}/attachments/${screenshot.id}?inline=1`).buffer(true);
    assert.equal(inline.status, 200);
    assert.equal(inline.headers['content-type'], 'image/png');
    assert.match(inline.headers['content-disposition'], /^inline; filename="screenshot.png"/);
    const eml = await as(oracle.app, 'agent1').get(`${API}/tickets/${ticketId}/attachments/${original.id}?inline=1`).buffer(true);
    assert.equal(eml.headers['content-type'], 'application/octet-stream');
    assert.match(eml.headers['content-disposition'], /^attachment; filename="original.eml"/);
    assert.deepEqual(eml.body, fixture('05-inline-images.eml'));
  });

  it('never stores or serves an email\'s HTML as HTML', async () => {
    const ticketId = opened.get('02-html-only.eml') as number;
    const seen = await as(oracle.app, 'customer1').get(`${API}/tickets/${ticketId}`);
    assert.equal(seen.status, 200);
    assert.ok(!/<script|<p>|<b>/i.test(seen.text), seen.text);
  });

  /** The rows, as the storage map fixes them. */
  async function checkTables(ticketId: number, messageId: number, expected: Expected, name: string, versionBefore: number): Promise<void> {
    const { knex } = oracle.site.db;
    const ticket = await knex('wp_posts').where({ ID: ticketId }).first();
    const ticketMeta = await postMeta(oracle.site, ticketId);
    assert.equal(ticket.post_type, 'svc_ticket');
    assert.equal(ticket.post_status, `svc-${expected.ticket?.status}`);
    if (expected.outcome === 'ticket_created') {
      const t = expected.ticket as Required<NonNullable<Expected['ticket']>>;
      assert.equal(ticket.post_title, t.subject);
      assert.equal(Number(ticket.post_author), t.customer_id);
      assert.deepEqual(
        [ticketMeta._svc_source, ticketMeta._svc_mailbox, ticketMeta._svc_customer_name, ticketMeta._svc_customer_email, ticketMeta._svc_priority, ticketMeta._svc_version],
        ['email', 'help', t.customer_name, t.customer_email, 'normal', '1'],
      );
      assert.equal(ticketMeta._svc_raw_from, expected.ticket?.raw_from, 'only a ticket without a usable sender keeps the raw From');
    } else {
      assert.equal(Number(ticketMeta._svc_version), versionBefore + 1, 'the version moves on by one');
    }
    const message = await knex('wp_posts').where({ ID: messageId }).first();
    const meta = await postMeta(oracle.site, messageId);
    const m = expected.message as NonNullable<Expected['message']>;
    assert.equal(message.post_type, 'svc_message');
    assert.equal(Number(message.post_parent), ticketId);
    assert.equal(message.post_status, m.visibility === 'internal' ? 'private' : 'publish');
    assert.equal(message.post_content, m.body);
    assert.equal(meta._svc_author_kind, m.author_kind);
    if (m.author_email) assert.equal(meta._svc_author_email, m.author_email);
    if (m.author_id !== undefined) assert.equal(Number(message.post_author), m.author_id);
    if (m.message_id) assert.equal(meta._svc_message_id, m.message_id);
    assert.match(meta._svc_message_id ?? '', /^<[^<>\s]+@[^<>\s]+>$/);
    if (m.in_reply_to) assert.equal(meta._svc_in_reply_to, m.in_reply_to);
    const files = await attachmentRows(oracle.site, messageId);
    assert.deepEqual(files.map((f: { post_title: string }) => f.post_title), expected.attachments);
    const original = files.find((f: { post_title: string }) => f.post_title === 'original.eml');
    const stored = (await postMeta(oracle.site, Number(original.ID)))._wp_attached_file as string;
    assert.deepEqual(fs.readFileSync(path.join(uploadsDirOf(oracle.site.config), stored)), fixture(name), 'original.eml is the message as received');
    for (const [filename, cid] of Object.entries(expected.content_ids ?? {})) {
      const file = files.find((f: { post_title: string }) => f.post_title === filename);
      assert.equal((await postMeta(oracle.site, Number(file.ID)))._svc_content_id, cid);
    }
  }

  /** What the message set in motion: ticket_created for a new ticket, customer_replied for a customer's reply, nothing for a note. */
  async function checkJobs(ticketId: number, messageId: number, expected: Expected): Promise<void> {
    const jobs = (await oracle.site.db.knex('wp_svc_jobs').where({ kind: 'team_alert' })).map((j: { payload: string }) => JSON.parse(j.payload));
    const events = jobs.filter((p) => p.message_id === messageId).map((p) => p.event);
    if (expected.outcome === 'ticket_created') assert.deepEqual(events, ['ticket_created']);
    else assert.deepEqual(events, expected.customer_replied ? ['customer_replied'] : []);
    const deliveries = await oracle.site.db.knex('wp_posts').where({ post_type: 'svc_delivery', post_parent: messageId });
    assert.equal(deliveries.length, 0, 'email never sends email by itself');
    assert.ok(ticketId > 0);
  }

  /** The same message through the ticket API, for an agent and (public messages only) the customer. */
  async function checkApi(ticketId: number, messageId: number, expected: Expected): Promise<void> {
    const seen = await as(oracle.app, 'agent1').get(`${API}/tickets/${ticketId}`);
    assert.equal(seen.status, 200, seen.text);
    assert.equal(seen.body.status, expected.ticket?.status);
    if (expected.outcome === 'ticket_created') {
      assert.equal(seen.body.source, 'email');
      assert.equal(seen.body.raw_from, expected.ticket?.raw_from ?? null);
    }
    const message = seen.body.messages.find((x: { id: number }) => x.id === messageId);
    assert.equal(message.body, expected.message?.body);
    assert.equal(message.visibility, expected.message?.visibility);
    assert.deepEqual(message.attachments.map((a: { filename: string }) => a.filename), expected.attachments);
    if (expected.ticket?.raw_from !== undefined) {
      // Linked to no one: no customer can read it or find it in their list.
      for (const login of ['customer1', 'customer2'] as const) assert.equal((await as(oracle.app, login).get(`${API}/tickets/${ticketId}`)).status, 404, login);
      const list = await as(oracle.app, 'customer1').get(`${API}/tickets?search=${encodeURIComponent(expected.ticket.subject ?? '')}`);
      assert.deepEqual(list.body, []);
    }
    const customer = seen.body.customer_email === 'customer1@example.test' ? 'customer1' : seen.body.customer_email === 'customer2@example.test' ? 'customer2' : null;
    if (customer) {
      const theirs = await as(oracle.app, customer).get(`${API}/tickets/${ticketId}`);
      const ids = theirs.body.messages.map((x: { id: number }) => x.id);
      assert.equal(ids.includes(messageId), expected.message?.visibility === 'public', 'customers see public messages only');
    }
  }
});
