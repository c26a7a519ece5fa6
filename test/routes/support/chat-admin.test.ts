/**
 * The internal chat routes (docs/chat.md, "Routes"): the provider test against a real local provider
 * server (ok with model and latency, or the provider's own error for a manager), learning in batches
 * and its progress, and who may call each.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { insertDocs } from '../../../lib/support/docs/store';
import { FakeProvider, startFakeProvider } from '../../harness/chat-provider';
import { TestSite, openTestSite, setSupportSettings } from '../../harness/site';
import { API, as } from '../../harness/support';

describe('support/v1 chat admin', function () {
  this.timeout(30_000);
  let t: TestSite;
  let fake: FakeProvider;

  before(async () => {
    fake = await startFakeProvider();
    t = await openTestSite({ oracle: true });
    await insertDocs(t.site, Array.from({ length: 60 }, (_, i) => ({ slug: `guide-${i}`, title: `Guide ${i}`, content: `<h2>Step</h2><p>Do thing ${i}.</p>`, collections: ['guides'] })));
  });
  after(async () => {
    await t?.close();
    await fake?.close();
  });

  const configure = (model: string) => setSupportSettings(t.site, { chat_enabled: true, chat_base_url: fake.baseUrl, chat_model: model, chat_api_key: 'sk-admin-test', chat_first_byte_timeout: 0.3 });

  it('tests the provider for a manager: ok with the model that answered', async () => {
    await configure('gpt-test');
    const res = await as(t.app, 'manager1').post(`${API}/chat/admin/test`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.ok, true);
    assert.equal(res.body.model, 'gpt-test-0613');
    assert.equal(typeof res.body.latency_ms, 'number');
    assert.deepEqual(fake.requests.at(-1)!.body, { model: 'gpt-test', messages: [{ role: 'user', content: 'Reply with the word OK.' }], stream: false, max_tokens: 5 });
  });

  it("reports the provider's refusal and silence to the manager", async () => {
    await configure('unauthorized');
    const refused = await as(t.app, 'manager1').post(`${API}/chat/admin/test`);
    assert.equal(refused.body.ok, false);
    assert.deepEqual({ ...refused.body.error, message: undefined }, { kind: 'unauthorized', status: 401, message: undefined });
    assert.match(refused.body.error.message, /Incorrect API key provided/);
    await configure('silent');
    const silent = await as(t.app, 'manager1').post(`${API}/chat/admin/test`);
    assert.equal(silent.body.error.kind, 'timeout');
  });

  it('learns one batch per call and reports what is left; agents may read the progress', async () => {
    const progress = async () => (await as(t.app, 'agent1').get(`${API}/chat/admin/learning`)).body;
    assert.deepEqual(await progress(), { docs: 60, learned: 0, left: 60, passages: 0 });
    const first = await as(t.app, 'manager1').post(`${API}/chat/admin/learn`);
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.body, { docs: 60, learned: 50, left: 10, passages: 50, chunked: 50, dropped: 0 });
    assert.deepEqual((await as(t.app, 'manager1').post(`${API}/chat/admin/learn`)).body, { docs: 60, learned: 60, left: 0, passages: 60, chunked: 10, dropped: 0 });
    assert.deepEqual(await progress(), { docs: 60, learned: 60, left: 0, passages: 60 });
  });

  it('keeps every internal route from visitors, customers and agents as it says', async () => {
    assert.equal((await request(t.app).post(`${API}/chat/admin/test`)).status, 401);
    assert.equal((await request(t.app).get(`${API}/chat/admin/learning`)).status, 401);
    assert.equal((await as(t.app, 'customer1').get(`${API}/chat/admin/learning`)).status, 403);
    assert.equal((await as(t.app, 'agent1').post(`${API}/chat/admin/learn`)).status, 403);
    assert.equal((await as(t.app, 'agent1').post(`${API}/chat/admin/test`)).status, 403);
  });
});
