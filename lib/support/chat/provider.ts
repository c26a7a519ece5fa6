/**
 * The answer model behind one seam: an OpenAI-compatible `POST <base>/chat/completions` (OpenAI,
 * Ollama, vLLM, llama.cpp's server), with `fetch` and, for streams, `eventsource-parser` reading the
 * server-sent events. Timeouts (docs/chat.md, "The provider"): the first byte of the answer within
 * `firstByteMs`, all of it within `totalMs`; an abort of the caller's signal (the visitor left)
 * cancels the request. Nothing is retried: a retry after the first words would repeat them.
 *
 * The stream is read as the servers send it: `data: [DONE]` ends it; chunks whose `choices` is `[]`
 * or `null` (the usage chunk) carry no text; `data: {"error": …}` is the provider's error; a body
 * that ends before `[DONE]` and before any `finish_reason` is an answer cut short.
 */
import { createParser } from 'eventsource-parser';
import { ProviderSettings } from './settings';

export interface ProviderTurn {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/**
 * Why the provider gave no (complete) answer. `unauthorized` (401/403: the key), `rate_limited`
 * (429), `http` (another status), `timeout`, `network`, `stream` (an error inside the stream), `cut`
 * (the stream stopped mid-answer), `bad_answer` (not the API's shape), `aborted` (our caller left).
 */
export type ProviderFailure = 'unauthorized' | 'rate_limited' | 'http' | 'timeout' | 'network' | 'stream' | 'cut' | 'bad_answer' | 'aborted';

export class ProviderError extends Error {
  override name = 'ProviderError';
  constructor(readonly kind: ProviderFailure, message: string, readonly status?: number) {
    super(message);
  }
}

/** Largest error body read from a provider (its message is all that is wanted). */
const ERROR_BODY_BYTES = 16 * 1024;

/** The answer's text as it arrives, piece by piece. */
export async function* streamCompletion(p: ProviderSettings, turns: readonly ProviderTurn[], signal?: AbortSignal): AsyncGenerator<string> {
  const call = startCall(p, signal);
  try {
    const res = await call.post({ model: p.model, messages: turns, stream: true });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    // Reads are not raced against the stop, token by token: each race would leave a reaction on the
    // stop's promise until the answer ends (200 a stream at 20 tokens a second for 10 s). Stopping
    // aborts the request, which errors the body; cancelling the reader too ends a read whatever the body does.
    call.onStop(() => void reader.cancel().catch(() => undefined));
    const decoder = new TextDecoder();
    const datas: string[] = [];
    const parser = createParser({ onEvent: (event) => datas.push(event.data) });
    let finished = false;
    for (;;) {
      const { done, value } = await reader.read();
      call.throwIfStopped();
      if (done) break;
      call.firstByte();
      parser.feed(decoder.decode(value, { stream: true }));
      for (const data of datas.splice(0)) {
        if (data.trim() === '[DONE]') return;
        const chunk = parseChunk(data);
        if (chunk.finished) finished = true;
        if (chunk.text) yield chunk.text;
      }
    }
    if (!finished) throw new ProviderError('cut', 'The provider stopped before the answer was complete.');
  } catch (err) {
    throw call.explain(err);
  } finally {
    call.end();
  }
}

/** The whole answer at once (`stream: false`). `maxTokens` bounds a test call. */
export async function completeChat(p: ProviderSettings, turns: readonly ProviderTurn[], signal?: AbortSignal, maxTokens?: number): Promise<{ text: string; model: string }> {
  const call = startCall(p, signal);
  try {
    const res = await call.post({ model: p.model, messages: turns, stream: false, ...(maxTokens ? { max_tokens: maxTokens } : {}) });
    call.firstByte();
    const body = await call.guard(res.text());
    let json: { model?: unknown; choices?: Array<{ message?: { content?: unknown } }>; error?: unknown };
    try {
      json = JSON.parse(body);
    } catch {
      throw new ProviderError('bad_answer', 'The provider answered something other than JSON.');
    }
    if (json.error !== undefined) throw new ProviderError('stream', errorMessage(json.error));
    const content = json.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new ProviderError('bad_answer', 'The provider answered without a message.');
    return { text: content, model: typeof json.model === 'string' ? json.model : p.model };
  } catch (err) {
    throw call.explain(err);
  } finally {
    call.end();
  }
}

interface ChunkFacts {
  text: string;
  finished: boolean;
}

/** One `data:` payload of the stream. */
function parseChunk(data: string): ChunkFacts {
  let json: { choices?: unknown; error?: unknown };
  try {
    json = JSON.parse(data);
  } catch {
    throw new ProviderError('bad_answer', 'The provider sent a stream event that is not JSON.');
  }
  if (json && json.error !== undefined && json.error !== null) throw new ProviderError('stream', errorMessage(json.error));
  // The usage chunk: `choices` is [] (OpenAI) or null (some compatible servers).
  if (!Array.isArray(json?.choices) || json.choices.length === 0) return { text: '', finished: false };
  const choice = json.choices[0] as { delta?: { content?: unknown }; finish_reason?: unknown };
  const content = choice?.delta?.content;
  return { text: typeof content === 'string' ? content : '', finished: typeof choice?.finish_reason === 'string' };
}

/** A provider's own words for an error: `{"error": {"message": …}}`, `{"error": "…"}`, or a generic line. */
function errorMessage(error: unknown): string {
  if (typeof error === 'string' && error) return error.slice(0, 500);
  const message = (error as { message?: unknown })?.message;
  return typeof message === 'string' && message ? message.slice(0, 500) : 'The provider reported an error.';
}

type StopReason = 'first_byte' | 'total' | 'caller';

/** One request: its abort controller, its two timers and why it was stopped. */
function startCall(p: ProviderSettings, signal?: AbortSignal) {
  const controller = new AbortController();
  let stopped: StopReason | null = null;
  const stop = (reason: StopReason) => {
    stopped ??= reason;
    controller.abort();
  };
  const onCallerAbort = () => stop('caller');
  if (signal?.aborted) stop('caller');
  signal?.addEventListener('abort', onCallerAbort, { once: true });
  let firstByteTimer: NodeJS.Timeout | null = setTimeout(() => stop('first_byte'), p.firstByteMs);
  const totalTimer = setTimeout(() => stop('total'), p.totalMs);
  /** Rejects as soon as the call is stopped, whatever `work` waits for (a body that never comes). */
  const stoppedPromise = new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true }));
  stoppedPromise.catch(() => undefined);

  return {
    async post(body: unknown): Promise<Response> {
      let res: Response;
      try {
        res = await fetch(`${p.baseUrl}/chat/completions`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${p.apiKey}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
          body: JSON.stringify(body),
          signal: controller.signal,
        });
      } catch (err) {
        if (stopped) throw err;
        throw new ProviderError('network', `The provider could not be reached: ${(err as Error).cause ?? (err as Error).message}.`);
      }
      if (!res.ok) throw await statusError(res);
      return res;
    },
    guard<T>(work: Promise<T>): Promise<T> {
      return Promise.race([work, stoppedPromise]);
    },
    onStop(then: () => void): void {
      if (controller.signal.aborted) then();
      else controller.signal.addEventListener('abort', then, { once: true });
    },
    throwIfStopped(): void {
      if (stopped) throw new Error('stopped');
    },
    firstByte(): void {
      if (firstByteTimer) clearTimeout(firstByteTimer);
      firstByteTimer = null;
    },
    explain(err: unknown): unknown {
      if (stopped === 'caller') return new ProviderError('aborted', 'The visitor left before the answer was complete.');
      if (stopped === 'first_byte') return new ProviderError('timeout', `The provider sent nothing within ${p.firstByteMs / 1000} seconds.`);
      if (stopped === 'total') return new ProviderError('timeout', `The provider did not finish within ${p.totalMs / 1000} seconds.`);
      if (err instanceof ProviderError) return err;
      return new ProviderError('network', `The provider's answer broke off: ${(err as Error)?.message ?? String(err)}.`);
    },
    end(): void {
      if (firstByteTimer) clearTimeout(firstByteTimer);
      clearTimeout(totalTimer);
      signal?.removeEventListener('abort', onCallerAbort);
      // Whatever is left of the response is not wanted.
      if (!controller.signal.aborted) controller.abort();
    },
  };
}

async function statusError(res: Response): Promise<ProviderError> {
  let message = `The provider answered HTTP ${res.status}.`;
  try {
    const text = (await res.text()).slice(0, ERROR_BODY_BYTES);
    const json = JSON.parse(text) as { error?: unknown };
    if (json.error !== undefined) message = `${message} ${errorMessage(json.error)}`;
  } catch {
    // No JSON error body: the status says it.
  }
  const kind = res.status === 401 || res.status === 403 ? 'unauthorized' : res.status === 429 ? 'rate_limited' : 'http';
  return new ProviderError(kind, message, res.status);
}
