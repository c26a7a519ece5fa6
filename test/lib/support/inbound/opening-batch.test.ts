/**
 * Mail that opens tickets, arriving together: written in shared transactions (opening-batch.ts), and
 * still, for every message, exactly what one message alone would have stored: the same rows, its own
 * receipt, repeats recognised, a delivery sent twice answered with its first receipt. Batches are made
 * by handing messages to them in one go (whether relayed messages meet in one is up to timing).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { claimReceipt } from '../../../../lib/support/inbound/store';
import { contentOf } from '../../../../lib/support/inbound/intake';
import { openInBatch } from '../../../../lib/support/inbound/opening-batch';
import { parseEmail } from '../../../../lib/support/inbound/parse';
import { IssuedCredentials } from '../../../../lib/support/mailboxes/admin';
import { inTransaction } from '../../../../lib/wp/db/transaction';
import { uploadsDirOf } from '../../../../lib/support/tickets/attachments';
import { eventually } from '../../../harness/eventually';
import { addTestMailbox, relayPost, newDeliveryId, receipts } from '../../../harness/mail';
import { OracleSite, openOracle } from '../../../harness/oracle';

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(64, 9)]).toString('base64');

/** A new customer's message with a PNG; `messageId: null` leaves the Message-ID header out. */
function newMessage(n: number, messageId: string | null = `<batch-${n}-${newDeliveryId()}@example.net>`): Buffer {
  return Buffer.from([
    `From: Customer ${n} <customer${n}@example.net>`, 'To: batch@support.example.test', `Subject: Order ${n} is late`,
    ...(messageId ? [`Message-ID: ${messageId}`] : []),
    'MIME-Version: 1.0', 'Content-Type: multipart/mixed; boundary="b"', '',
    '--b', 'Content-Type: text/plain; charset=utf-8', '', `Order ${n} never came.`, '',
    '--b', 'Content-Type: image/png; name="label.png"', 'Content-Disposition: attachment; filename="label.png"',
    'Content-Transfer-Encoding: base64', '', PNG, '', '--b--', '',
  ].join('\r\n'));
}

describe('mail that opens tickets, arriving together', function () {
  let oracle: OracleSite;
  let mailbox: IssuedCredentials;
  before(async () => {
    oracle = await openOracle();
    mailbox = await addTestMailbox(oracle.site, 'batch');
  });
  after(async () => {
    fs.rmSync(uploadsDirOf(oracle.site.config), { recursive: true, force: true });
    await oracle.close();
  });

  const knex = () => oracle.site.db.knex;
  /** Every file under the private uploads folder, as `_wp_attached_file` names it. */
  const filesOnDisk = () => {
    const uploads = uploadsDirOf(oracle.site.config);
    return (fs.readdirSync(`${uploads}/svc-private`, { recursive: true }) as string[])
      .filter((name) => /\.\w+$/.test(name) && !/(^|\/)(index\.php|\.htaccess)$/.test(name)).map((name) => `svc-private/${name}`);
  };
  const send = (body: Buffer, deliveryId?: string) => relayPost(oracle.app, oracle.site, mailbox, body, { deliveryId });

  /** Relays all at once (whether they meet in a batch is up to timing): the answers. */
  async function together(bodies: Array<{ body: Buffer; deliveryId?: string }>) {
    const answers = await Promise.all(bodies.map(({ body, deliveryId }) => send(body, deliveryId)));
    for (const res of answers) assert.equal(res.status, 202, res.text);
    return { answers: answers.map((res) => res.body as Record<string, unknown>) };
  }

  /**
   * A ticket's rows with its own IDs, random names and dates put in words: what must be the same
   * whichever way the ticket was written.
   */
  async function shapeOf(ticketId: number): Promise<unknown> {
    const ticket = await knex()('wp_posts').where({ ID: ticketId }).first();
    const message = await knex()('wp_posts').where({ post_parent: ticketId, post_type: 'svc_message' }).first();
    const files = await knex()('wp_posts').where({ post_parent: message.ID, post_type: 'attachment' }).orderBy('ID');
    const names = new Map<string, string>([[String(ticketId), 'TICKET'], [String(message.ID), 'MESSAGE'], ...files.map((f: { ID: number }, i: number): [string, string] => [String(f.ID), `FILE${i}`])]);
    const words = (value: unknown) => String(value)
      .replace(/svc-file-[0-9a-f]{12}/g, 'svc-file-RANDOM').replace(/svc-ticket-0*(\d+)/g, (_, id: string) => `svc-ticket-${names.get(id) ?? id}`).replace(/[0-9a-f]{32}(\.\w+)/g, 'RANDOM$1')
      .replace(/\b\d+\b/g, (id) => names.get(id) ?? id).replace(/Order TICKET|Order \d+|customer\d+|Customer \d+/g, 'PER-MESSAGE');
    const row = async (post: Record<string, unknown>) => {
      const meta = await knex()('wp_postmeta').where({ post_id: post.ID }).orderBy('meta_id').select('meta_key', 'meta_value');
      const { post_date: _d, post_date_gmt: _dg, post_modified: _m, post_modified_gmt: _mg, ...columns } = post;
      return {
        columns: Object.fromEntries(Object.entries(columns).map(([k, v]) => [k, words(v)])),
        meta: meta.map((m: { meta_key: string; meta_value: string }) => [m.meta_key, m.meta_key === '_svc_message_id' ? 'ITS-ID' : words(m.meta_value)]),
      };
    };
    return { ticket: await row(ticket), message: await row(message), files: await Promise.all(files.map(row)) };
  }

  /**
   * Messages handed to the batches in one go, each read as intake reads it: the
   * first is written at once, alone; the others wait for it and are written together. The receipts,
   * and how many transactions the database saw begin.
   */
  async function batched(bodies: Buffer[]) {
    const openings = await Promise.all(bodies.map(async (raw) => {
      const email = await parseEmail(raw);
      const content = contentOf(email, raw);
      const from = email.from as { address: string; name: string };
      return {
        mailboxKey: 'batch', key: { mailbox: 'batch', dedupeKey: `delivery:${newDeliveryId()}` },
        sender: { address: from.address, name: from.name, userId: 0, agent: false, vouched: true }, content,
      };
    }));
    let transactions = 0;
    const count = (q: { sql: string }) => { if (/^BEGIN/i.test(q.sql)) transactions += 1; };
    knex().on('query', count);
    try {
      const answers = await Promise.all(openings.map((o) => openInBatch(oracle.site, o)));
      return { answers: answers.map((a) => ({ receipt_id: a?.receiptId, outcome: a?.outcome, ticket_id: a?.ticketId })), transactions };
    } finally {
      knex().off('query', count);
    }
  }

  it('opens a ticket for each, in fewer transactions than messages, each with its own content and receipt', async () => {
    const { answers, transactions } = await batched(Array.from({ length: 12 }, (_, i) => newMessage(100 + i)));
    assert.equal(transactions, 2, 'the first message alone, then the other eleven');
    assert.equal(new Set(answers.map((a) => a.ticket_id)).size, 12);
    for (const [i, answer] of answers.entries()) {
      assert.equal(answer.outcome, 'ticket_created');
      const ticket = await knex()('wp_posts').where({ ID: answer.ticket_id }).first();
      assert.equal(ticket.post_title, `Order ${100 + i} is late`);
      const message = await knex()('wp_posts').where({ post_parent: ticket.ID, post_type: 'svc_message' }).first();
      assert.equal(message.post_content, `Order ${100 + i} never came.`);
      const [receipt] = await receipts(oracle.site, 'batch').where({ receipt_id: answer.receipt_id });
      assert.deepEqual([receipt.outcome, Number(receipt.ticket_id), Number(receipt.message_id)], ['ticket_created', ticket.ID, message.ID]);
      const files = await knex()('wp_posts').where({ post_parent: message.ID, post_type: 'attachment' });
      assert.equal(files.length, 2);
    }
  });

  it('writes each ticket row for row as a message arriving alone is written', async () => {
    const alone = (await send(newMessage(200))).body;
    const { answers, transactions } = await batched(Array.from({ length: 6 }, (_, i) => newMessage(201 + i)));
    assert.equal(transactions, 2);
    const expected = await shapeOf(Number(alone.ticket_id));
    for (const answer of answers) assert.deepEqual(await shapeOf(Number(answer.ticket_id)), expected);
  });

  it('sends a message already stored, or the second of two in a batch, one at a time', async () => {
    await send(newMessage(310, '<batch-stored-2@example.net>'));
    const twice = newMessage(311, '<batch-twice-2@example.net>');
    const { answers } = await batched([newMessage(310, '<batch-stored-2@example.net>'), twice, twice, newMessage(312), newMessage(313)]);
    assert.deepEqual(answers.map((a) => a.outcome), [undefined, 'ticket_created', undefined, 'ticket_created', 'ticket_created']);
  });

  it('recognises a repeat among messages arriving together: a message already stored, or sent twice, is one ticket', async () => {
    const stored = newMessage(300, '<batch-stored@example.net>');
    const first = (await send(stored)).body;
    const twice = newMessage(301, '<batch-twice@example.net>');
    const { answers } = await together([{ body: stored }, { body: twice }, { body: twice }, ...[302, 303, 304].map((n) => ({ body: newMessage(n) }))]);
    assert.deepEqual([answers[0]?.outcome, answers[0]?.reason], ['ignored', 'duplicate']);
    assert.deepEqual(answers.slice(1, 3).map((a) => a.outcome).sort(), ['ignored', 'ticket_created']);
    assert.deepEqual(answers.slice(3).map((a) => a.outcome), ['ticket_created', 'ticket_created', 'ticket_created']);
    const tickets = await knex()('wp_posts').where({ post_type: 'svc_ticket' }).whereIn('post_title', ['Order 300 is late', 'Order 301 is late']);
    assert.deepEqual(tickets.map((t: { ID: number }) => t.ID).sort(), [first.ticket_id, answers.find((a) => a.outcome === 'ticket_created')?.ticket_id].sort());
  });

  it('answers a delivery sent again with its first receipt, and stores the messages sent with it', async () => {
    const deliveryId = newDeliveryId();
    const noId = newMessage(400, null);
    const first = (await send(noId, deliveryId)).body;
    const before = await knex()('wp_posts').where({ post_type: 'svc_ticket' }).count({ n: '*' });
    const { answers } = await together([{ body: noId, deliveryId }, ...[401, 402, 403].map((n) => ({ body: newMessage(n) }))]);
    assert.deepEqual(answers[0], first);
    assert.deepEqual(answers.slice(1).map((a) => a.outcome), ['ticket_created', 'ticket_created', 'ticket_created']);
    const after = await knex()('wp_posts').where({ post_type: 'svc_ticket' }).count({ n: '*' });
    assert.equal(Number(after[0]?.n), Number(before[0]?.n) + 3);
    // The batch that found the delivery's key taken was rolled back: the files it had saved are gone.
    const attached = await knex()('wp_postmeta').where({ meta_key: '_wp_attached_file' }).pluck('meta_value');
    // Besides attachments, ignored mail (the repeats of earlier tests) keeps its message with its receipt.
    const kept = await knex()('wp_svc_mail_receipts').whereNotNull('raw_file').pluck('raw_file');
    assert.deepEqual(filesOnDisk().sort(), [...attached, ...kept].map(String).sort());
  });

  it('rolls back a batch whose receipt key a concurrent copy claimed meanwhile, files and all (MariaDB)', async function () {
    // SQLite runs one transaction at a time: the batch would only start after the copy, and leave its key out.
    if (oracle.site.db.dialect !== 'mysql') this.skip();
    const key = { mailbox: 'batch', dedupeKey: `delivery:${newDeliveryId()}` };
    const sender = { address: 'racer@example.net', name: 'Racer', userId: 0, agent: false, vouched: true };
    const content = (n: number) => ({
      subject: `Race ${n}`, body: 'Hello', messageId: `<race-${n}-${newDeliveryId()}@example.net>`, inReplyTo: null, rawFrom: sender.address,
      files: [{ filename: 'a.txt', mimeType: 'text/plain', data: Buffer.from(`file ${n}`) }],
    });
    const ticketsBefore = await knex()('wp_posts').where({ post_type: 'svc_ticket' }).count({ n: '*' });
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    let claimed!: () => void;
    const copyClaimed = new Promise<void>((resolve) => { claimed = resolve; });
    // The concurrent copy: its transaction claims the key and stays open until the batch waits on it.
    const copy = inTransaction(oracle.site.db, async (trx) => {
      await claimReceipt(trx, oracle.site.db.tables, key, Math.floor(oracle.clock.now() / 1000));
      claimed();
      await held;
    });
    await copyClaimed;
    const freshKey = () => ({ mailbox: 'batch', dedupeKey: `delivery:${newDeliveryId()}` });
    const openings = [0, 1, 2].map((n) => ({ mailboxKey: 'batch', key: n === 1 ? key : freshKey(), sender, content: content(n) }));
    // The first message is written alone at once; the two after it wait and form the next batch.
    const batch = Promise.all(openings.map((o) => openInBatch(oracle.site, o)));
    const batchWaits = async () => {
      const [rows] = await knex().raw(`SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST
        WHERE DB = DATABASE() AND COMMAND = 'Query' AND INFO LIKE 'insert ignore into %svc_mail_receipts%'`);
      return Number(rows[0].n) > 0;
    };
    try {
      await eventually(batchWaits, 5000, 10);
    } finally {
      release();
    }
    await copy;
    const [alone, ...together] = await batch;
    assert.equal(alone?.outcome, 'ticket_created');
    assert.deepEqual(together, [null, null], 'both messages of the refused batch go one at a time');
    const ticketsAfter = await knex()('wp_posts').where({ post_type: 'svc_ticket' }).count({ n: '*' });
    assert.equal(Number(ticketsAfter[0]?.n), Number(ticketsBefore[0]?.n) + 1);
    const attached = await knex()('wp_postmeta').where({ meta_key: '_wp_attached_file' }).pluck('meta_value');
    const kept = await knex()('wp_svc_mail_receipts').whereNotNull('raw_file').pluck('raw_file');
    assert.deepEqual(filesOnDisk().sort(), [...attached, ...kept].map(String).sort());
  });
});
