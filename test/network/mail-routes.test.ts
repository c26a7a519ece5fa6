/**
 * Mail on a network served by one process (docs/multisite.md, "Mail on a network"): a mail webhook's
 * route key `site-<blog-id>-<mailbox-key>` names one mailbox of the network, so the relay and the
 * automation tools may post it to any site's address of that network and blog N's mailbox gets it,
 * checked with blog N's relay secret and token and blog N's own site check. A key naming a blog of
 * another network (or none) gets the 404 of a missing mailbox; a process serving one site
 * (WP_BLOG_ID) still answers only for its own blog's keys.
 */
import assert from 'node:assert/strict';
import { IssuedCredentials } from '../../lib/support/mailboxes/admin';
import { StartedServe, startServe } from '../deploy/serve-harness';
import { addTestMailbox, countRows, relayHeaders } from '../harness/mail';
import { NetworkAnswer, TestNetwork, buildNetwork, requestAt } from '../harness/network';

const HOST = 'example.test';
const OTHER_NETWORK = 'other.test';
const API = '/wp-json/support/v1';

let serial = 0;
/** A fresh message each call (its own Message-ID and subject), so every accepted one opens a ticket. */
function message(): { subject: string; body: Buffer } {
  serial += 1;
  const subject = `Network mail ${serial}`;
  const body = Buffer.from([
    'From: Robin Relay <robin@example.net>', 'To: support@support.example.test', `Subject: ${subject}`,
    `Message-ID: <network-${serial}-${process.pid}@example.net>`, 'Content-Type: text/plain; charset=utf-8', '', 'Please help.', '',
  ].join('\r\n'));
  return { subject, body };
}

describe('mail routes on a network served by one process', function () {
  this.timeout(60_000);
  let net: TestNetwork;
  let server: StartedServe;
  /** The `support` mailbox of each blog, by blog ID. */
  const mailboxes: Record<number, IssuedCredentials> = {};

  const serveEnv = (extra: Record<string, string> = {}) => net.serveEnv({ LOG_FORMAT: 'json', ...extra });

  before(async () => {
    net = await buildNetwork({
      domain: HOST,
      install: { subdomainInstall: false, current: { domain: HOST, path: '/', networkId: 1 } },
      otherNetworks: [{ id: 2, domain: OTHER_NETWORK, path: '/', mainSiteId: 6 }],
      blogs: [
        { blogId: 1, domain: HOST, path: '/' },
        { blogId: 2, domain: HOST, path: '/two/' },
        { blogId: 3, domain: HOST, path: '/three/' },
        { blogId: 5, domain: HOST, path: '/five/', archived: true },
        { blogId: 6, networkId: 2, domain: OTHER_NETWORK, path: '/' },
      ],
      users: [],
      superAdmins: [],
    });
    for (const blogId of [1, 2, 3, 5, 6]) {
      mailboxes[blogId] = await addTestMailbox(await net.site(blogId), 'support', { address: `support-${blogId}@support.example.test` });
    }
    server = await startServe(['serve', '--port=0'], serveEnv());
  });

  after(async () => {
    await server?.stop();
    await net?.close();
  });

  /** The tickets of each blog, by blog ID. */
  async function ticketCounts(): Promise<Record<number, number>> {
    const counts: Record<number, number> = {};
    for (const blogId of [1, 2, 3, 5, 6]) {
      const site = await net.site(blogId);
      counts[blogId] = await countRows(site, site.db.tables.posts, { post_type: 'svc_ticket' });
    }
    return counts;
  }

  /** A relay delivery of a fresh message for `routeKey`, signed with `signer`'s relay secret, posted to `path` at `host`. */
  async function relay(base: string, host: string, path: string, signer: IssuedCredentials, routeKey = signer.routeKey) {
    const { subject, body } = message();
    const headers = relayHeaders(await net.site(1), signer, body, { routeKey });
    return { subject, answer: await requestAt(base, host, { method: 'POST', path, headers, body: body.toString('utf8') }) };
  }

  /** The subject of a ticket of `blogId`, or undefined when that blog has no such ticket. */
  async function ticketSubject(blogId: number, ticketId: number): Promise<string | undefined> {
    const site = await net.site(blogId);
    const row = await site.db.knex(site.db.tables.posts).where({ ID: ticketId, post_type: 'svc_ticket' }).first('post_title');
    return row?.post_title as string | undefined;
  }

  function assertError(answer: NetworkAnswer, status: number, code: string): void {
    assert.equal(answer.status, status, answer.text);
    assert.equal((JSON.parse(answer.text) as { code: string }).code, code);
  }

  it("delivers a relay's site-3 key posted at the main site's, site 2's and an archived site's address to blog 3 alone", async () => {
    for (const [host, path] of [
      [HOST, `${API}/webhooks/relay/site-3-support`],
      [HOST, '/?rest_route=/support/v1/webhooks/relay/site-3-support'],
      [HOST, `/two${API}/webhooks/relay/site-3-support`],
      [HOST, `/five${API}/webhooks/relay/site-3-support`],
    ] as const) {
      const before = await ticketCounts();
      const { subject, answer } = await relay(server.url, host, path, mailboxes[3] as IssuedCredentials);
      assert.equal(answer.status, 202, `${path}: ${answer.text}`);
      const receipt = JSON.parse(answer.text) as { outcome: string; ticket_id: number };
      assert.equal(receipt.outcome, 'ticket_created');
      assert.equal(await ticketSubject(3, receipt.ticket_id), subject, `${path}: the ticket is blog 3's`);
      assert.deepEqual(await ticketCounts(), { ...before, 3: (before[3] as number) + 1 }, `${path}: no other blog got a ticket`);
    }
  });

  it("checks the relay's signature with blog 3's secret, not that of the mailbox with the same key at the address", async () => {
    const before = await ticketCounts();
    // Blog 1's `support` mailbox, whose address this is, signs a delivery for site-3-support.
    const { answer } = await relay(server.url, HOST, `${API}/webhooks/relay/site-3-support`, mailboxes[1] as IssuedCredentials, 'site-3-support');
    assertError(answer, 401, 'svc_invalid_signature');
    assert.equal((JSON.parse(answer.text) as { data: { reason: string } }).data.reason, 'invalid_signature');
    assert.deepEqual(await ticketCounts(), before);
  });

  it("takes an automation tool's post with blog 3's token at site 2's address into blog 3, and refuses blog 2's token", async () => {
    const path = `/two${API}/webhooks/inbound/site-3-support`;
    const test = await requestAt(server.url, HOST, { path, headers: { authorization: `Bearer ${mailboxes[3]?.token}` } });
    assert.equal(test.status, 200, test.text);
    assert.equal((JSON.parse(test.text) as { address: string }).address, 'support-3@support.example.test');

    const before = await ticketCounts();
    const fields = JSON.stringify({ from: 'Ana Silva <ana@example.com>', subject: 'Inbound to three', text: 'Hello from a tool.' });
    const post = (token: string) => requestAt(server.url, HOST, { method: 'POST', path, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: fields });
    assertError(await post(mailboxes[2]?.token as string), 401, 'svc_invalid_token');
    assert.deepEqual(await ticketCounts(), before);
    const accepted = await post(mailboxes[3]?.token as string);
    assert.equal(accepted.status, 202, accepted.text);
    assert.equal(await ticketSubject(3, (JSON.parse(accepted.text) as { ticket_id: number }).ticket_id), 'Inbound to three');
    assert.deepEqual(await ticketCounts(), { ...before, 3: (before[3] as number) + 1 });
  });

  it("answers the key of an archived blog as that blog's address does: 410 through wp_die(), nothing stored", async () => {
    const before = await ticketCounts();
    const { answer } = await relay(server.url, HOST, `${API}/webhooks/relay/site-5-support`, mailboxes[5] as IssuedCredentials);
    assert.equal(answer.status, 410, answer.text);
    assert.ok(answer.text.includes('This site has been archived or suspended.'), answer.text);
    assert.deepEqual(await ticketCounts(), before);
  });

  it('answers the key of a blog not on the network 404 svc_mailbox_not_found, as a missing mailbox', async () => {
    const before = await ticketCounts();
    // Blog 6 is a site of network 2, with a `support` mailbox: its own address takes the delivery.
    assertError((await relay(server.url, HOST, `${API}/webhooks/relay/site-6-support`, mailboxes[6] as IssuedCredentials)).answer, 404, 'svc_mailbox_not_found');
    assertError((await relay(server.url, HOST, `/two${API}/webhooks/relay/site-9-support`, mailboxes[3] as IssuedCredentials, 'site-9-support')).answer, 404, 'svc_mailbox_not_found');
    assert.deepEqual(await ticketCounts(), before);
    const home = await relay(server.url, OTHER_NETWORK, `${API}/webhooks/relay/site-6-support`, mailboxes[6] as IssuedCredentials);
    assert.equal(home.answer.status, 202, home.answer.text);
    assert.equal(await ticketSubject(6, (JSON.parse(home.answer.text) as { ticket_id: number }).ticket_id), home.subject);
  });

  it('keeps a process serving one site (WP_BLOG_ID) to its own keys: 404 for blog 3\'s', async () => {
    const single = await startServe(['serve', '--port=0'], serveEnv({ WP_BLOG_ID: '2' }));
    try {
      const before = await ticketCounts();
      const own = await relay(single.url, HOST, `${API}/webhooks/relay/site-2-support`, mailboxes[2] as IssuedCredentials);
      assert.equal(own.answer.status, 202, own.answer.text);
      assert.equal(await ticketSubject(2, (JSON.parse(own.answer.text) as { ticket_id: number }).ticket_id), own.subject);
      assertError((await relay(single.url, HOST, `${API}/webhooks/relay/site-3-support`, mailboxes[3] as IssuedCredentials)).answer, 404, 'svc_mailbox_not_found');
      assert.deepEqual(await ticketCounts(), { ...before, 2: (before[2] as number) + 1 });
    } finally {
      await single.stop();
    }
  });
});
