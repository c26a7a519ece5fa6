/**
 * The customer portal's ticket routes (docs/portal.md): a signed-in customer's tickets opened on that
 * site, the public conversation only, replies and status changes as the site's settings allow, files,
 * and the isolation matrix: another customer, another site, a signed-out caller and a wrong token get
 * exactly what a missing ticket gets, and change nothing.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import request from 'supertest';
import { openPortalSession } from '../../../lib/support/portal/sessions';
import { createConnectedSite } from '../../../lib/support/sites/admin';
import { ConnectedSite, updateSite } from '../../../lib/support/sites/store';
import { Actor } from '../../../lib/support/tickets/actor';
import { uploadsDirOf } from '../../../lib/support/tickets/attachments';
import { createTicket } from '../../../lib/support/tickets/create';
import { addReply } from '../../../lib/support/tickets/reply';
import { findTicket } from '../../../lib/support/tickets/store';
import { TestSite, openTestSite, turnTeamAlertsOn } from '../../harness/site';
import { API } from '../../harness/support';
import { assertRestError } from '../../harness/wp-http';

const SHOP = 'https://shop.example';
const BLOG = 'https://blog.example';
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6300010000050001' + '0d0a2db40000000049454e44ae426082', 'hex');

const AGENT: Actor = { userId: 1, name: 'Ada Agent', email: 'ada@desk.example', agent: true, manager: false, customerView: false };

describe('support/v1 portal tickets', function () {
  let t: TestSite;
  let shop: ConnectedSite;
  let blog: ConnectedSite;
  let n = 0;

  before(async () => {
    t = await openTestSite();
    await turnTeamAlertsOn(t.site);
    shop = (await createConnectedSite(t.site, { name: 'Shop', origins: [SHOP], portal: true, messageLimit: 200, customerCanReopen: false })).site;
    blog = (await createConnectedSite(t.site, { name: 'Blog', origins: [BLOG], portal: true })).site;
  });
  after(async () => {
    fs.rmSync(uploadsDirOf(t.site.config), { recursive: true, force: true });
    await t?.close();
  });
  // A new hour for every test, so that no test counts against another's rate limits.
  beforeEach(() => t.clock.advance(3600 * 1000));

  const uniqueEmail = () => `portal${++n}@example.net`;
  const url = (site: ConnectedSite, rest = '') => `${API}/sites/${site.siteId}/portal/tickets${rest}`;
  const tokenFor = async (email: string, site = shop) => (await openPortalSession(t.site, site.siteId, email)).token;

  /** A signed-in customer of `site`: requests carry the token (in X-Svc-Portal) and the site's origin. */
  function customer(token: string, site = shop) {
    const origin = site === shop ? SHOP : BLOG;
    const send = (req: request.Test) => req.set('Origin', origin).set('X-Svc-Portal', token);
    return {
      list: (query = '') => send(request(t.app).get(url(site, query))),
      open: (body: Record<string, unknown>) => send(request(t.app).post(url(site))).send(body),
      get: (id: number) => send(request(t.app).get(url(site, `/${id}`))),
      patch: (id: number, body: Record<string, unknown>) => send(request(t.app).patch(url(site, `/${id}`))).send(body),
      reply: (id: number, body: Record<string, unknown>) => send(request(t.app).post(url(site, `/${id}/messages`))).send(body),
      file: (id: number, fileId: number) => send(request(t.app).get(url(site, `/${id}/attachments/${fileId}`))),
    };
  }

  async function openedTicket(token: string, subject = 'My order', site = shop): Promise<{ id: number; version: number }> {
    const res = await customer(token, site).open({ subject, message: 'Where is it?' });
    assert.equal(res.status, 201, res.text);
    return { id: res.body.id, version: res.body.version };
  }

  /** An agent's public reply with a file, then an internal note with a file; the ticket's versions move. */
  async function agentAnswers(ticketId: number): Promise<{ publicFile: number; internalFile: number }> {
    let ticket = (await findTicket(t.site.db, ticketId))!;
    const answer = await addReply(t.site, AGENT, ticketId, {
      body: 'It ships <b>today</b>.', version: ticket.version, visibility: 'public', files: [{ filename: 'label.png', mimeType: 'image/png', data: PNG }],
    });
    ticket = (await findTicket(t.site.db, ticketId))!;
    const note = await addReply(t.site, AGENT, ticketId, {
      body: 'Internal: customer is on the VIP list.', version: ticket.version, visibility: 'internal', files: [{ filename: 'notes.txt', mimeType: 'text/plain', data: Buffer.from('secret') }],
    });
    const fileOf = (r: typeof answer) => r.conversation.attachments.find((a) => a.messageId === r.message.id)!.id;
    return { publicFile: fileOf(answer), internalFile: fileOf(note) };
  }

  it('opens a ticket on the site: source portal, the site-id, 201 with its conversation and Location', async () => {
    const email = uniqueEmail();
    const res = await customer(await tokenFor(email)).open({ subject: 'Broken zipper', message: 'The zipper broke on day one.' });
    assert.equal(res.status, 201, res.text);
    assert.match(res.headers.location, new RegExp(`/wp-json/support/v1/sites/${shop.siteId}/portal/tickets/${res.body.id}$`));
    assert.deepEqual(Object.keys(res.body), ['id', 'subject', 'status', 'priority', 'source', 'customer_name', 'customer_email', 'created_at', 'updated_at', 'version', 'messages']);
    assert.deepEqual([res.body.source, res.body.status, res.body.customer_email], ['portal', 'open', email]);
    assert.deepEqual(res.body.messages.map((m: { body: string; author: unknown }) => [m.body, m.author]), [['The zipper broke on day one.', { name: '', kind: 'customer' }]]);
    assert.equal(res.headers['access-control-allow-origin'], SHOP);
    const meta = await t.site.db.knex(t.site.db.tables.postmeta).where({ post_id: res.body.id }).whereIn('meta_key', ['_svc_source', '_svc_site_id']);
    assert.deepEqual(Object.fromEntries(meta.map((m: { meta_key: string; meta_value: string }) => [m.meta_key, m.meta_value])), { _svc_source: 'portal', _svc_site_id: shop.siteId });
    const job = await t.site.db.knex(t.site.db.tables.plugin('svc', 'jobs')).where({ kind: 'team_alert' }).orderBy('id', 'desc').first();
    assert.equal(JSON.parse(job.payload).ticket_id, res.body.id);
  });

  it('lists only the customer\'s tickets opened on this site: not those emailed, opened elsewhere or by others', async () => {
    const email = uniqueEmail();
    const token = await tokenFor(email);
    const mine = await openedTicket(token, 'Mine on the shop');
    // The site's contact form (a keyless browser request) opens a ticket on the site too.
    const contact = await request(t.app).post(`${API}/sites/${shop.siteId}/tickets`).set('Origin', SHOP)
      .send({ email, name: 'Pat', subject: 'From the contact form', message: 'Hello' });
    assert.equal(contact.status, 201, contact.text);
    await openedTicket(await tokenFor(email, blog), 'Mine on the blog', blog);
    await openedTicket(await tokenFor(uniqueEmail()), 'Someone else on the shop');
    const emailed = await createTicket(t.site, { ...AGENT, userId: 0, agent: false, email, name: 'Pat' }, { subject: 'Emailed', body: 'by mail', source: 'email' });
    assert.ok(emailed.conversation.ticket.id);

    const res = await customer(token).list();
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.map((x: { subject: string }) => x.subject), ['From the contact form', 'Mine on the shop']);
    assert.equal(res.headers['x-wp-total'], '2');
    assert.equal(res.headers['x-wp-totalpages'], '1');
    assert.ok(!('assignee' in res.body[0]));
    const paged = await customer(token).list('?per_page=1&page=2');
    assert.deepEqual(paged.body.map((x: { id: number }) => x.id), [mine.id]);
    assertRestError(await customer(token).list('?per_page=1&page=3'), 400, 'rest_post_invalid_page_number');
    assertRestError(await customer(token).list('?per_page=51'), 400, 'rest_invalid_param');
  });

  it('shows the public conversation only: no internal note, its file, deliveries, addresses or assignee', async () => {
    const token = await tokenFor(uniqueEmail());
    const { id } = await openedTicket(token);
    const { publicFile, internalFile } = await agentAnswers(id);
    const res = await customer(token).get(id);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.status, 'waiting');
    assert.deepEqual(res.body.messages.map((m: { body: string }) => m.body), ['Where is it?', 'It ships <b>today</b>.']);
    const answer = res.body.messages[1];
    assert.deepEqual(answer.author, { name: 'Ada Agent', kind: 'agent' });
    assert.ok(!('deliveries' in answer));
    assert.deepEqual(answer.attachments.map((a: { id: number }) => a.id), [publicFile]);
    assert.match(answer.attachments[0].url, new RegExp(`/portal/tickets/${id}/attachments/${publicFile}$`));
    for (const hidden of ['assignee', 'site_id', 'page_url', 'metadata']) assert.ok(!(hidden in res.body), hidden);
    assert.ok(!res.text.includes('VIP') && !res.text.includes('ada@desk.example'));
    // The note's file by its ID, as an attachment or in a URL (a bare number could be part of a date).
    const files = res.body.messages.flatMap((m: { attachments: Array<{ id: number }> }) => m.attachments.map((a) => a.id));
    assert.ok(!files.includes(internalFile) && !res.text.includes(`/attachments/${internalFile}`), res.text);
  });

  it('downloads a file of the public conversation; a note\'s file is not found', async () => {
    const token = await tokenFor(uniqueEmail());
    const { id } = await openedTicket(token);
    const { publicFile, internalFile } = await agentAnswers(id);
    const file = await customer(token).file(id, publicFile).buffer(true);
    assert.equal(file.status, 200);
    assert.deepEqual(Buffer.from(file.body), PNG);
    assert.equal(file.headers['content-type'], 'application/octet-stream');
    assert.match(file.headers['content-disposition'], /^attachment; filename="label.png"/);
    assert.equal(file.headers['x-content-type-options'], 'nosniff');
    assert.equal(file.headers['content-security-policy'], "default-src 'none'; sandbox");
    assertRestError(await customer(token).file(id, internalFile), 404, 'svc_attachment_not_found');
  });

  it('a reply reopens the ticket, moves the version and refuses a stale one (409, nothing stored)', async () => {
    const token = await tokenFor(uniqueEmail());
    const { id } = await openedTicket(token);
    await agentAnswers(id);
    const { version } = (await customer(token).get(id)).body;
    const res = await customer(token).reply(id, { message: 'Thanks, and the invoice?', version });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual([res.body.body, res.body.author.kind, res.body.visibility, res.body.ticket.status], ['Thanks, and the invoice?', 'customer', 'public', 'open']);
    assert.equal(res.body.ticket.version, version + 1);
    const stale = await customer(token).reply(id, { message: 'Again', version });
    assertRestError(stale, 409, 'svc_version_conflict');
    assert.equal(JSON.parse(stale.text).data.version, version + 1);
    assert.equal((await customer(token).get(id)).body.messages.length, 3);
    assertRestError(await customer(token).reply(id, { message: 'No version' }), 400, 'rest_missing_callback_param');
  });

  it('the site\'s message limit holds for new tickets and replies; closed new tickets are refused', async () => {
    const token = await tokenFor(uniqueEmail());
    const { id, version } = await openedTicket(token);
    const long = 'é'.repeat(201);
    const tooLong = await customer(token).open({ subject: 'Long', message: long });
    assertRestError(tooLong, 400, 'svc_message_too_long');
    assert.equal(JSON.parse(tooLong.text).data.max_length, 200);
    assertRestError(await customer(token).reply(id, { message: long, version }), 400, 'svc_message_too_long');
    assert.equal((await customer(token).get(id)).body.version, version);
    await updateSite(t.site, shop.postId, { newTickets: false });
    try {
      assertRestError(await customer(token).open({ subject: 'Closed', message: 'Hello' }), 403, 'svc_new_tickets_closed');
      // Closing new tickets leaves the customer's conversations open.
      assert.equal((await customer(token).reply(id, { message: 'Still here', version })).status, 201);
    } finally {
      await updateSite(t.site, shop.postId, { newTickets: true });
    }
    assert.equal((await customer(token).list()).body.length, 1);
  });

  it('resolves and reopens as the site allows; a stale version is 409; waiting is not the customer\'s to set', async () => {
    const token = await tokenFor(uniqueEmail());
    const { id, version } = await openedTicket(token);
    assertRestError(await customer(token).patch(id, { status: 'waiting', version }), 400, 'rest_invalid_param');
    const resolved = await customer(token).patch(id, { status: 'resolved', version });
    assert.equal(resolved.status, 200, resolved.text);
    assert.deepEqual([resolved.body.status, resolved.body.version], ['resolved', version + 1]);
    assertRestError(await customer(token).patch(id, { status: 'resolved', version }), 409, 'svc_version_conflict');
    // The shop lets customers resolve but not reopen.
    assertRestError(await customer(token).patch(id, { status: 'open', version: version + 1 }), 403, 'svc_status_change_not_allowed');
    await updateSite(t.site, shop.postId, { customerCanReopen: true });
    try {
      const reopened = await customer(token).patch(id, { status: 'open', version: version + 1 });
      assert.equal(reopened.status, 200, reopened.text);
      assert.equal(reopened.body.status, 'open');
    } finally {
      await updateSite(t.site, shop.postId, { customerCanReopen: false });
    }
    await updateSite(t.site, shop.postId, { customerCanResolve: false });
    try {
      assertRestError(await customer(token).patch(id, { status: 'resolved', version: version + 2 }), 403, 'svc_status_change_not_allowed');
    } finally {
      await updateSite(t.site, shop.postId, { customerCanResolve: true });
    }
  });

  it('answers from listed origins only, names exactly that origin, never with credentials, and always varies on Origin', async () => {
    const token = await tokenFor(uniqueEmail());
    const listed = await customer(token).list();
    assert.equal(listed.headers['access-control-allow-origin'], SHOP);
    assert.equal(listed.headers['access-control-allow-credentials'], undefined);
    assert.match(listed.headers.vary, /Origin/);
    for (const origin of ['https://evil.example', 'null']) {
      const refused = await request(t.app).get(url(shop)).set('Origin', origin).set('X-Svc-Portal', token);
      assertRestError(refused, 403, 'rest_origin_not_allowed');
      assert.equal(refused.headers['access-control-allow-origin'], undefined);
    }
    const preflight = await request(t.app).options(url(shop, '/1')).set('Origin', SHOP)
      .set('Access-Control-Request-Method', 'PATCH').set('Access-Control-Request-Headers', 'x-svc-portal, content-type');
    assert.equal(preflight.headers['access-control-allow-origin'], SHOP);
    assert.match(preflight.headers['access-control-allow-headers'], /X-Svc-Portal/);
    const server = await request(t.app).get(url(shop)).set('X-Svc-Portal', token);
    assert.equal(server.status, 200);
    assert.match(server.headers.vary, /Origin/);
  });

  it('portal off: every ticket route is 404 portal_disabled, even with a valid token', async () => {
    const token = await tokenFor(uniqueEmail());
    const { id, version } = await openedTicket(token);
    await updateSite(t.site, shop.postId, { portal: false });
    try {
      const c = customer(token);
      for (const res of [await c.list(), await c.open({ subject: 'x', message: 'y' }), await c.get(id), await c.patch(id, { status: 'resolved', version }),
        await c.reply(id, { message: 'x', version }), await c.file(id, 1)]) {
        assertRestError(res, 404, 'portal_disabled');
      }
    } finally {
      await updateSite(t.site, shop.postId, { portal: true });
    }
  });

  it('a token is useless on the ticket routes after sign-out and after 30 days', async () => {
    const email = uniqueEmail();
    const opened = await openPortalSession(t.site, shop.siteId, email);
    const { id } = await openedTicket(opened.token);
    const out = await request(t.app).delete(`${API}/sites/${shop.siteId}/portal/session`).set('X-Svc-Portal', opened.token);
    assert.equal(out.status, 200, out.text);
    assertRestError(await customer(opened.token).get(id), 401, 'svc_portal_session_invalid');
    const later = await tokenFor(email);
    assert.equal((await customer(later).get(id)).status, 200);
    t.clock.advance(30 * 24 * 3600 * 1000);
    assertRestError(await customer(later).list(), 401, 'svc_portal_session_invalid');
  });

  describe('isolation matrix', () => {
    let owner: string;
    let ticket: { id: number; version: number };
    let files: { publicFile: number; internalFile: number };
    const MISSING = 999_999_999;

    before(async () => {
      const email = uniqueEmail();
      owner = await tokenFor(email);
      ticket = await openedTicket(owner, 'Only mine');
      files = await agentAnswers(ticket.id);
      ticket.version = (await findTicket(t.site.db, ticket.id))!.version;
    });

    /** Every ticket route, as `who` calls it, for the ticket `id`. */
    const calls = (who: ReturnType<typeof customer>, id: number, version: number) => ({
      'GET ticket': () => who.get(id),
      'PATCH ticket': () => who.patch(id, { status: 'resolved', version }),
      'POST messages': () => who.reply(id, { message: 'I am not the customer', version }),
      'GET attachment': () => who.file(id, files.publicFile),
    });

    async function assertSameAsMissing(who: () => Promise<ReturnType<typeof customer>>, label: string): Promise<void> {
      const caller = await who();
      const existing = calls(caller, ticket.id, ticket.version);
      const missing = calls(caller, MISSING, ticket.version);
      for (const route of Object.keys(existing) as Array<keyof typeof existing>) {
        const a = await existing[route]();
        const b = await missing[route]();
        assert.ok(a.status >= 400, `${label} ${route}: ${a.status} ${a.text}`);
        assert.deepEqual([a.status, JSON.parse(a.text)], [b.status, JSON.parse(b.text)], `${label} ${route}`);
        assert.ok(!a.text.includes('Only mine') && !a.text.includes('Where is it'), `${label} ${route} leaked`);
      }
      const after = (await findTicket(t.site.db, ticket.id))!;
      assert.deepEqual([after.version, after.status], [ticket.version, 'waiting'], `${label} changed the ticket`);
    }

    it('another customer of the same site', async () => {
      const other = await tokenFor(uniqueEmail());
      await assertSameAsMissing(async () => customer(other), 'other customer');
      assert.deepEqual((await customer(other).list()).body, []);
    });

    it('the same address signed in to another site (its URL, and its token on this site\'s URL)', async () => {
      const email = (await findTicket(t.site.db, ticket.id))!.customerEmail;
      const onBlog = await tokenFor(email, blog);
      await assertSameAsMissing(async () => customer(onBlog, blog), 'same address on another site');
      assert.deepEqual((await customer(onBlog, blog).list()).body, []);
      await assertSameAsMissing(async () => customer(onBlog, shop), 'another site\'s token');
      assertRestError(await customer(onBlog, shop).list(), 401, 'svc_portal_session_invalid');
    });

    it('a signed-out caller and a wrong token', async () => {
      await assertSameAsMissing(async () => customer(''), 'signed out');
      assertRestError(await customer('').list(), 401, 'svc_portal_session_invalid');
      assertRestError(await customer('').open({ subject: 'x', message: 'y' }), 401, 'svc_portal_session_invalid');
      const wrong = Buffer.alloc(32, 1).toString('base64url');
      await assertSameAsMissing(async () => customer(wrong), 'wrong token');
      assertRestError(await customer(wrong).list(), 401, 'svc_portal_session_invalid');
      // The owner's token as the other header form works: the matrix refused callers, not a header.
      const res = await request(t.app).get(url(shop, `/${ticket.id}`)).set('Authorization', `Bearer ${owner}`);
      assert.equal(res.status, 200, res.text);
    });
  });
});
