/**
 * POST /support/v1/webhooks/relay/<route-key>: the relay signature (contract section 5), replays and
 * concurrent duplicates stored once, the 3 MiB limit enforced before the body is read, and the
 * statuses of section 7.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import request from 'supertest';
import { IssuedCredentials, rotateRelaySecret } from '../../../lib/support/mailboxes/admin';
import { SETUP_FAILED_OPTION } from '../../../lib/support/storage-check';
import { uploadsDirOf } from '../../../lib/support/tickets/attachments';
import { API } from '../../harness/support';
import { eventually } from '../../harness/eventually';
import { addTestMailbox, countRows, newDeliveryId, receipts, relayPost } from '../../harness/mail';
import { OracleSite, openOracle } from '../../harness/oracle';

/** A fresh message each call (its own Message-ID), so every accepted one opens a ticket. */
let serial = 0;
function message(text = 'Please help.'): Buffer {
  serial += 1;
  return Buffer.from([
    'From: Robin Relay <robin@example.net>', 'To: relay@support.example.test', `Subject: Relay test ${serial}`,
    `Message-ID: <relay-${serial}-${process.pid}@example.net>`, 'Content-Type: text/plain; charset=utf-8', '', text, '',
  ].join('\r\n'));
}

describe('POST /support/v1/webhooks/relay/<route-key>', function () {
  let oracle: OracleSite;
  let mailbox: IssuedCredentials;
  const tickets = () => countRows(oracle.site, 'wp_posts', { post_type: 'svc_ticket' });
  const now = () => Math.floor(oracle.clock.now() / 1000);

  before(async () => {
    oracle = await openOracle();
    mailbox = await addTestMailbox(oracle.site, 'relay');
  });
  after(async () => {
    fs.rmSync(uploadsDirOf(oracle.site.config), { recursive: true, force: true });
    await oracle.close();
  });

  /** A refused request: 401 with the reason, and nothing stored. */
  async function refused(res: request.Response, reason: string, ticketsBefore: number): Promise<void> {
    assert.equal(res.status, 401, res.text);
    assert.equal(res.body.code, 'svc_invalid_signature');
    assert.equal(res.body.data.reason, reason);
    assert.equal(await tickets(), ticketsBefore);
  }

  it('accepts a correctly signed message with 202 and a receipt_id, after storing it', async () => {
    const res = await relayPost(oracle.app, oracle.site, mailbox, message('Correctly signed.'));
    assert.equal(res.status, 202, res.text);
    assert.match(res.body.receipt_id, /^[0-9a-f]{32}$/);
    assert.equal(res.body.outcome, 'ticket_created');
    assert.equal(res.headers['cache-control'], 'no-store');
    const row = await oracle.site.db.knex('wp_posts').where({ ID: res.body.ticket_id }).first();
    assert.equal(row.post_type, 'svc_ticket');
  });

  it('refuses a signature made with another secret', async () => {
    const before = await tickets();
    await refused(await relayPost(oracle.app, oracle.site, mailbox, message(), { secret: 'not-the-relay-secret' }), 'invalid_signature', before);
  });

  it('refuses a signature made for another route key (a message cannot be replayed into another mailbox)', async () => {
    const other = await addTestMailbox(oracle.site, 'relay-other');
    const before = await tickets();
    // Signed with this mailbox's secret, but over the other mailbox's route key, and sent here.
    const res = await relayPost(oracle.app, oracle.site, mailbox, message(), { routeKey: other.routeKey, postTo: mailbox.routeKey });
    assert.equal(res.status, 401);
    assert.equal(res.body.data.reason, 'invalid_signature');
    assert.equal(await tickets(), before);
  });

  it('refuses a body altered by one byte after signing', async () => {
    const signed = message('Amount: 100 EUR');
    const altered = Buffer.from(signed);
    altered[altered.length - 6] = '9'.charCodeAt(0);
    const before = await tickets();
    await refused(await relayPost(oracle.app, oracle.site, mailbox, altered, { signedBody: signed }), 'invalid_signature', before);
  });

  it('refuses stale and future timestamps beyond 300 seconds, and accepts them at 300', async () => {
    const before = await tickets();
    await refused(await relayPost(oracle.app, oracle.site, mailbox, message(), { timestamp: now() - 301 }), 'stale_timestamp', before);
    await refused(await relayPost(oracle.app, oracle.site, mailbox, message(), { timestamp: now() + 301 }), 'stale_timestamp', before);
    assert.equal((await relayPost(oracle.app, oracle.site, mailbox, message(), { timestamp: now() - 300 })).status, 202);
    assert.equal((await relayPost(oracle.app, oracle.site, mailbox, message(), { timestamp: now() + 300 })).status, 202);
  });

  it('follows the server clock, not the wall clock', async () => {
    const signedAt = now();
    oracle.clock.advance(301_000);
    try {
      await refused(await relayPost(oracle.app, oracle.site, mailbox, message(), { timestamp: signedAt }), 'stale_timestamp', await tickets());
    } finally {
      oracle.clock.advance(-301_000);
    }
  });

  it('refuses malformed timestamps and delivery IDs (too short, too long, other characters)', async () => {
    const before = await tickets();
    for (const deliveryId of ['a'.repeat(15), 'a'.repeat(65), 'delivery_id_with_underscore', 'delivery id with spaces', 'zustellung-nummer-ä-1234']) {
      await refused(await relayPost(oracle.app, oracle.site, mailbox, message(), { deliveryId }), 'invalid_delivery_id', before);
    }
    assert.equal((await relayPost(oracle.app, oracle.site, mailbox, message(), { deliveryId: 'A'.repeat(16) })).status, 202);
    assert.equal((await relayPost(oracle.app, oracle.site, mailbox, message(), { deliveryId: '0-'.repeat(32) })).status, 202);
    const badTime = await request(oracle.app).post(`${API}/webhooks/relay/${mailbox.routeKey}`)
      .set('X-Svc-Timestamp', '12e8').set('X-Svc-Delivery', newDeliveryId()).set('X-Svc-Signature', `v1=${'0'.repeat(64)}`).send(message());
    assert.equal(badTime.body.data?.reason, 'invalid_timestamp');
  });

  it('refuses a request without the signature headers', async () => {
    const res = await request(oracle.app).post(`${API}/webhooks/relay/${mailbox.routeKey}`).set('Content-Type', 'message/rfc822').send(message());
    await refused(res, 'missing_headers', await tickets());
  });

  it('stores a replayed delivery ID once and answers it with the same receipt_id', async () => {
    const body = message('Sent twice.');
    const deliveryId = newDeliveryId();
    const first = await relayPost(oracle.app, oracle.site, mailbox, body, { deliveryId });
    const before = await tickets();
    // A relay's retry: same delivery, signed again a little later.
    oracle.clock.advance(30_000);
    const retry = await relayPost(oracle.app, oracle.site, mailbox, body, { deliveryId });
    oracle.clock.advance(-30_000);
    assert.equal(first.status, 202);
    assert.equal(retry.status, 202);
    assert.equal(retry.body.receipt_id, first.body.receipt_id);
    assert.equal(retry.body.ticket_id, first.body.ticket_id);
    assert.equal(await tickets(), before);
    assert.equal((await receipts(oracle.site, 'relay').where({ dedupe_key: `delivery:${deliveryId}` })).length, 1);
  });

  it('stores concurrent duplicates once: 8 identical signed requests, all 202 with one receipt_id', async () => {
    const body = message('Sent eight times at once.');
    const deliveryId = newDeliveryId();
    const before = await tickets();
    const answers = await Promise.all(Array.from({ length: 8 }, () => relayPost(oracle.app, oracle.site, mailbox, body, { deliveryId })));
    assert.deepEqual(answers.map((a) => a.status), Array(8).fill(202), answers.map((a) => a.text).join('\n'));
    assert.equal(new Set(answers.map((a) => a.body.receipt_id)).size, 1);
    assert.equal(await tickets(), before + 1);
    const messages = await oracle.site.db.knex('wp_posts').where({ post_type: 'svc_message' }).andWhere('post_content', 'Sent eight times at once.');
    assert.equal(messages.length, 1);
  });

  it('commits nothing when storing fails before the answer, so the relay\'s retry stores the message once', async () => {
    const body = message('Stored on the second try.');
    const deliveryId = newDeliveryId();
    const before = await tickets();
    const uploads = oracle.site.config.uploadsDir;
    // Attachment files cannot be written (original.eml always is one): the transaction fails mid-way.
    oracle.site.config.uploadsDir = '/dev/null/not-a-folder';
    try {
      const failed = await relayPost(oracle.app, oracle.site, mailbox, body, { deliveryId });
      assert.equal(failed.status, 500);
      assert.ok(!('receipt_id' in failed.body));
    } finally {
      oracle.site.config.uploadsDir = uploads;
    }
    assert.equal(await tickets(), before);
    assert.equal((await receipts(oracle.site, 'relay').where({ dedupe_key: `delivery:${deliveryId}` })).length, 0);
    const retried = await relayPost(oracle.app, oracle.site, mailbox, body, { deliveryId });
    assert.equal(retried.status, 202, retried.text);
    assert.equal(await tickets(), before + 1);
  });

  it('refuses with 413 a body that declares more than 3 MiB, before reading it', async () => {
    const server = http.createServer(oracle.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request({
          host: '127.0.0.1', port, method: 'POST', path: `${API}/webhooks/relay/${mailbox.routeKey}`,
          headers: { 'Content-Type': 'message/rfc822', 'Content-Length': String(4 * 1024 * 1024) },
        }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        // Only a little of the declared body is ever sent: the answer must not wait for the rest.
        req.write(message());
      });
      assert.equal(status, 413);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('refuses with 413 a body that grows past 3 MiB while it is read', async () => {
    const big = Buffer.concat([message(), Buffer.alloc(3 * 1024 * 1024, 'a')]);
    const res = await relayPost(oracle.app, oracle.site, mailbox, big);
    assert.equal(res.status, 413);
    assert.equal(res.body.code, 'rest_payload_too_large');
  });

  it('answers 404 for a route key that names no mailbox of this site', async () => {
    for (const routeKey of ['site-1-nobody', 'site-2-relay', 'relay', 'site-1-Relay']) {
      const res = await relayPost(oracle.app, oracle.site, mailbox, message(), { routeKey });
      assert.equal(res.status, 404, routeKey);
      assert.equal(res.body.code, 'svc_mailbox_not_found');
    }
  });

  it('takes a rotated relay secret at once and refuses the old one', async () => {
    const before = await addTestMailbox(oracle.site, 'relay-rotated');
    const rotated = await rotateRelaySecret(oracle.site, 'relay-rotated');
    assert.notEqual(rotated.relaySecret, before.relaySecret);
    assert.equal((await relayPost(oracle.app, oracle.site, rotated, message())).status, 202);
    assert.equal((await relayPost(oracle.app, oracle.site, before, message())).status, 401);
  });

  it('acknowledges a message without a sender: a ticket linked to no one when it has something to read, else ignored (the relay has no 422)', async () => {
    const res = await relayPost(oracle.app, oracle.site, mailbox, Buffer.from('Subject: nobody\r\n\r\nno From header\r\n'));
    assert.equal(res.status, 202);
    assert.equal(res.body.outcome, 'ticket_created');
    const meta = await oracle.site.db.knex('wp_postmeta').where({ post_id: res.body.ticket_id }).pluck('meta_key');
    assert.ok(meta.includes('_svc_raw_from'), 'the (empty) raw From marks the ticket as having no usable sender');
    const empty = await relayPost(oracle.app, oracle.site, mailbox, Buffer.from('Subject: nobody\r\n\r\n\r\n'));
    assert.deepEqual([empty.status, empty.body.outcome, empty.body.reason, empty.body.ticket_id], [202, 'ignored', 'no_sender', null]);
  });

  it('answers 503 storage_unavailable while the setup-failed notice is on, and stores nothing', async () => {
    await oracle.site.db.knex('wp_options').insert({ option_name: SETUP_FAILED_OPTION, option_value: 'Table wp_svc_jobs is missing.', autoload: 'no' });
    try {
      await eventually(async () => (await relayPost(oracle.app, oracle.site, mailbox, message())).status === 503, 3000);
      const before = await tickets();
      const res = await relayPost(oracle.app, oracle.site, mailbox, message());
      assert.equal(res.status, 503);
      assert.equal(res.body.code, 'storage_unavailable');
      assert.equal(await tickets(), before);
    } finally {
      await oracle.site.db.knex('wp_options').where({ option_name: SETUP_FAILED_OPTION }).del();
    }
    await eventually(async () => (await relayPost(oracle.app, oracle.site, mailbox, message())).status === 202, 3000);
  });
});
