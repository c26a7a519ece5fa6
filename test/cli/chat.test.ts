/** `understudy chat test|learn` over a scratch database, with a real OpenAI-shaped server on loopback. */
import assert from 'node:assert/strict';
import { chunkDoc } from '../../lib/support/chat/retrieval';
import { insertDocs } from '../../lib/support/docs/store';
import { ScratchDatabase, scratchDatabase } from '../harness/db';
import { CHAT_DOCS } from '../harness/chat-docs';
import { FakeProvider, startFakeProvider } from '../harness/chat-provider';
import { setSupportSettings } from '../harness/site';
import { cli, envFor, openFor } from './cli-harness';

describe('understudy chat', function () {
  let db: ScratchDatabase;
  let env: Record<string, string>;
  let fake: FakeProvider;

  before(async () => {
    db = await scratchDatabase();
    env = envFor(db.target);
    fake = await startFakeProvider();
    const { site } = await openFor(env);
    try {
      await insertDocs(site, CHAT_DOCS);
    } finally {
      await site.close();
    }
  });
  after(async () => {
    await fake?.close();
    await db?.drop();
  });

  async function useModel(model: string): Promise<void> {
    const { site } = await openFor(env);
    try {
      await setSupportSettings(site, { chat_enabled: true, chat_base_url: fake.baseUrl, chat_model: model, chat_api_key: 'sk-cli' });
    } finally {
      await site.close();
    }
  }

  it('test: says which model answered, with the saved key', async () => {
    await useModel('ok');
    const run = await cli(['chat', 'test'], env);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /^Success: The model 'ok-0613' answered in \d+ ms\.\n$/);
    assert.equal(fake.requests.at(-1)?.authorization, 'Bearer sk-cli');
    const json = JSON.parse((await cli(['chat', 'test', '--format=json'], env)).stdout);
    assert.deepEqual({ ...json, latency_ms: undefined }, { ok: true, model: 'ok-0613', latency_ms: undefined });
  });

  it('test: reports the provider\'s refusal and exits 1', async () => {
    await useModel('unauthorized');
    const run = await cli(['chat', 'test'], env);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /^Error: The model 'unauthorized' did not answer: \w+ \(HTTP 401\): .*Incorrect API key provided/);
  });

  it('learn: chunks every public doc and says how many passages they make', async () => {
    const passages = CHAT_DOCS.reduce((n, doc, i) => n + chunkDoc({ id: i + 1, title: doc.title, content: doc.content, slug: doc.slug }).length, 0);
    const json = await cli(['chat', 'learn', '--json'], env);
    assert.equal(json.status, 0, json.stderr);
    const result = JSON.parse(json.stdout);
    assert.deepEqual({ ...result, seconds: undefined }, { docs: CHAT_DOCS.length, learned: CHAT_DOCS.length, left: 0, passages, seconds: undefined });
    const text = await cli(['chat', 'learn'], env);
    assert.match(text.stdout, new RegExp(`^Success: Learned ${CHAT_DOCS.length} of ${CHAT_DOCS.length} public docs: ${passages} passages in \\d+\\.\\d s\\.\\n$`));
  });
});
