/**
 * Routes where a credential in the head buys a large body (a connected site's key, a mailbox token,
 * a relay's signature headers) prove it before reading the body (docs/security.md, "What an
 * anonymous client can cost"): a wrong one is answered while the client has sent almost none of
 * its declared body, the connection closes, and no body memory is held. Real HTTP on loopback.
 */
import assert from 'node:assert/strict';
import { createConnectedSite } from '../../../lib/support/sites/admin';
import { IssuedCredentials } from '../../../lib/support/mailboxes/admin';
import { bodyMemory } from '../../../lib/wp/http/body-memory';
import { API } from '../../harness/support';
import { addTestMailbox, newDeliveryId } from '../../harness/mail';
import { OracleSite, openOracle } from '../../harness/oracle';
import { Refusal, postUntilAnswered } from '../../harness/unread-body';
import { listen } from '../../harness/wp-http';

const EIGHT_MIB = 8 * 1024 * 1024;

describe('credentials checked before a large body is read', function () {
  let oracle: OracleSite;
  let served: { port: number; close(): Promise<void> };
  let siteId: string;
  let mailbox: IssuedCredentials;

  before(async () => {
    oracle = await openOracle();
    served = await listen(oracle.app);
    siteId = (await createConnectedSite(oracle.site, { name: 'Shop', origins: ['https://shop.example'] })).site.siteId;
    mailbox = await addTestMailbox(oracle.site, 'unread', { automation: true });
  });
  after(async () => {
    await served?.close();
    await oracle?.close();
  });

  /** A POST declaring 8 MiB that writes ten bytes, then waits for the answer. */
  const declareEightMiB = (path: string, headers: Record<string, string>) => postUntilAnswered(served.port, path, {
    declared: EIGHT_MIB, chunk: 10, maxWrite: 10, headers: { 'Content-Type': 'application/json', ...headers },
  });

  const assertRefusedUnread = (res: Refusal, status: number, code: string) => {
    assert.equal(res.status, status, res.body);
    assert.equal(JSON.parse(res.body).code, code);
    assert.equal(res.written, 10, 'answered with ten bytes of the body sent');
    assert.equal(res.headers.connection, 'close');
  };

  it('refuses a wrong site key without reading the 8 MiB body, and holds a key to no site to the keyless limit', async () => {
    const tickets = `${API}/sites/${siteId}/tickets`;
    assertRefusedUnread(await declareEightMiB(tickets, { 'X-Svc-Key': 'made-up' }), 401, 'svc_invalid_site_key');
    assertRefusedUnread(await declareEightMiB(tickets, { Authorization: `Bearer ${'0'.repeat(64)}` }), 401, 'svc_invalid_site_key');
    // A key to a site that does not exist buys nothing: the keyless 64 KiB limit, 413 before the read.
    const unknown = await declareEightMiB(`${API}/sites/zzzzzzzzzzzz/tickets`, { 'X-Svc-Key': 'made-up' });
    assert.equal(unknown.status, 413);
    assert.equal(JSON.parse(unknown.body).data.max_bytes, 64 * 1024);
  });

  it('answers 64 concurrent 8 MiB bodies with a made-up key before reading them, holding no body memory', async () => {
    const path = `${API}/sites/${siteId}/tickets`;
    const answers = await Promise.all(Array.from({ length: 64 }, () => declareEightMiB(path, { 'X-Svc-Key': 'made-up' })));
    for (const res of answers) assertRefusedUnread(res, 401, 'svc_invalid_site_key');
    assert.equal(bodyMemory.bytesHeld, 0);
  });

  it('refuses a wrong mailbox token, or an unknown mailbox, before reading the body', async () => {
    const inbound = `${API}/webhooks/inbound/${mailbox.routeKey}`;
    assertRefusedUnread(await declareEightMiB(inbound, { Authorization: 'Bearer wrong-token' }), 401, 'svc_invalid_token');
    assertRefusedUnread(await declareEightMiB(inbound, {}), 401, 'svc_invalid_token');
    assertRefusedUnread(await declareEightMiB(`${API}/webhooks/inbound/site-1-nobody`, { 'X-Svc-Token': mailbox.token as string }), 404, 'svc_mailbox_not_found');
  });

  it('refuses relay headers that are missing, stale or malformed before reading the body', async () => {
    const relay = `${API}/webhooks/relay/${mailbox.routeKey}`;
    const now = Math.floor(oracle.site.clock.now() / 1000);
    const signed = (timestamp: number, signature: string) => ({
      'X-Svc-Timestamp': String(timestamp), 'X-Svc-Delivery': newDeliveryId(), 'X-Svc-Signature': signature,
    });
    const cases: Array<[Record<string, string>, string]> = [
      [{}, 'missing_headers'],
      [signed(now - 3600, `v1=${'a'.repeat(64)}`), 'stale_timestamp'],
      [signed(now, 'v1=not-hex'), 'invalid_signature'],
    ];
    for (const [headers, reason] of cases) {
      const res = await postUntilAnswered(served.port, relay, { declared: 2 * 1024 * 1024, chunk: 10, maxWrite: 10, headers: { 'Content-Type': 'message/rfc822', ...headers } });
      assertRefusedUnread(res, 401, 'svc_invalid_signature');
      assert.equal(JSON.parse(res.body).data.reason, reason);
    }
  });
});
