/**
 * Messages that arrive together are written in one transaction (lib/support/inbound/batches.ts):
 * the queue itself (who goes in which batch, a failing message failing alone), what a batch stores
 * when its messages depend on one another (a reply to, or a repeat of, a message earlier in the same
 * batch), and many concurrent relay posts each stored whole, in fewer transactions than messages.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { MAX_BATCH, WriteBatches } from '../../../../lib/support/inbound/batches';
import { readIncoming, storeIncoming } from '../../../../lib/support/inbound/intake';
import { IssuedCredentials } from '../../../../lib/support/mailboxes/admin';
import { Mailbox, findMailbox } from '../../../../lib/support/mailboxes/store';
import { uploadsDirOf } from '../../../../lib/support/tickets/attachments';
import { attachmentRows, addTestMailbox, newDeliveryId, postMeta, relayPost } from '../../../harness/mail';
import { OracleSite, openOracle } from '../../../harness/oracle';

/** A promise and the functions that settle it. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => { resolve = r; });
  return { promise, resolve };
}

describe('mail intake batches', function () {
  describe('the queue', () => {
    it('writes what arrives while batches are being written together, in arrival order, and answers each after its batch', async () => {
      const held = [deferred<void>(), deferred<void>()];
      const batches: string[][] = [];
      const queue = new WriteBatches<string, string>(async (items) => {
        batches.push(items);
        await held[batches.length - 1]?.promise;
        return items.map((item) => item.toUpperCase());
      });
      const answered: string[] = [];
      const writes = ['a', 'b', 'c', 'd', 'e', 'f'].map((item) => queue.write(item).then((result) => { answered.push(result); return result; }));
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(batches, [['a'], ['b']], 'two batches at a time; the rest wait');
      assert.deepEqual(answered, []);

      held[0]?.resolve();
      assert.deepEqual(await writes[0], 'A');
      await writes[5];
      assert.deepEqual(batches, [['a'], ['b'], ['c', 'd', 'e', 'f']]);
      assert.deepEqual(answered, ['A', 'C', 'D', 'E', 'F'], "b's batch has not committed, so b is not answered");
      held[1]?.resolve();
      assert.deepEqual(await Promise.all(writes), ['A', 'B', 'C', 'D', 'E', 'F']);
    });

    it(`puts at most ${MAX_BATCH} messages in one transaction`, async () => {
      const hold = deferred<void>();
      const sizes: number[] = [];
      const queue = new WriteBatches<number, number>(async (items) => {
        sizes.push(items.length);
        if (sizes.length <= 2) await hold.promise;
        return items;
      });
      const writes = Array.from({ length: 2 + MAX_BATCH + 3 }, (_, i) => queue.write(i));
      hold.resolve();
      await Promise.all(writes);
      assert.deepEqual(sizes, [1, 1, MAX_BATCH, 3]);
    });

    it('writes each message of a failed batch again on its own, so that only the one at fault fails', async () => {
      const hold = deferred<void>();
      const batches: string[][] = [];
      const queue = new WriteBatches<string, string>(async (items) => {
        batches.push(items);
        if (batches.length <= 2) await hold.promise;
        if (items.includes('bad')) throw new Error('bad row');
        return items;
      });
      const writes = ['first', 'second', 'x', 'bad', 'y'].map((item) => queue.write(item).then((r) => `ok ${r}`, (err: Error) => `failed: ${err.message}`));
      hold.resolve();
      assert.deepEqual(await Promise.all(writes), ['ok first', 'ok second', 'ok x', 'failed: bad row', 'ok y']);
      assert.deepEqual(batches.slice(2), [['x', 'bad', 'y'], ['x'], ['bad'], ['y']]);
    });
  });

  describe('writing', () => {
    let oracle: OracleSite;
    let credentials: IssuedCredentials;
    let mailbox: Mailbox;
    before(async () => {
      oracle = await openOracle();
      credentials = await addTestMailbox(oracle.site, 'batches');
      mailbox = (await findMailbox(oracle.site.db, 'batches')) as Mailbox;
    });
    after(async () => {
      fs.rmSync(uploadsDirOf(oracle.site.config), { recursive: true, force: true });
      await oracle.close();
    });

    const message = (lines: string[]) => Buffer.from([
      'From: Robin Batch <robin@example.net>', `To: ${mailbox.address}`, ...lines, 'Content-Type: text/plain; charset=utf-8', '', 'Body text.', '',
    ].join('\r\n'));
    const read = (raw: Buffer, deliveryId = newDeliveryId()) => readIncoming(oracle.site, mailbox, raw, { deliveryId }, { strict: false });

    it('threads a reply to a message earlier in the same transaction, and finds a repeat of one', async () => {
      const first = await read(message(['Subject: Parcel lost', 'Message-ID: <batch-first@example.net>']));
      const reply = await read(message(['Subject: Re: Parcel lost', 'Message-ID: <batch-reply@example.net>', 'In-Reply-To: <batch-first@example.net>']));
      const repeat = await read(message(['Subject: Parcel lost', 'Message-ID: <BATCH-first@example.net>']));
      const redelivered = await read(message(['Subject: Another', 'Message-ID: <batch-other@example.net>']), first.key.dedupeKey.replace('delivery:', ''));

      const [opened, replied, repeated, again] = await storeIncoming(oracle.site, [first, reply, repeat, redelivered]);
      assert.equal(opened?.outcome, 'ticket_created');
      assert.deepEqual([replied?.outcome, replied?.ticketId], ['reply_added', opened?.ticketId]);
      assert.deepEqual([repeated?.outcome, repeated?.reason], ['ignored', 'duplicate']);
      assert.equal(again, null, 'the same delivery twice: the second finds the key taken');

      const ticket = await postMeta(oracle.site, opened?.ticketId as number);
      assert.deepEqual([ticket._svc_customer_email, ticket._svc_mailbox, ticket._svc_version], ['robin@example.net', 'batches', '2']);
      const versions = await oracle.site.db.knex('wp_postmeta').where({ post_id: opened?.ticketId, meta_key: '_svc_version' });
      assert.equal(versions.length, 1, 'one version row, moved on by the reply');
      assert.deepEqual((await postMeta(oracle.site, replied?.messageId as number))._svc_in_reply_to, '<batch-first@example.net>');
    });

    it('stores every one of many concurrent relay posts whole, in fewer transactions than messages', async () => {
      const count = 24;
      const transactions: string[] = [];
      const listen = (q: { sql: string }) => { if (/^(BEGIN|begin)/.test(q.sql)) transactions.push(q.sql); };
      oracle.site.db.knex.on('query', listen);
      const answers = await Promise.all(Array.from({ length: count }, (_, i) => relayPost(oracle.app, oracle.site, credentials,
        message([`Subject: Order ${i}`, `Message-ID: <batch-many-${i}@example.net>`]))));
      oracle.site.db.knex.off('query', listen);

      assert.deepEqual(answers.map((res) => [res.status, res.body.outcome]), answers.map(() => [202, 'ticket_created']));
      assert.equal(new Set(answers.map((res) => res.body.ticket_id)).size, count, 'a ticket each');
      for (const [i, res] of answers.entries()) {
        const ticket = await oracle.site.db.knex('wp_posts').where({ ID: res.body.ticket_id }).first();
        assert.deepEqual([ticket.post_title, ticket.post_name], [`Order ${i}`, `svc-ticket-${String(res.body.ticket_id).padStart(6, '0')}`]);
        const [first] = await oracle.site.db.knex('wp_posts').where({ post_parent: ticket.ID, post_type: 'svc_message' });
        const stored = await postMeta(oracle.site, first.ID);
        assert.deepEqual([stored._svc_message_id, stored._svc_author_email], [`<batch-many-${i}@example.net>`, 'robin@example.net']);
        const files = await attachmentRows(oracle.site, first.ID);
        assert.deepEqual(files.map((f: { post_title: string }) => f.post_title), ['original.eml']);
      }
      assert.ok(transactions.length < count, `${transactions.length} transactions for ${count} messages`);
    });
  });
});
