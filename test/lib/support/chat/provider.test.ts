/**
 * The provider seam (lib/support/chat/provider.ts) against a real local HTTP server speaking the
 * chat-completions API: streamed and whole answers, usage chunks with `choices` [] and null, an error
 * inside the stream, a stream that stops, a provider that never answers, a slow first byte, 401 and
 * 429, and an abort by the caller that closes the provider's connection.
 */
import assert from 'node:assert/strict';
import { ProviderError, ProviderTurn, completeChat, streamCompletion } from '../../../../lib/support/chat/provider';
import { ProviderSettings } from '../../../../lib/support/chat/settings';
import { eventually } from '../../../harness/eventually';
import { ANSWER, ANSWER_PIECES, FakeProvider, startFakeProvider } from '../../../harness/chat-provider';

const TURNS: ProviderTurn[] = [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'How do I reset my password?' }];

describe('chat provider (OpenAI-compatible chat completions)', function () {
  let fake: FakeProvider;
  before(async () => { fake = await startFakeProvider(); });
  after(async () => { await fake?.close(); });

  const settings = (model: string, timeouts: Partial<Pick<ProviderSettings, 'firstByteMs' | 'totalMs'>> = {}): ProviderSettings => ({
    baseUrl: fake.baseUrl, model, apiKey: 'sk-test-key', firstByteMs: 2000, totalMs: 5000, ...timeouts,
  });

  async function collect(p: ProviderSettings, signal?: AbortSignal): Promise<{ pieces: string[]; error: ProviderError | null }> {
    const pieces: string[] = [];
    try {
      await streamCompletion(p, TURNS, (batch) => pieces.push(...batch), signal);
      return { pieces, error: null };
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      return { pieces, error: err };
    }
  }

  it('streams the answer piece by piece, ignoring the usage chunks (choices [] and null) and ending at [DONE]', async () => {
    const { pieces, error } = await collect(settings('ok'));
    assert.equal(error, null);
    assert.deepEqual(pieces, ANSWER_PIECES);
    const sent = fake.requests.at(-1)!;
    assert.equal(sent.path, '/v1/chat/completions');
    assert.equal(sent.authorization, 'Bearer sk-test-key');
    assert.deepEqual(sent.body, { model: 'ok', messages: TURNS, stream: true });
  });

  it('answers whole when not streamed, with the model the provider names', async () => {
    assert.deepEqual(await completeChat(settings('ok'), TURNS), { text: ANSWER, model: 'ok-0613' });
    assert.equal(fake.requests.at(-1)!.body.stream, false);
  });

  it('reports an error sent inside the stream, after the pieces that came before it', async () => {
    const { pieces, error } = await collect(settings('mid-error'));
    assert.deepEqual(pieces, ANSWER_PIECES.slice(0, 2));
    assert.equal(error?.kind, 'stream');
    assert.equal(error?.message, 'The server is overloaded.');
  });

  it('reports a stream that stops before its end as cut short', async () => {
    const { pieces, error } = await collect(settings('cut'));
    assert.deepEqual(pieces, ANSWER_PIECES.slice(0, 2));
    assert.equal(error?.kind, 'cut');
  });

  it('gives up on a provider that sends nothing within the first-byte timeout, and closes its connection', async () => {
    const { pieces, error } = await collect(settings('silent', { firstByteMs: 150 }));
    assert.deepEqual(pieces, []);
    assert.equal(error?.kind, 'timeout');
    assert.match(error!.message, /sent nothing within 0.15 seconds/);
    await eventually(async () => fake.requests.at(-1)!.abandoned, 5000);
    await assert.rejects(completeChat(settings('silent', { firstByteMs: 150 }), TURNS), (err: ProviderError) => err.kind === 'timeout');
  });

  it('waits for a slow first byte within the timeout, and not beyond it', async () => {
    fake.slowMs = 100;
    assert.deepEqual((await collect(settings('slow-first', { firstByteMs: 3000 }))).pieces, ANSWER_PIECES);
    fake.slowMs = 1000;
    const late = await collect(settings('slow-first', { firstByteMs: 100 }));
    assert.equal(late.error?.kind, 'timeout');
  });

  it('gives up on an answer that does not finish within the total timeout, keeping what came', async () => {
    const { pieces, error } = await collect(settings('endless', { totalMs: 200 }));
    assert.deepEqual(pieces, [ANSWER_PIECES[0]]);
    assert.equal(error?.kind, 'timeout');
    assert.match(error!.message, /did not finish within 0.2 seconds/);
  });

  it('tells a refused key (401) and a rate limit (429) apart, with the provider’s message', async () => {
    const unauthorized = (await collect(settings('unauthorized'))).error;
    assert.equal(unauthorized?.kind, 'unauthorized');
    assert.equal(unauthorized?.status, 401);
    assert.match(unauthorized!.message, /Incorrect API key provided/);
    const limited = (await collect(settings('rate-limited'))).error;
    assert.equal(limited?.kind, 'rate_limited');
    assert.equal(limited?.status, 429);
    await assert.rejects(completeChat(settings('unauthorized'), TURNS), (err: ProviderError) => err.kind === 'unauthorized');
  });

  it('stops at once when its caller aborts, and closes the connection to the provider', async () => {
    const caller = new AbortController();
    const pieces: string[] = [];
    let failure: ProviderError | null = null;
    try {
      await streamCompletion(settings('endless'), TURNS, (batch) => {
        pieces.push(...batch);
        caller.abort();
      }, caller.signal);
    } catch (err) {
      failure = err as ProviderError;
    }
    assert.deepEqual(pieces, [ANSWER_PIECES[0]]);
    assert.equal(failure?.kind, 'aborted');
    await eventually(async () => fake.requests.at(-1)!.abandoned, 5000);
  });

  it('reports a provider that cannot be reached', async () => {
    const { error } = await collect({ ...settings('ok'), baseUrl: 'http://127.0.0.1:9/v1' });
    assert.equal(error?.kind, 'network');
  });
});
