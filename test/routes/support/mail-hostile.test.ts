/**
 * Mail built to hurt, through the real relay and inbound routes: threading headers listing 50,000
 * Message-IDs (a relay retries a 5xx forever, so such a message must be answered 2xx), and From
 * headers that name one address to a loose parser and another to a relay checking the domain.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { IssuedCredentials } from '../../../lib/support/mailboxes/admin';
import { uploadsDirOf } from '../../../lib/support/tickets/attachments';
import { addTestMailbox, postMeta, relayPost } from '../../harness/mail';
import { OracleSite, openOracle } from '../../harness/oracle';

let serial = 0;
const uniqueId = (label: string) => `<${label}-${++serial}-${process.pid}@mail.example.test>`;

/** A raw message: the given header lines, then a plain-text body. */
function rawMessage(headers: string[], body = 'Hello from the test.'): Buffer {
  const lines = headers.some((h) => /^Message-ID:/i.test(h)) ? headers : [...headers, `Message-ID: ${uniqueId('msg')}`];
  return Buffer.from([...lines, 'To: hostile@support.example.test', 'Content-Type: text/plain; charset=utf-8', '', body, ''].join('\r\n'));
}

/** A header folded as mail clients fold long References: a few Message-IDs per line. */
function foldedIds(name: string, ids: string[]): string {
  const lines: string[] = [];
  for (let i = 0; i < ids.length; i += 6) lines.push(ids.slice(i, i + 6).join(' '));
  return `${name}: ${lines.join('\r\n ')}`;
}

/**
 * `count` Message-IDs that name nothing stored; short, so that 50,000 of them stay under the parser's
 * 1 MiB header limit (a longer list is refused as unreadable before threading ever sees it).
 */
function unknownIds(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `<${i}@u${serial}>`);
}

describe('mail built to hurt', function () {
  this.timeout(60_000);
  let oracle: OracleSite;
  let mailbox: IssuedCredentials;

  before(async () => {
    oracle = await openOracle();
    mailbox = await addTestMailbox(oracle.site, 'hostile');
  });
  after(async () => {
    fs.rmSync(uploadsDirOf(oracle.site.config), { recursive: true, force: true });
    await oracle.close();
  });

  /** customer2 (a WordPress user) opens a ticket by email; its Message-ID starts the thread. */
  async function customer2Ticket(): Promise<{ ticketId: number; rootId: string; subject: string }> {
    const rootId = uniqueId('root');
    const subject = `Order ${serial} is late`;
    const res = await relayPost(oracle.app, oracle.site, mailbox, rawMessage(['From: Customer Two <customer2@example.test>', `Subject: ${subject}`, `Message-ID: ${rootId}`]));
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.outcome, 'ticket_created');
    return { ticketId: Number(res.body.ticket_id), rootId, subject };
  }

  /** The messages of a ticket as stored: visibility and author email, oldest first. */
  async function conversation(ticketId: number): Promise<Array<{ visibility: string; author: string }>> {
    const rows = await oracle.site.db.knex('wp_posts').where({ post_parent: ticketId, post_type: 'svc_message' }).orderBy('ID');
    return Promise.all(rows.map(async (r: { ID: number; post_status: string }) => ({
      visibility: r.post_status === 'private' ? 'internal' : 'public', author: (await postMeta(oracle.site, Number(r.ID)))._svc_author_email ?? '',
    })));
  }

  const receiptOf = (receiptId: string) => oracle.site.db.knex('wp_svc_mail_receipts').where({ receipt_id: receiptId }).first();

  describe('a message whose threading headers list 50,000 Message-IDs', function () {
    it('is accepted with 202 and threads by the first ID (the thread\'s root), on this database too', async () => {
      const { ticketId, rootId } = await customer2Ticket();
      const references = [rootId, ...unknownIds(49_999)];
      const res = await relayPost(oracle.app, oracle.site, mailbox, rawMessage([
        'From: Customer Two <customer2@example.test>', 'Subject: Re: still late', foldedIds('References', references),
      ], 'Any news on this?'));
      assert.equal(res.status, 202, res.text);
      assert.deepEqual([res.body.outcome, res.body.ticket_id], ['reply_added', ticketId]);
    });

    it('threads by one of the latest 20 IDs when the root is unknown', async () => {
      const { ticketId, rootId } = await customer2Ticket();
      const references = [...unknownIds(49_990), rootId, ...unknownIds(9)];
      const res = await relayPost(oracle.app, oracle.site, mailbox, rawMessage([
        'From: Customer Two <customer2@example.test>', 'Subject: Re: still late', foldedIds('References', references),
      ]));
      assert.equal(res.status, 202, res.text);
      assert.deepEqual([res.body.outcome, res.body.ticket_id], ['reply_added', ticketId]);
    });

    it('reads In-Reply-To with 50,000 IDs for its first ID only', async () => {
      const { ticketId, rootId } = await customer2Ticket();
      const res = await relayPost(oracle.app, oracle.site, mailbox, rawMessage([
        'From: Customer Two <customer2@example.test>', 'Subject: Re: still late', foldedIds('In-Reply-To', [rootId, ...unknownIds(49_999)]),
      ]));
      assert.equal(res.status, 202, res.text);
      assert.deepEqual([res.body.outcome, res.body.ticket_id], ['reply_added', ticketId]);
      assert.equal((await postMeta(oracle.site, Number((await receiptOf(res.body.receipt_id)).message_id)))._svc_in_reply_to, rootId);
    });

    it('does not look at IDs between the first and the latest 20: such a message opens a new ticket', async () => {
      const { ticketId, rootId } = await customer2Ticket();
      const references = [...unknownIds(100), rootId, ...unknownIds(20)];
      const res = await relayPost(oracle.app, oracle.site, mailbox, rawMessage([
        'From: Customer Two <customer2@example.test>', 'Subject: A new question', foldedIds('References', references),
      ]));
      assert.equal(res.status, 202, res.text);
      assert.equal(res.body.outcome, 'ticket_created');
      assert.notEqual(res.body.ticket_id, ticketId);
    });
  });

});
