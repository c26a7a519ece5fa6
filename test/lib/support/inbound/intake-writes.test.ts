/**
 * What one relayed message writes, and how few statements it takes: the ticket, message and files in
 * WordPress's row shape (guid, slug, meta in order), and the receipt key claimed by exactly one of two
 * transactions, whether the first holder commits or rolls back.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { IssuedCredentials } from '../../../../lib/support/mailboxes/admin';
import { claimReceipt } from '../../../../lib/support/inbound/store';
import { uploadsDirOf } from '../../../../lib/support/tickets/attachments';
import { inTransaction } from '../../../../lib/wp/db/transaction';
import { dialect } from '../../../harness/db';
import { eventually } from '../../../harness/eventually';
import { addTestMailbox, inboundPost, relayPost } from '../../../harness/mail';
import { OracleSite, openOracle } from '../../../harness/oracle';

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(64, 7)]).toString('base64');

function messageWithFile(messageId: string): Buffer {
  return Buffer.from([
    'From: Dana Rows <dana@example.net>', 'To: rows@support.example.test', 'Subject: Where is my parcel?', `Message-ID: ${messageId}`,
    'MIME-Version: 1.0', 'Content-Type: multipart/mixed; boundary="b"', '',
    '--b', 'Content-Type: text/plain; charset=utf-8', '', 'It never came.', '',
    '--b', 'Content-Type: image/png; name="label.png"', 'Content-Disposition: attachment; filename="label.png"',
    'Content-Transfer-Encoding: base64', '', PNG, '', '--b--', '',
  ].join('\r\n'));
}

describe('mail intake writes', function () {
  let oracle: OracleSite;
  let mailbox: IssuedCredentials;
  let home: string;
  before(async () => {
    oracle = await openOracle();
    mailbox = await addTestMailbox(oracle.site, 'rows');
    home = await oracle.site.homeUrl();
  });
  after(async () => {
    fs.rmSync(uploadsDirOf(oracle.site.config), { recursive: true, force: true });
    await oracle.close();
  });

  const post = (id: number) => oracle.site.db.knex('wp_posts').where({ ID: id }).first();
  const metaOf = async (id: number) => (await oracle.site.db.knex('wp_postmeta').where({ post_id: id }).orderBy('meta_id').select('meta_key', 'meta_value'))
    .map((r: { meta_key: string; meta_value: string }) => [r.meta_key, r.meta_value]);

  it('stores the ticket, its message and files with the guids, slugs and meta WordPress rows carry', async () => {
    const res = await relayPost(oracle.app, oracle.site, mailbox, messageWithFile('<rows-1@example.net>'));
    assert.equal(res.status, 202, res.text);
    const ticketId = Number(res.body.ticket_id);
    const ticket = await post(ticketId);
    assert.equal(ticket.post_name, `svc-ticket-${String(ticketId).padStart(6, '0')}`);
    assert.equal(ticket.guid, `${home}/?post_type=svc_ticket&p=${ticketId}`);
    assert.deepEqual(await metaOf(ticketId), [
      ['_svc_priority', 'normal'], ['_svc_source', 'email'], ['_svc_customer_name', 'Dana Rows'],
      ['_svc_customer_email', 'dana@example.net'], ['_svc_version', '1'], ['_svc_mailbox', 'rows'],
    ]);

    const message = await oracle.site.db.knex('wp_posts').where({ post_parent: ticketId, post_type: 'svc_message' }).first();
    assert.equal(message.post_name, String(message.ID), 'a published post without title or slug is named by its ID');
    assert.equal(message.guid, `${home}/?post_type=svc_message&p=${message.ID}`);
    assert.deepEqual(await metaOf(message.ID), [
      ['_svc_author_name', 'Dana Rows'], ['_svc_author_email', 'dana@example.net'], ['_svc_author_kind', 'customer'],
      ['_svc_message_id', '<rows-1@example.net>'],
    ]);

    const files = await oracle.site.db.knex('wp_posts').where({ post_parent: message.ID, post_type: 'attachment' }).orderBy('ID');
    assert.deepEqual(files.map((f: { post_title: string; post_mime_type: string }) => [f.post_title, f.post_mime_type]),
      [['label.png', 'image/png'], ['original.eml', 'message/rfc822']]);
    for (const file of files) {
      assert.match(file.post_name, /^svc-file-[0-9a-f]{12}$/);
      assert.equal(file.guid, `${home}/?post_type=attachment&p=${file.ID}`);
      const [[key, path]] = await metaOf(file.ID) as [[string, string]];
      assert.equal(key, '_wp_attached_file');
      assert.ok(fs.existsSync(`${uploadsDirOf(oracle.site.config)}/${path}`), path);
    }
  });

  /** The statements of one relayed message's transaction, BEGIN and COMMIT included, and the answer. */
  async function transactionOf(body: Buffer): Promise<{ statements: string[]; res: Awaited<ReturnType<typeof relayPost>> }> {
    const queries: string[] = [];
    const listen = (q: { sql: string }) => queries.push(q.sql);
    oracle.site.db.knex.on('query', listen);
    try {
      const res = await relayPost(oracle.app, oracle.site, mailbox, body);
      assert.equal(res.status, 202, res.text);
      return { statements: queries.slice(queries.findIndex((q) => /^BEGIN/i.test(q))), res };
    } finally {
      oracle.site.db.knex.off('query', listen);
    }
  }

  /** The statements of one request, and its answer. */
  async function statementsOf(send: () => Promise<{ status: number; text: string }>): Promise<string[]> {
    const queries: string[] = [];
    const listen = (q: { sql: string }) => queries.push(q.sql);
    oracle.site.db.knex.on('query', listen);
    try {
      const res = await send();
      assert.equal(res.status, 202, res.text);
      return queries;
    } finally {
      oracle.site.db.knex.off('query', listen);
    }
  }
  const mailboxReads = (statements: string[]) => statements.filter((sql) => /from [`"]?wp_posts[`"]? where .*post_type/i.test(sql) && !/\binsert\b/i.test(sql));

  it('reads the mailbox once for a relayed message, though its headers, its signature and its body limit each need it', async () => {
    const statements = await statementsOf(() => relayPost(oracle.app, oracle.site, mailbox, messageWithFile('<rows-once@example.net>')));
    assert.equal(mailboxReads(statements).length, 1, statements.join('\n'));
  });

  it('reads the mailbox once for a message from an automation tool (its body limit, then its token)', async () => {
    const statements = await statementsOf(() => inboundPost(oracle.app, mailbox).set('Content-Type', 'message/rfc822').send(messageWithFile('<rows-once-inbound@example.net>')));
    assert.equal(mailboxReads(statements).length, 1, statements.join('\n'));
  });

  // Team alerts are off on this site (no alerts_url), so neither write queues a job.
  it('writes a new ticket with a file in one transaction of at most 11 statements', async () => {
    const { statements, res } = await transactionOf(messageWithFile('<rows-2@example.net>'));
    assert.equal(res.body.outcome, 'ticket_created');
    assert.ok(statements.length <= 11, `${statements.length} statements:\n${statements.join('\n')}`);
  });

  it('adds a reply (and the original as a file) in at most 13: one read finds both a repeat and the message it answers', async () => {
    const opened = await transactionOf(messageWithFile('<rows-3@example.net>'));
    const reply = Buffer.from([
      'From: Dana Rows <dana@example.net>', 'To: rows@support.example.test', 'Subject: Re: Where is my parcel?',
      'Message-ID: <rows-4@example.net>', 'In-Reply-To: <rows-3@example.net>', 'Content-Type: text/plain', '', 'Any news?', '',
    ].join('\r\n'));
    const { statements, res } = await transactionOf(reply);
    assert.deepEqual([res.body.outcome, res.body.ticket_id], ['reply_added', opened.res.body.ticket_id]);
    assert.ok(statements.length <= 13, `${statements.length} statements:\n${statements.join('\n')}`);
  });

  describe('the receipt key, claimed by two transactions at once', function () {
    const tables = () => oracle.site.db.tables;
    const now = () => Math.floor(oracle.clock.now() / 1000);

    /** MariaDB: the second transaction's claim is under way in the server (waiting on the key the first holds). */
    const secondWaits = async () => {
      const [rows] = await oracle.site.db.knex.raw(`SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST
        WHERE DB = DATABASE() AND COMMAND = 'Query' AND INFO LIKE 'insert ignore into %svc_mail_receipts%'`);
      return Number(rows[0].n) > 0;
    };

    /** Transaction A claims the key and ends as `end` says, while B claims the same key. */
    async function race(dedupeKey: string, end: 'commit' | 'rollback'): Promise<{ first: string | null; second: string | null }> {
      const key = { mailbox: 'rows', dedupeKey };
      let first: string | null = null;
      let claimed!: () => void;
      const firstClaimed = new Promise<void>((resolve) => { claimed = resolve; });
      let release!: () => void;
      const released = new Promise<void>((resolve) => { release = resolve; });
      const a = inTransaction(oracle.site.db, async (trx) => {
        first = await claimReceipt(trx, tables(), key, now());
        claimed();
        await released;
        if (end === 'rollback') throw new Error('first holder fails');
      }).catch((err: Error) => assert.equal(err.message, 'first holder fails'));
      await firstClaimed;
      const b = inTransaction(oracle.site.db, (trx) => claimReceipt(trx, tables(), key, now()));
      try {
        // MariaDB: B's insert is seen waiting on A's key before A ends. SQLite runs B after A (one connection).
        if (dialect === 'mysql') await eventually(secondWaits, 5000, 10);
      } finally {
        release();
      }
      const [, second] = await Promise.all([a, b]);
      return { first, second };
    }

    it('leaves it to the first when the first commits: the second claims nothing', async () => {
      const { first, second } = await race('delivery:race-commit', 'commit');
      assert.match(String(first), /^[0-9a-f]{32}$/);
      assert.equal(second, null);
      const rows = await oracle.site.db.knex('wp_svc_mail_receipts').where({ dedupe_key: 'delivery:race-commit' });
      assert.deepEqual(rows.map((r: { receipt_id: string }) => r.receipt_id), [first]);
    });

    it('gives it to the second when the first rolls back', async () => {
      const { first, second } = await race('delivery:race-rollback', 'rollback');
      assert.match(String(first), /^[0-9a-f]{32}$/);
      assert.match(String(second), /^[0-9a-f]{32}$/);
      const rows = await oracle.site.db.knex('wp_svc_mail_receipts').where({ dedupe_key: 'delivery:race-rollback' });
      assert.deepEqual(rows.map((r: { receipt_id: string }) => r.receipt_id), [second]);
    });
  });
});
