/**
 * Tickets opened in someone else's name (docs/support-desk.md, "Unverified requesters"): an anonymous
 * chat handoff, a site's form without its key and mail an automation tool posts may name any address.
 * Agents and the team alert are told the requester is unverified, the ticket carries the account's own
 * name rather than the caller's, and the customer's own view shows no mark. Tickets whose requester was
 * proven (signed in, portal, the site's key, a signed relay) carry none. On the oracle site, with team
 * alerts sent to a real local receiver.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { JobWorker } from '../../../lib/jobs/worker';
import { teamAlertHandler } from '../../../lib/support/jobs/handlers/team-alert';
import { openPortalSession } from '../../../lib/support/portal/sessions';
import { createConnectedSite } from '../../../lib/support/sites/admin';
import { IssuedCredentials } from '../../../lib/support/mailboxes/admin';
import { addTestMailbox, inboundPost, postMeta, relayPost } from '../../harness/mail';
import { TestSite, openTestSite, setSupportSettings } from '../../harness/site';
import { API, as } from '../../harness/support';
import { WebhookReceiver, startWebhookReceiver } from '../../harness/webhook-receiver';

const SHOP = 'https://shop.example';
/** customer1's address and the account's own name (the oracle's users table). */
const CUSTOMER1 = { email: 'customer1@example.test', name: 'Customer One' };
/** The name an anonymous caller chose. */
const CHOSEN = 'Mallory Made-Up';

interface Alert {
  title: string;
  ticket: Record<string, unknown>;
}

describe('tickets in someone else\'s name', function () {
  this.timeout(30_000);
  let t: TestSite;
  let receiver: WebhookReceiver;
  let worker: JobWorker;
  let shop: { siteId: string; key: string };
  let mailbox: IssuedCredentials;

  before(async () => {
    receiver = await startWebhookReceiver();
    t = await openTestSite({ oracle: true });
    worker = new JobWorker(t.site, { handlers: { team_alert: teamAlertHandler() } });
    const issued = await createConnectedSite(t.site, { name: 'Shop', origins: [SHOP], portal: true });
    shop = { siteId: issued.site.siteId, key: issued.key };
    mailbox = await addTestMailbox(t.site, 'help');
  });
  after(async () => {
    await t?.close();
    await receiver?.close();
  });
  beforeEach(async () => {
    receiver.received.length = 0;
    // No docs on the oracle: every chat question gets the no-answer text, and no model is asked.
    await setSupportSettings(t.site, {
      alerts_url: `${receiver.url}/hook`, chat_enabled: true, chat_handoff: true, chat_api_key: 'sk-test-key', chat_base_url: 'http://127.0.0.1:9/v1',
    });
    // A new hour for every test: no test counts against another's rate limits.
    t.clock.advance(3600 * 1000);
  });

  const agentView = async (id: number) => {
    const res = await as(t.app, 'agent1').get(`${API}/tickets/${id}`);
    assert.equal(res.status, 200, res.text);
    return res.body;
  };
  /** The ticket_created alert of each ticket opened since the test began, by ticket ID. */
  const alerts = async (): Promise<Map<number, Alert>> => {
    await worker.runDueJobs();
    return new Map(receiver.received.map((hook) => {
      const alert = hook.json as Alert;
      return [Number(alert.ticket.id), alert];
    }));
  };

  async function handOff(email: string, name?: string): Promise<number> {
    const chat = await request(t.app).post(`${API}/chat/messages`).send({ thread: randomUUID(), message: 'My invoice is wrong' });
    assert.equal(chat.status, 201, chat.text);
    const res = await request(t.app).post(`${API}/chat/handoff`).send({ thread: chat.body.thread, token: chat.body.token, email, name, note: 'Refund me.' });
    assert.equal(res.status, 201, res.text);
    return res.body.ticket_id;
  }

  function email(from: string, subject: string): Buffer {
    return Buffer.from([
      `From: ${from}`, 'To: help@support.example.test', `Subject: ${subject}`, `Message-ID: <${randomUUID()}@mail.example.net>`,
      'Date: Sun, 22 Nov 2026 13:00:00 +0000', 'Content-Type: text/plain; charset=utf-8', '', 'Please refund order 77.', '',
    ].join('\r\n'));
  }

  describe('marked unverified', () => {
    it('chat handoff with a customer\'s address: the account\'s name, the mark for agents and in the alert, none for the customer', async () => {
      const id = await handOff(CUSTOMER1.email, CHOSEN);

      const agent = await agentView(id);
      assert.equal(agent.requester_unverified, 'chat_handoff');
      assert.deepEqual([agent.customer_name, agent.customer_email, agent.messages[0].author.name], [CUSTOMER1.name, CUSTOMER1.email, CUSTOMER1.name]);
      assert.ok(!JSON.stringify(agent).includes(CHOSEN), 'the caller\'s name is nowhere');
      const list = await as(t.app, 'agent1').get(`${API}/tickets?search=${encodeURIComponent('Refund me.')}`);
      assert.deepEqual(list.body.map((x: { id: number; requester_unverified?: string }) => [x.id, x.requester_unverified]), [[id, 'chat_handoff']]);
      assert.equal((await postMeta(t.site, id))._svc_requester_unverified, 'chat_handoff');

      // The customer's own view, and an agent asking for it, hold no mark.
      const own = await as(t.app, 'customer1').get(`${API}/tickets/${id}`);
      assert.equal(own.status, 200, own.text);
      assert.equal(own.body.customer_name, CUSTOMER1.name);
      assert.ok(!('requester_unverified' in own.body));
      const ownList = await as(t.app, 'customer1').get(`${API}/tickets?search=${encodeURIComponent('Refund me.')}`);
      assert.deepEqual(ownList.body.map((x: object) => 'requester_unverified' in x), [false]);
      const asCustomer = await as(t.app, 'agent1').get(`${API}/tickets/${id}`).set('X-Svc-View', 'customer');
      assert.deepEqual(asCustomer.body, own.body);

      const alert = (await alerts()).get(id);
      assert.ok(alert, 'a ticket_created alert');
      assert.equal(alert.title, `New ticket #${id} (unverified requester): Chat: My invoice is wrong`);
      assert.equal(alert.ticket.requester_unverified, 'chat_handoff');
      assert.equal(alert.ticket.customer_name, CUSTOMER1.name);
    });

    it('chat handoff with an address of no account: the name given, marked', async () => {
      const id = await handOff('stranger@example.net', CHOSEN);
      const agent = await agentView(id);
      assert.deepEqual([agent.requester_unverified, agent.customer_name], ['chat_handoff', CHOSEN]);
      assert.equal((await alerts()).get(id)?.ticket.requester_unverified, 'chat_handoff');
    });

    it('a site\'s form without the key: the answer shows what was sent; agents see the account\'s name and the mark', async () => {
      const res = await request(t.app).post(`${API}/sites/${shop.siteId}/tickets`).set('Origin', SHOP)
        .send({ email: CUSTOMER1.email, name: CHOSEN, subject: 'Cancel my plan', message: 'Cancel it today.' });
      assert.equal(res.status, 201, res.text);
      // The caller learns nothing of the account: not its name, not that it exists.
      assert.deepEqual([res.body.customer_name, res.body.messages[0].author.name], [CHOSEN, CHOSEN]);
      assert.ok(!('requester_unverified' in res.body));

      const agent = await agentView(res.body.id);
      assert.deepEqual([agent.requester_unverified, agent.customer_name, agent.messages[0].author.name], ['site_form', CUSTOMER1.name, CUSTOMER1.name]);
      const own = await as(t.app, 'customer1').get(`${API}/tickets/${res.body.id}`);
      assert.equal(own.status, 200, own.text);
      assert.ok(!('requester_unverified' in own.body));
      const alert = (await alerts()).get(res.body.id);
      assert.equal(alert?.title, `New ticket #${res.body.id} (unverified requester): Cancel my plan`);
      assert.deepEqual([alert?.ticket.requester_unverified, alert?.ticket.customer_name], ['site_form', CUSTOMER1.name]);
    });

    it('mail an automation tool posts (no relay vouched for it): the account\'s name, marked', async () => {
      const res = await inboundPost(t.app, mailbox).set('Content-Type', 'message/rfc822').send(email(`${CHOSEN} <${CUSTOMER1.email}>`, 'Refund by mail'));
      assert.equal(res.status, 202, res.text);
      assert.equal(res.body.outcome, 'ticket_created');
      const agent = await agentView(res.body.ticket_id);
      assert.deepEqual([agent.requester_unverified, agent.customer_name, agent.messages[0].author.name], ['inbound_webhook', CUSTOMER1.name, CUSTOMER1.name]);
      assert.equal((await alerts()).get(res.body.ticket_id)?.ticket.requester_unverified, 'inbound_webhook');
    });
  });

  describe('until the address confirms', () => {
    it('stays marked on mail an automation tool posts, and ends with the customer\'s signed-in reply', async () => {
      await setSupportSettings(t.site, { alerts_url: `${receiver.url}/hook`, alerts_customer_replied: true, chat_enabled: true, chat_handoff: true, chat_api_key: 'sk-test-key' });
      const id = await handOff(CUSTOMER1.email, CHOSEN);
      const posted = await inboundPost(t.app, mailbox).set('Content-Type', 'message/rfc822').send(email(`${CUSTOMER1.name} <${CUSTOMER1.email}>`, `Re: refund [#${id}]`));
      assert.deepEqual([posted.status, posted.body.outcome, posted.body.ticket_id], [202, 'reply_added', id], posted.text);
      assert.equal((await agentView(id)).requester_unverified, 'chat_handoff');
      // An alert reads the ticket when it is sent: this one goes before the customer's own reply.
      await worker.runDueJobs();

      const { version } = await agentView(id);
      const reply = await as(t.app, 'customer1').post(`${API}/tickets/${id}/messages`).send({ body: 'Yes, that was me.', version });
      assert.equal(reply.status, 201, reply.text);
      assert.ok(!('requester_unverified' in (await agentView(id))));
      await worker.runDueJobs();
      const replied = receiver.received.map((hook) => hook.json as Alert).filter((a) => a.title.startsWith('Customer replied'));
      assert.deepEqual(replied.map((a) => [a.title, a.ticket.requester_unverified]), [
        [`Customer replied on #${id} (unverified requester): Chat: My invoice is wrong`, 'chat_handoff'],
        [`Customer replied on #${id}: Chat: My invoice is wrong`, undefined],
      ]);
    });

    it('ends with the customer\'s reply through the signed relay', async () => {
      const id = await handOff(CUSTOMER1.email, CHOSEN);
      const relayed = await relayPost(t.app, t.site, mailbox, email(`${CUSTOMER1.name} <${CUSTOMER1.email}>`, `Re: refund [#${id}]`));
      assert.deepEqual([relayed.status, relayed.body.outcome], [202, 'reply_added'], relayed.text);
      assert.ok(!('requester_unverified' in (await agentView(id))));
      assert.ok(!('_svc_requester_unverified' in (await postMeta(t.site, id))));
    });
  });

  describe('proven requesters are not marked', () => {
    /** The agent's view and the alert hold no mark, nor does the ticket's meta. */
    async function assertVerified(id: number, subject: string): Promise<Record<string, any>> {
      const agent = await agentView(id);
      assert.ok(!('requester_unverified' in agent), `ticket ${id} is not marked`);
      assert.ok(!('_svc_requester_unverified' in (await postMeta(t.site, id))));
      const alert = (await alerts()).get(id);
      assert.equal(alert?.title, `New ticket #${id}: ${subject}`);
      assert.deepEqual(Object.keys(alert?.ticket ?? {}), ['id', 'subject', 'status', 'priority', 'source', 'customer_name', 'customer_email', 'created_at', 'message']);
      return agent;
    }

    it('a signed-in customer', async () => {
      const res = await as(t.app, 'customer1').post(`${API}/tickets`).send({ subject: 'Signed in', body: 'Hello' });
      assert.equal(res.status, 201, res.text);
      await assertVerified(res.body.id, 'Signed in');
    });

    it('a portal customer (the address proved by a code)', async () => {
      const { token } = await openPortalSession(t.site, shop.siteId, CUSTOMER1.email);
      const res = await request(t.app).post(`${API}/sites/${shop.siteId}/portal/tickets`).set('Origin', SHOP).set('X-Svc-Portal', token)
        .send({ subject: 'From the portal', message: 'Hello' });
      assert.equal(res.status, 201, res.text);
      await assertVerified(res.body.id, 'From the portal');
    });

    it('a site\'s server with its key: the site vouches, and the name it sends stands', async () => {
      const res = await request(t.app).post(`${API}/sites/${shop.siteId}/tickets`).set('Authorization', `Bearer ${shop.key}`)
        .send({ email: CUSTOMER1.email, name: 'C. One (shop account)', subject: 'From the shop server', message: 'Hello' });
      assert.equal(res.status, 201, res.text);
      const agent = await assertVerified(res.body.id, 'From the shop server');
      assert.equal(agent.customer_name, 'C. One (shop account)');
    });

    it('mail through the signed relay', async () => {
      const res = await relayPost(t.app, t.site, mailbox, email(`C One <${CUSTOMER1.email}>`, 'Relayed'));
      assert.equal(res.status, 202, res.text);
      assert.equal(res.body.outcome, 'ticket_created');
      const agent = await assertVerified(res.body.ticket_id, 'Relayed');
      assert.equal(agent.customer_name, 'C One');
    });
  });
});
