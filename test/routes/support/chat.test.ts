/**
 * The public chat routes over HTTP (docs/chat.md) on the oracle site, answers from a real local HTTP
 * server speaking the provider's API: config, a question answered as JSON and as server-sent events
 * read by a real client (fetch and a stream reader), heartbeats, event ids, a visitor leaving
 * mid-answer, provider failures, questions the docs do not cover, threads and their tokens, the
 * handoff to a ticket an agent then sees, the limits on the injected clock shared by two processes,
 * listed origins, and bad input changing nothing.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import request from 'supertest';
import { createParser } from 'eventsource-parser';
import { createApp } from '../../../lib/app';
import { insertDocs } from '../../../lib/support/docs/store';
import { createConnectedSite } from '../../../lib/support/sites/admin';
import { eventually } from '../../harness/eventually';
import { ANSWER, ANSWER_PIECES, FakeProvider, startFakeProvider } from '../../harness/chat-provider';
import { CHAT_DOCS } from '../../harness/chat-docs';
import { TestSite, openTestSite, setSupportSettings } from '../../harness/site';
import { API, as } from '../../harness/support';
import { assertRestError } from '../../harness/wp-http';

const SHOP = 'https://shop.example';
/** A connected site that may show the billing docs only. */
const BILLING = 'https://billing.example';
const QUESTION = 'How do I reset my password?';
const OFF_TOPIC = 'What is the capital of Mongolia?';

interface ReadEvent {
  event: string;
  id: string;
  data: any;
}

describe('support/v1 chat', function () {
  this.timeout(30_000);
  let t: TestSite;
  let fake: FakeProvider;
  let api: http.Server;
  let apiUrl: string;

  const settings = (extra: Record<string, unknown> = {}) => setSupportSettings(t.site, {
    chat_enabled: true, chat_handoff: true, chat_base_url: fake.baseUrl, chat_model: 'ok', chat_api_key: 'sk-test-key',
    chat_first_byte_timeout: 2, chat_total_timeout: 5, ...extra,
  });

  before(async () => {
    fake = await startFakeProvider();
    t = await openTestSite({ oracle: true });
    await t.site.options.update('permalink_structure', '/%postname%/');
    await insertDocs(t.site, CHAT_DOCS);
    await createConnectedSite(t.site, { name: 'Shop', origins: [SHOP], docCollections: ['account', 'billing', 'setup'] });
    await createConnectedSite(t.site, { name: 'Billing portal', origins: [BILLING], docCollections: ['billing'] });
    api = t.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => api.once('listening', resolve));
    apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((resolve) => api?.close(resolve));
    await t?.close();
    await fake?.close();
  });
  beforeEach(async () => {
    await settings();
    // A new hour for every test: earlier tests' messages do not count against its limits.
    t.clock.advance(3600 * 1000);
  });

  const ask = (body: Record<string, unknown>, app = t.app) => request(app).post(`${API}/chat/messages`).send(body);
  const threadOf = (uuid: string, token?: string) => {
    const req = request(t.app).get(`${API}/chat/threads/${uuid}`);
    return token === undefined ? req : req.set('X-Chat-Token', token);
  };
  const count = async (type: string) => Number(((await t.site.db.knex('wp_posts').where({ post_type: type }).count({ n: '*' }))[0] as { n: number }).n);

  /** POSTs a streamed question with fetch and reads the events as they come; `stopAfter` aborts once that many events came. */
  async function askStreaming(body: Record<string, unknown>, stopAfter?: (events: ReadEvent[]) => boolean) {
    const controller = new AbortController();
    const res = await fetch(`${apiUrl}${API}/chat/messages`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ...body, stream: true }), signal: controller.signal,
    });
    const events: ReadEvent[] = [];
    const comments: string[] = [];
    const parser = createParser({
      onEvent: (e) => events.push({ event: e.event ?? 'message', id: e.id ?? '', data: JSON.parse(e.data) }),
      onComment: (c) => comments.push(c.trim()),
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(decoder.decode(value, { stream: true }));
        if (stopAfter?.(events)) {
          controller.abort();
          break;
        }
      }
    } catch (err) {
      if (!controller.signal.aborted) throw err;
    }
    return { res, events, comments };
  }

  describe('GET /chat/config', () => {
    it('says chat and handoff are on, with the wording and branding', async () => {
      await settings({ chat_name: 'Ada', chat_color: '#ff6600', chat_greeting: 'Hello there!' });
      const res = await request(t.app).get(`${API}/chat/config`);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body, {
        enabled: true, handoff: true, name: 'Ada', color: '#ff6600', avatar_url: '',
        greeting: 'Hello there!', placeholder: 'Ask a question…', handoff_offer: 'Talk to a person',
      });
      assert.equal(res.headers['cache-control'], 'private, no-store');
    });

    it('is not enabled without a provider key, even when switched on', async () => {
      await settings({ chat_api_key: '' });
      assert.equal((await request(t.app).get(`${API}/chat/config`)).body.enabled, false);
      assertRestError(await ask({ thread: randomUUID(), message: QUESTION }), 403, 'svc_chat_disabled');
      await settings({ chat_enabled: false });
      assert.equal((await request(t.app).get(`${API}/chat/config`)).body.enabled, false);
    });

    it("answers this site's pages and a connected site's listed address by name, and refuses others", async () => {
      for (const origin of [SHOP, 'http://127.0.0.1:8081']) {
        const res = await request(t.app).get(`${API}/chat/config`).set('Origin', origin);
        assert.equal(res.status, 200);
        assert.equal(res.headers['access-control-allow-origin'], origin);
        assert.equal(res.headers['access-control-allow-credentials'], undefined);
        assert.match(String(res.headers.vary), /Origin/);
      }
      const preflight = await request(t.app).options(`${API}/chat/messages`).set('Origin', SHOP).set('Access-Control-Request-Method', 'POST');
      assert.match(String(preflight.headers['access-control-allow-headers']), /X-Chat-Token/);
      const stranger = await ask({ thread: randomUUID(), message: QUESTION }).set('Origin', 'https://evil.example');
      assertRestError(stranger, 403, 'rest_origin_not_allowed');
      assert.equal(stranger.headers['access-control-allow-origin'], undefined);
    });
  });

  describe('POST /chat/messages', () => {
    it('answers as JSON from the docs, citing the doc, and mints a token stored only as its hash', async () => {
      const thread = randomUUID();
      const before = fake.requests.length;
      const res = await ask({ thread, message: QUESTION, page_url: 'https://shop.example/account', page_title: 'My account' }).set('Origin', SHOP);
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.thread, thread);
      assert.match(res.body.token, /^[\w-]{43}$/);
      assert.equal(res.body.message.role, 'visitor');
      assert.equal(res.body.message.content, QUESTION);
      assert.equal(res.body.reply.role, 'assistant');
      assert.equal(res.body.reply.content, ANSWER);
      assert.equal(res.body.reply.state, 'complete');
      assert.deepEqual(res.body.reply.sources, [{ title: 'Resetting your password', url: 'http://127.0.0.1:8081/docs/reset-password/' }]);
      assert.equal(res.body.handoff_offered, false);
      // The provider got the numbered passages and the question, not streamed.
      const sent = fake.requests.slice(before);
      assert.equal(sent.length, 1);
      assert.equal(sent[0]!.body.stream, false);
      assert.match(sent[0]!.body.messages[0]!.content, /\[1\] Resetting your password\nForgot your password\? You can reset it yourself\./);
      assert.match(sent[0]!.body.messages[0]!.content, /\[2\] Resetting your password: If no email arrives\nCheck your spam folder/);
      assert.deepEqual(sent[0]!.body.messages.at(-1), { role: 'user', content: QUESTION });
      // Stored: the conversation named by its uuid, its token only as a hash, both messages.
      const post = await t.site.db.knex('wp_posts').where({ post_type: 'svc_chat', post_name: thread }).first();
      assert.equal(post.post_status, 'private');
      const meta = await t.site.db.knex('wp_postmeta').where({ post_id: post.ID });
      assert.ok(!JSON.stringify(meta).includes(res.body.token));
      assert.equal(meta.find((m: { meta_key: string }) => m.meta_key === '_svc_chat_token_hash')?.meta_value.length, 64);
      const messages = await t.site.db.knex('wp_posts').where({ post_type: 'svc_chat_msg', post_parent: post.ID }).orderBy('ID');
      assert.deepEqual(messages.map((m: { post_content: string }) => m.post_content), [QUESTION, ANSWER]);
    });

    it('continues a thread with its token, giving the model the conversation so far', async () => {
      const thread = randomUUID();
      const token = 'visitor-chosen-token-0001';
      assert.equal((await ask({ thread, token, message: QUESTION })).status, 201);
      const res = await ask({ thread, token, message: 'And if no reset email arrives?' });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.token, undefined, 'a token the visitor chose is not echoed');
      assert.deepEqual(fake.requests.at(-1)!.body.messages.slice(1).map((m) => m.role), ['user', 'assistant', 'user']);
    });

    it('streams the answer as server-sent events with ids, ending with done', async () => {
      const thread = randomUUID();
      const { res, events } = await askStreaming({ thread, message: QUESTION });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'text/event-stream; charset=UTF-8');
      assert.equal(res.headers.get('x-accel-buffering'), 'no');
      assert.deepEqual(events.map((e) => e.event), ['start', 'sources', 'delta', 'delta', 'delta', 'done']);
      assert.deepEqual(events.map((e) => e.id), ['1', '2', '3', '4', '5', '6']);
      assert.equal(events[0]!.data.thread, thread);
      assert.match(events[0]!.data.token, /^[\w-]{43}$/);
      assert.deepEqual(events[1]!.data.sources.slice(0, 2), [
        { n: 1, title: 'Resetting your password', url: 'http://127.0.0.1:8081/docs/reset-password/' },
        { n: 2, title: 'Resetting your password: If no email arrives', url: 'http://127.0.0.1:8081/docs/reset-password/' },
      ]);
      assert.deepEqual(events.filter((e) => e.event === 'delta').map((e) => e.data.text), ANSWER_PIECES);
      assert.equal(events[5]!.data.reply.content, ANSWER);
      assert.deepEqual(events[5]!.data.reply.sources.map((x: { url: string }) => x.url), ['http://127.0.0.1:8081/docs/reset-password/']);
      assert.equal(fake.requests.at(-1)!.body.stream, true);
    });

    it('stores a question and its streamed answer in a read and two transactions: 14 statements on a new thread, 15 on an existing one (the limits aside)', async () => {
      type Query = { sql: string; bindings?: unknown[]; __knexTxId?: string };
      /** The statements a streamed question costs, besides the limits' own transactions and the docs index's freshness checks. */
      const counted = async (body: Record<string, unknown>) => {
        const seen: Query[] = [];
        const record = (q: Query) => seen.push(q);
        t.site.db.knex.on('query', record);
        let events: ReadEvent[];
        try {
          events = (await askStreaming(body)).events;
        } finally {
          t.site.db.knex.off('query', record);
        }
        assert.equal(events.at(-1)!.event, 'done');
        const limits = new Set(seen.filter((q) => /svc_rate_limits/.test(q.sql)).map((q) => q.__knexTxId));
        const reads = seen.filter((q) => !q.__knexTxId && q.bindings?.includes('svc_chat'));
        const stored = seen.filter((q) => q.__knexTxId && !limits.has(q.__knexTxId));
        assert.equal(new Set(stored.map((q) => q.__knexTxId)).size, 2, stored.map((q) => q.sql).join('\n'));
        return { events, statements: reads.length + stored.length, sql: [...reads, ...stored].map((q) => q.sql).join('\n') };
      };
      const thread = randomUUID();
      const first = await counted({ thread, message: QUESTION });
      assert.equal(first.statements, 14, first.sql);
      const second = await counted({ thread, token: first.events[0]!.data.token, message: QUESTION });
      assert.equal(second.statements, 15, second.sql);
    });

    it('sends heartbeat comments while the provider is silent', async () => {
      await settings({ chat_model: 'slow-first', chat_heartbeat: 0.05 });
      fake.slowMs = 600;
      const { events, comments } = await askStreaming({ thread: randomUUID(), message: QUESTION });
      assert.ok(comments.includes('ping'), `comments: ${JSON.stringify(comments)}`);
      assert.equal(events.at(-1)!.event, 'done');
    });

    it('stops the provider when the visitor leaves, keeping the partial answer marked interrupted', async () => {
      await settings({ chat_model: 'endless' });
      const thread = randomUUID();
      const before = fake.requests.length;
      const { events } = await askStreaming({ thread, message: QUESTION }, (seen) => seen.some((e) => e.event === 'delta'));
      assert.deepEqual(events.filter((e) => e.event === 'delta').map((e) => e.data.text), [ANSWER_PIECES[0]]);
      await eventually(async () => fake.requests[before]?.abandoned === true, 5000);
      const post = await t.site.db.knex('wp_posts').where({ post_type: 'svc_chat', post_name: thread }).first();
      let last: Record<string, string> = {};
      await eventually(async () => {
        const rows = await t.site.db.knex('wp_posts').where({ post_type: 'svc_chat_msg', post_parent: post.ID }).orderBy('ID');
        if (rows.length < 2) return false;
        const meta = await t.site.db.knex('wp_postmeta').where({ post_id: rows[1].ID });
        last = { content: rows[1].post_content, ...Object.fromEntries(meta.map((m: { meta_key: string; meta_value: string }) => [m.meta_key, m.meta_value])) };
        return true;
      }, 5000);
      assert.equal(last.content, ANSWER_PIECES[0]);
      assert.equal(last._svc_chat_state, 'interrupted');
      assert.equal(last._svc_chat_role, 'assistant');
    });

    it('ends the stream with an error event when the provider fails mid-answer, keeping what came', async () => {
      await settings({ chat_model: 'mid-error' });
      const { events } = await askStreaming({ thread: randomUUID(), message: QUESTION });
      assert.deepEqual(events.map((e) => e.event), ['start', 'sources', 'delta', 'delta', 'error']);
      const error = events.at(-1)!.data;
      assert.equal(error.code, 'svc_chat_provider_error');
      assert.equal(error.status, 502);
      assert.equal(error.reply.state, 'interrupted');
      assert.equal(error.reply.content, ANSWER_PIECES.slice(0, 2).join(''));
      assert.ok(!JSON.stringify(events).includes('overloaded'), "the provider's own words are not shown to visitors");
    });

    it('ends the stream with an error event when storing the answer fails', async () => {
      await settings({ chat_model: 'paced' });
      fake.slowMs = 300;
      let renamed: Promise<void> | null = null;
      try {
        const { events } = await askStreaming({ thread: randomUUID(), message: QUESTION }, (seen) => {
          if (!renamed && seen.some((e) => e.event === 'delta')) {
            // The answer's meta cannot be written: its transaction fails once the provider is done.
            renamed = t.site.db.knex.schema.renameTable('wp_postmeta', 'wp_postmeta_away').then(() => undefined);
          }
          return false;
        });
        assert.deepEqual(events.map((e) => e.event), ['start', 'sources', 'delta', 'delta', 'delta', 'error']);
        assert.deepEqual(events.at(-1)!.data, { code: 'internal_server_error', message: 'There has been a critical error on this website.', status: 500 });
      } finally {
        if (renamed) {
          await renamed;
          await t.site.db.knex.schema.renameTable('wp_postmeta_away', 'wp_postmeta');
        }
      }
    });

    it('answers a provider refusal (401, 429) or silence as a clear error, the question kept', async () => {
      for (const [model, status, code] of [['unauthorized', 502, 'svc_chat_provider_error'], ['rate-limited', 502, 'svc_chat_provider_error'], ['silent', 504, 'svc_chat_provider_timeout']] as const) {
        await settings({ chat_model: model, chat_first_byte_timeout: 0.2 });
        const thread = randomUUID();
        const res = await ask({ thread, message: QUESTION });
        assertRestError(res, status, code);
        assert.equal(res.body.data.reply.state, 'failed');
        assert.equal(await t.site.db.knex('wp_posts').where({ post_type: 'svc_chat', post_name: thread }).first().then(Boolean), true);
      }
    });

    it('does not ask the model when the docs hold nothing relevant, and offers a person', async () => {
      const before = fake.requests.length;
      const res = await ask({ thread: randomUUID(), message: OFF_TOPIC });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.reply.state, 'no_answer');
      assert.equal(res.body.reply.content, "I couldn't find anything about that in our documentation.");
      assert.deepEqual(res.body.reply.sources, []);
      assert.equal(res.body.handoff_offered, true);
      const streamed = await askStreaming({ thread: randomUUID(), message: OFF_TOPIC });
      assert.deepEqual(streamed.events.map((e) => e.event), ['start', 'delta', 'done']);
      assert.equal(fake.requests.length, before, 'no provider call');
    });

    it("answers a connected site's pages from the doc collections that site may show", async () => {
      const before = fake.requests.length;
      const password = await ask({ thread: randomUUID(), message: QUESTION }).set('Origin', BILLING);
      assert.equal(password.body.reply.state, 'no_answer');
      assert.equal(fake.requests.length, before);
      const invoice = await ask({ thread: randomUUID(), message: 'Where can I download my invoices?' }).set('Origin', BILLING);
      assert.equal(invoice.body.reply.state, 'complete');
      assert.match(fake.requests.at(-1)!.body.messages[0]!.content, /\[1\] Invoices and receipts/);
      // This site's own pages and requests without Origin are answered from every doc.
      assert.equal((await ask({ thread: randomUUID(), message: QUESTION }).set('Origin', 'http://127.0.0.1:8081')).body.reply.state, 'complete');
    });

    it('refuses bad input with WordPress errors and stores nothing', async () => {
      const before = await count('svc_chat_msg');
      assertRestError(await ask({ thread: randomUUID() }), 400, 'rest_missing_callback_param');
      assertRestError(await ask({ thread: 'not-a-uuid', message: QUESTION }), 400, 'rest_invalid_param');
      assertRestError(await ask({ thread: randomUUID(), message: '   ' }), 400, 'rest_invalid_param');
      assertRestError(await ask({ thread: randomUUID(), message: 'x'.repeat(4001) }), 400, 'rest_invalid_param');
      assertRestError(await ask({ thread: randomUUID(), token: 'short', message: QUESTION }), 400, 'rest_invalid_param');
      assert.equal(await count('svc_chat_msg'), before);
    });
  });

  describe('GET /chat/threads/<uuid> and tokens', () => {
    it('shows the conversation to the holder of its token, and nothing to anyone else', async () => {
      const first = await ask({ thread: randomUUID(), message: QUESTION });
      const other = await ask({ thread: randomUUID(), message: QUESTION });
      const res = await threadOf(first.body.thread, first.body.token);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.thread, first.body.thread);
      assert.equal(res.body.handed_off, false);
      assert.deepEqual(res.body.messages.map((m: { role: string; content: string; state: string }) => [m.role, m.content, m.state]), [
        ['visitor', QUESTION, 'complete'], ['assistant', ANSWER, 'complete'],
      ]);
      assert.equal(res.body.messages[1].sources.length, 1);
      // Another thread's token, no token, a made-up thread: the same 404.
      assertRestError(await threadOf(first.body.thread, other.body.token), 404, 'svc_chat_thread_not_found');
      assertRestError(await threadOf(first.body.thread), 404, 'svc_chat_thread_not_found');
      assertRestError(await threadOf(randomUUID(), first.body.token), 404, 'svc_chat_thread_not_found');
    });

    it('makes one conversation of two first messages sent at once with the same token', async () => {
      const thread = randomUUID();
      const token = 'simultaneous-token-0001';
      const answers = await Promise.all([ask({ thread, token, message: OFF_TOPIC }), ask({ thread, token, message: `${OFF_TOPIC} Again.` })]);
      assert.deepEqual(answers.map((r) => r.status), [201, 201]);
      const posts = await t.site.db.knex('wp_posts').where({ post_type: 'svc_chat', post_name: thread });
      assert.equal(posts.length, 1);
      assert.equal((await threadOf(thread, token)).body.messages.length, 4);
    });

    it("refuses a message to a thread with another thread's token, storing nothing", async () => {
      const first = await ask({ thread: randomUUID(), message: QUESTION });
      const other = await ask({ thread: randomUUID(), message: QUESTION });
      const before = await count('svc_chat_msg');
      assertRestError(await ask({ thread: first.body.thread, token: other.body.token, message: 'Hijack' }), 404, 'svc_chat_thread_not_found');
      assertRestError(await ask({ thread: first.body.thread, message: 'No token' }), 404, 'svc_chat_thread_not_found');
      assert.equal(await count('svc_chat_msg'), before);
    });
  });

  describe('POST /chat/handoff', () => {
    it('keeps the page the visitor asked from as esc_url_raw() keeps it: no quote or angle bracket reaches the ticket', async () => {
      const chat = await ask({ thread: randomUUID(), message: QUESTION, page_url: 'https://shop.example/a"b<c>d' });
      assert.equal(chat.status, 201, chat.text);
      const res = await request(t.app).post(`${API}/chat/handoff`)
        .send({ thread: chat.body.thread, token: chat.body.token, email: 'page-url@example.test', name: 'Pat' });
      assert.equal(res.status, 201, res.text);
      const ticket = await as(t.app, 'agent1').get(`${API}/tickets/${res.body.ticket_id}`);
      const transcript = JSON.stringify(ticket.body);
      assert.match(transcript, /Page: https:\/\/shop\.example\/abcd/);
      assert.doesNotMatch(transcript, /a\\"b|<c>/);
    });

    it('opens a ticket with the transcript that an agent sees, freezes the thread, and answers the same ticket again', async () => {
      const chat = await ask({ thread: randomUUID(), message: QUESTION, page_url: 'https://shop.example/account', page_title: 'My account' });
      const handoff = (body: Record<string, unknown> = {}) => request(t.app).post(`${API}/chat/handoff`)
        .send({ thread: chat.body.thread, token: chat.body.token, email: 'customer1@example.test', name: 'Cus Tomer', note: 'Still locked out.', ...body });
      const res = await handoff();
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.handed_off, true);
      const ticketId = res.body.ticket_id;
      const again = await handoff({ note: 'Twice' });
      assert.equal(again.status, 200);
      assert.equal(again.body.ticket_id, ticketId);
      // An agent finds it in the list and reads the transcript.
      const list = await as(t.app, 'agent1').get(`${API}/tickets?search=${encodeURIComponent('Still locked out')}`);
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(list.body.map((x: { id: number }) => x.id), [ticketId]);
      assert.equal(list.body[0].source, 'chat');
      const ticket = await as(t.app, 'agent1').get(`${API}/tickets/${ticketId}`);
      assert.equal(ticket.body.subject, `Chat: ${QUESTION}`);
      assert.equal(ticket.body.customer_email, 'customer1@example.test');
      const body = JSON.stringify(ticket.body);
      for (const text of ['Still locked out.', `Visitor: ${QUESTION}`, 'Page: My account https://shop.example/account', 'Resetting your password: http://127.0.0.1:8081/docs/reset-password/']) {
        assert.ok(body.includes(JSON.stringify(text).slice(1, -1)), `transcript holds ${text}`);
      }
      // The customer with that address is its owner.
      const author = await t.site.db.knex('wp_posts').where({ ID: ticketId }).first('post_author');
      assert.equal(Number(author.post_author), 4);
      // Frozen: no more answers; the thread says it was handed off.
      assertRestError(await ask({ thread: chat.body.thread, token: chat.body.token, message: 'Hello?' }), 409, 'svc_chat_handed_off');
      const thread = await threadOf(chat.body.thread, chat.body.token);
      assert.equal(thread.body.handed_off, true);
      assert.equal(thread.body.ticket_id, ticketId);
    });

    it('opens one ticket for two handoffs of a thread sent at once', async () => {
      const chat = await ask({ thread: randomUUID(), message: QUESTION });
      const tickets = await count('svc_ticket');
      const send = () => request(t.app).post(`${API}/chat/handoff`).send({ thread: chat.body.thread, token: chat.body.token, email: 'twice@example.net' });
      const [a, b] = await Promise.all([send(), send()]);
      assert.deepEqual([a.status, b.status].sort(), [200, 201]);
      assert.equal(a.body.ticket_id, b.body.ticket_id);
      assert.equal(await count('svc_ticket'), tickets + 1);
    });

    it('is refused while the option is off, with a wrong token, or without an email', async () => {
      const chat = await ask({ thread: randomUUID(), message: QUESTION });
      const tickets = await count('svc_ticket');
      const handoff = (body: Record<string, unknown>) => request(t.app).post(`${API}/chat/handoff`).send({ thread: chat.body.thread, token: chat.body.token, email: 'v@example.net', ...body });
      assertRestError(await handoff({ email: undefined }), 400, 'rest_missing_callback_param');
      assertRestError(await handoff({ email: 'not an email' }), 400, 'rest_invalid_param');
      assertRestError(await handoff({ token: 'wrong-token-wrong-token' }), 404, 'svc_chat_thread_not_found');
      await settings({ chat_handoff: false });
      assertRestError(await handoff({}), 403, 'svc_chat_handoff_disabled');
      assert.equal(await count('svc_ticket'), tickets);
    });
  });

  describe('limits', () => {
    const THREADS = Array.from({ length: 5 }, () => randomUUID());

    it('takes 20 messages a minute per conversation, then 429 with Retry-After until the minute ends', async () => {
      const thread = randomUUID();
      const token = 'limit-test-token-00001';
      // Questions the docs do not cover: no provider call, the limit is what is tested.
      for (let i = 0; i < 20; i += 1) assert.equal((await ask({ thread, token, message: `${OFF_TOPIC} ${i}` })).status, 201);
      const refused = await ask({ thread, token, message: OFF_TOPIC });
      assertRestError(refused, 429, 'rest_too_many_requests');
      assert.ok(Number(refused.headers['retry-after']) >= 1 && Number(refused.headers['retry-after']) <= 60);
      // Another conversation from the same address is not held back by this one.
      assert.equal((await ask({ thread: randomUUID(), message: OFF_TOPIC })).status, 201);
      t.clock.advance(60 * 1000);
      assert.equal((await ask({ thread, token, message: OFF_TOPIC })).status, 201);
    });

    it('takes 60 messages per 10 minutes from one address, whatever the conversation', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 61; i += 1) {
        // A new conversation every 15 messages stays within the per-conversation limit.
        statuses.push((await ask({ thread: THREADS[Math.floor(i / 15)], token: 'address-limit-token-01', message: OFF_TOPIC })).status);
      }
      assert.deepEqual(statuses, [...Array(60).fill(201), 429]);
      t.clock.advance(600 * 1000);
      assert.equal((await ask({ thread: randomUUID(), message: OFF_TOPIC })).status, 201);
    });

    it('counts per address and for the whole site as settings say, shared by two processes', async () => {
      await settings({ chat_rate_limits: { address: { limit: 3, window: 600 }, site: { limit: 100, window: 60 } } });
      const other = await t.openAnother();
      const otherApp = createApp(other);
      // Both buckets are batched: each process's count reaches the other within FLUSH_MS (here: at once).
      const share = async () => {
        for (const limiter of [t.site.rateLimiter, other.rateLimiter, t.site.rateLimiter]) await limiter.flush();
      };
      const askShared = async (app?: typeof otherApp) => {
        const res = await ask({ thread: randomUUID(), message: OFF_TOPIC }, app);
        await share();
        return res;
      };
      assert.equal((await askShared()).status, 201);
      assert.equal((await askShared(otherApp)).status, 201);
      assert.equal((await askShared()).status, 201);
      assertRestError(await askShared(otherApp), 429, 'rest_too_many_requests');
      await settings({ chat_rate_limits: { site: { limit: 2, window: 60 } } });
      t.clock.advance(600 * 1000);
      assert.equal((await askShared()).status, 201);
      assert.equal((await askShared(otherApp)).status, 201);
      assertRestError(await askShared(), 429, 'rest_too_many_requests');
    });

    it('takes 5 handoffs an hour per address', async () => {
      const handoffs = [];
      for (let i = 0; i < 6; i += 1) {
        const chat = await ask({ thread: randomUUID(), message: OFF_TOPIC });
        handoffs.push(await request(t.app).post(`${API}/chat/handoff`).send({ thread: chat.body.thread, token: chat.body.token, email: `visitor${i}@example.net` }));
      }
      assert.deepEqual(handoffs.map((r) => r.status), [201, 201, 201, 201, 201, 429]);
      assert.ok(Number(handoffs[5]!.headers['retry-after']) > 0);
    });
  });
});
