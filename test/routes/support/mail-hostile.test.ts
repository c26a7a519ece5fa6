/**
 * Mail built to hurt, through the real relay and inbound routes: threading headers listing 50,000
 * Message-IDs (a relay retries a 5xx forever, so such a message must be answered 2xx), and From
 * headers that name one address to a loose parser and another to a relay checking the domain.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { IssuedCredentials } from '../../../lib/support/mailboxes/admin';
import { uploadsDirOf } from '../../../lib/support/tickets/attachments';
import { HEADER_BLOCK_MAX, parseEmail, withBoundedHeader } from '../../../lib/support/inbound/parse';
import { assertAboutLinear } from '../../fuzz/settings';
import { addTestMailbox, inboundPost, postMeta, relayPost } from '../../harness/mail';
import { API, as } from '../../harness/support';
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

/** `count` Message-IDs that name nothing stored. */
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

  describe('From headers that do not parse cleanly', function () {
    /** Each names customer2 to a loose parser, and something else (or nothing) to a strict one. */
    const unclean: Array<[string, string[]]> = [
      ['a trailing domain after the angle brackets', ['From: <customer2@example.test>@evil.test']],
      ['the same with a display name', ['From: Customer Two <customer2@example.test>@evil.test']],
      ['text after the angle brackets', ['From: Customer Two <customer2@example.test> x <attacker@evil.test>']],
      ['two pairs of angle brackets', ['From: Customer Two <customer2@example.test> <attacker@evil.test>']],
      ['an unclosed angle bracket', ['From: Customer Two <customer2@example.test']],
      ['two mailboxes', ['From: customer2@example.test, attacker@evil.test']],
      ['an address as an unquoted display name', ['From: customer2@example.test <attacker@evil.test>']],
      ['a group', ['From: Friends: customer2@example.test;']],
      ['a source route', ['From: <@evil.test:customer2@example.test>']],
      ['spaces inside the address', ['From: customer2 @ example.test']],
      ['two From headers', ['From: Customer Two <customer2@example.test>', 'From: attacker@evil.test']],
      ['an address only as an encoded-word', ['From: =?utf-8?q?customer2=40example.test?=']],
    ];
    /** A ticket opened for mail without a usable sender: no customer, the raw From for agents only. */
    async function assertUnlinked(newTicketId: number, rawFrom: string): Promise<void> {
      const row = await oracle.site.db.knex('wp_posts').where({ ID: newTicketId }).first();
      const meta = await postMeta(oracle.site, newTicketId);
      assert.deepEqual([Number(row.post_author), meta._svc_customer_email, meta._svc_customer_name, meta._svc_raw_from], [0, '', '', rawFrom]);
      assert.equal((await as(oracle.app, 'agent1').get(`${API}/tickets/${newTicketId}`)).body.raw_from, rawFrom);
      assert.equal((await as(oracle.app, 'customer2').get(`${API}/tickets/${newTicketId}`)).status, 404, 'the customer the From names cannot read it');
    }

    for (const [about, headers] of unclean) {
      it(`credits no one for ${about} (${headers.join(' / ')}): a ticket of its own linked to no one, the ticket untouched`, async () => {
        const { ticketId, rootId, subject } = await customer2Ticket();
        const before = await conversation(ticketId);
        const res = await relayPost(oracle.app, oracle.site, mailbox, rawMessage([
          ...headers, `Subject: Re: ${subject} [#${ticketId}]`, `In-Reply-To: ${rootId}`,
        ], 'Please refund to my new account.'));
        assert.equal(res.status, 202, res.text);
        assert.equal(res.body.outcome, 'ticket_created');
        assert.notEqual(res.body.ticket_id, ticketId);
        assert.deepEqual(await conversation(ticketId), before);
        await assertUnlinked(Number(res.body.ticket_id), headers.map((h) => h.slice('From: '.length)).join('\n'));
      });
    }

    it('credits no one by the subject tag either when From does not parse cleanly', async () => {
      const { ticketId, subject } = await customer2Ticket();
      const res = await relayPost(oracle.app, oracle.site, mailbox, rawMessage([
        'From: <customer2@example.test>@evil.test', `Subject: Re: ${subject} [#${ticketId}]`,
      ]));
      assert.deepEqual([res.status, res.body.outcome], [202, 'ticket_created']);
      assert.notEqual(res.body.ticket_id, ticketId);
      assert.equal((await conversation(ticketId)).length, 1);
      await assertUnlinked(Number(res.body.ticket_id), '<customer2@example.test>@evil.test');
    });

    it('still ignores machine mail without a usable sender, and mail with nothing to read (no_sender)', async () => {
      const cases: Array<[string[], string, string]> = [
        [['From: MAILER-DAEMON', 'Subject: Undelivered Mail'], 'Your message could not be delivered.', 'mailer_daemon'],
        [['From: a@b.test, c@d.test', 'Auto-Submitted: auto-replied', 'Subject: Out of office'], 'I am away.', 'auto_submitted'],
        [['From: a@b.test, c@d.test', 'Precedence: bulk', 'Subject: News'], 'Our news.', 'precedence'],
        [['From: a@b.test, c@d.test', 'Subject: empty'], ' ', 'no_sender'],
      ];
      for (const [headers, body, reason] of cases) {
        const res = await relayPost(oracle.app, oracle.site, mailbox, rawMessage(headers, body));
        assert.deepEqual([res.status, res.body.outcome, res.body.reason, res.body.ticket_id], [202, 'ignored', reason, null], reason);
      }
    });

    it('takes the address in the angle brackets, not one in the display name (quoted or encoded): an internal note', async () => {
      for (const from of ['"customer2@example.test" <attacker@evil.test>', '=?utf-8?q?customer2=40example.test?= <attacker@evil.test>', '(customer2@example.test) <attacker@evil.test>']) {
        const { ticketId, rootId } = await customer2Ticket();
        const res = await relayPost(oracle.app, oracle.site, mailbox, rawMessage([`From: ${from}`, 'Subject: Re: refund', `In-Reply-To: ${rootId}`]));
        assert.equal(res.status, 202, res.text);
        assert.deepEqual([res.body.outcome, res.body.ticket_id], ['note_added', ticketId], from);
        assert.deepEqual((await conversation(ticketId)).pop(), { visibility: 'internal', author: 'attacker@evil.test' }, from);
      }
    });

    it('still credits the customer for clean forms: comments, a bare address, a quoted or encoded name, a dotted name', async () => {
      const clean = [
        'Customer Two <customer2@example.test> (sent from the web)', 'customer2@example.test (Customer Two)', '<customer2@example.test>',
        '"Two, Customer" <customer2@example.test>', '=?utf-8?q?Kundin_Zw=C3=B6lf?= <customer2@example.test>', 'Customer J. Two <Customer2@Example.test>',
        'Zoë Zwölf <customer2@example.test>',
      ];
      for (const from of clean) {
        const { ticketId, rootId } = await customer2Ticket();
        const res = await relayPost(oracle.app, oracle.site, mailbox, rawMessage([`From: ${from}`, 'Subject: Re: late', `In-Reply-To: ${rootId}`]));
        assert.equal(res.status, 202, res.text);
        assert.deepEqual([res.body.outcome, res.body.ticket_id], ['reply_added', ticketId], from);
      }
    });

    it('refuses posted fields whose from does not parse cleanly (inbound 422, nothing stored)', async () => {
      const { ticketId, rootId } = await customer2Ticket();
      const before = await conversation(ticketId);
      const generic = await inboundPost(oracle.app, mailbox).send({ from: '<customer2@example.test>@evil.test', text: 'Refund me.', in_reply_to: rootId });
      assert.equal(generic.status, 422, generic.text);
      assert.deepEqual(generic.body.data.missing, ['from']);
      const postmark = await inboundPost(oracle.app, mailbox).send({
        FromFull: { Email: 'customer2@example.test>@evil.test', Name: 'Customer Two' }, TextBody: 'Refund me.',
        Headers: [{ Name: 'In-Reply-To', Value: rootId }],
      });
      assert.equal(postmark.status, 422, postmark.text);
      assert.deepEqual(postmark.body.data.missing, ['From']);
      assert.deepEqual(await conversation(ticketId), before);
    });
  });

  describe('a top header block larger than 64 KiB', function () {
    /** The sender's ticket as agents read it, and the message kept whole. */
    async function openedBy(res: { status: number; text: string; body: { outcome: string; ticket_id: number; receipt_id: string } }): Promise<Record<string, unknown>> {
      assert.equal(res.status, 202, res.text);
      assert.equal(res.body.outcome, 'ticket_created');
      return (await as(oracle.app, 'agent1').get(`${API}/tickets/${res.body.ticket_id}`)).body;
    }

    it('opens the sender\'s ticket when 1.2 MiB of other header lines come first (the parser refused the message before)', async () => {
      const junk = Array.from({ length: 40_000 }, (_, i) => `X-Junk-${i % 7}: ${'j'.repeat(20)}`);
      const res = await relayPost(oracle.app, oracle.site, mailbox, rawMessage([...junk, 'From: Customer Two <customer2@example.test>', 'Subject: Behind the junk'], 'Still readable.'));
      const ticket = await openedBy(res);
      assert.deepEqual([ticket.customer_email, ticket.subject], ['customer2@example.test', 'Behind the junk']);
      assert.match(JSON.stringify(ticket), /Still readable\./);
    });

    it('reads a 900 KB Cc of quotes only to its bounds, and keeps the whole message as received', async () => {
      const raw = rawMessage(['From: Customer Two <customer2@example.test>', `Cc: ${'"a"a'.repeat(225_000)}`, 'Subject: Wide copy']);
      const res = await relayPost(oracle.app, oracle.site, mailbox, raw);
      const ticket = await openedBy(res);
      assert.deepEqual([ticket.customer_email, ticket.subject], ['customer2@example.test', 'Wide copy']);
      const messageId = Number((await receiptOf(res.body.receipt_id)).message_id);
      const kept = await oracle.site.db.knex('wp_posts').where({ post_parent: messageId, post_type: 'attachment' }).first();
      assert.ok(kept, 'the original message is kept');
      const file = fs.readFileSync(`${uploadsDirOf(oracle.site.config)}/${(await postMeta(oracle.site, Number(kept.ID)))._wp_attached_file}`);
      assert.ok(file.equals(raw), 'original.eml holds the message byte for byte');
    });

    it('keeps the thread\'s root and latest IDs of a References cut to its bounds', () => {
      const ids = Array.from({ length: 20_000 }, (_, i) => `<${i}@r.test>`);
      const bounded = withBoundedHeader(rawMessage(['From: a@b.test', foldedIds('References', ids)])).toString('latin1');
      assert.ok(bounded.length < 16 * 1024, `${bounded.length} bytes`);
      assert.match(bounded, /References: <0@r\.test> <1@r\.test>/);
      assert.match(bounded, /<19998@r\.test> <19999@r\.test>\r\n/);
      assert.match(bounded, /^From: a@b\.test\r\n/);
      assert.match(bounded, /\r\n\r\nHello from the test\.\r\n$/);
    });

    /** 17,000 short Cc lines: 288 KB, and over a megabyte as the parser counts lines. */
    const manyCc = (count = 17_000) => Array.from({ length: count }, (_, i) => `Cc: u${i}@cc.test`);

    it('opens the sender\'s ticket from behind 17,000 Cc lines (the parser refused the message before)', async () => {
      const res = await relayPost(oracle.app, oracle.site, mailbox, rawMessage([...manyCc(), 'From: Customer Two <customer2@example.test>', 'Subject: Many copies'], 'Copied widely.'));
      const ticket = await openedBy(res);
      assert.deepEqual([ticket.customer_email, ticket.subject], ['customer2@example.test', 'Many copies']);
      assert.match(JSON.stringify(ticket), /Copied widely\./);
    });

    it('keeps a few of each field it reads, within half the limit, and both of two From headers', () => {
      const raw = rawMessage(['From: a@b.test', ...manyCc(), 'From: c@d.test', 'Subject: Two senders']);
      const bounded = withBoundedHeader(raw).toString('latin1');
      assert.ok(bounded.length < HEADER_BLOCK_MAX / 2, `${bounded.length} bytes`);
      assert.deepEqual(bounded.match(/^(From|Cc|Subject):[^\r]*/gm), ['From: a@b.test', 'Cc: u0@cc.test', 'Cc: u1@cc.test', 'Cc: u2@cc.test', 'Cc: u3@cc.test', 'From: c@d.test', 'Subject: Two senders']);
    });

    it('bounds the block in time that grows with it, not faster', () => {
      const small = rawMessage(['From: a@b.test', ...manyCc(4_000)]);
      const large = rawMessage(['From: a@b.test', ...manyCc(64_000)]);
      assertAboutLinear('withBoundedHeader', () => withBoundedHeader(small), () => withBoundedHeader(large));
    });
  });

  describe('a MIME part whose header block is larger than 64 KiB', function () {
    /** A multipart message whose second part carries a 500 KB Cc. */
    function wideHeadedPart(): Buffer {
      const cc = `Cc: ${Array.from({ length: 40_000 }, (_, i) => `u${i}@e.test`).join(', ')}`;
      return Buffer.from([
        'From: Customer Two <customer2@example.test>', 'Subject: Wide part', `Message-ID: ${uniqueId('wide')}`,
        'MIME-Version: 1.0', 'Content-Type: multipart/mixed; boundary="BB"', '',
        '--BB', 'Content-Type: text/plain', '', 'The first part.',
        '--BB', 'Content-Type: text/plain', cc, '', 'The second part.', '--BB--', '',
      ].join('\r\n'));
    }

    it('is refused by the parser before it reads the part\'s header (it took a third of a second each before)', async () => {
      await assert.rejects(parseEmail(wideHeadedPart()), /Max header size for a MIME node exceeded/);
    });

    it('makes the message unreadable: the relay is answered 202 ignored, the message kept; the inbound route answers 422', async () => {
      const res = await relayPost(oracle.app, oracle.site, mailbox, wideHeadedPart());
      assert.equal(res.status, 202, res.text);
      assert.deepEqual([res.body.outcome, res.body.reason, res.body.ticket_id], ['ignored', 'unreadable', null]);
      assert.ok((await receiptOf(res.body.receipt_id)).raw_file, 'the message is kept for agents');
      const inbound = await inboundPost(oracle.app, mailbox).set('Content-Type', 'message/rfc822').send(wideHeadedPart());
      assert.equal(inbound.status, 422, inbound.text);
    });
  });
});
