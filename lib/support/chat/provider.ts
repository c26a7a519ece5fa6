/**
 * The answer model behind one seam: an OpenAI-compatible `POST <base>/chat/completions` (OpenAI,
 * Ollama, vLLM, llama.cpp's server), over `node:http` with kept connections (./provider-http.ts)
 * and, for streams, `eventsource-parser` reading the server-sent events. Timeouts (docs/chat.md,
 * "The provider"): the first byte of the answer within `firstByteMs`, all of it within `totalMs`; an
 * abort of the caller's signal (the visitor left) cancels the request. Nothing the provider received
 * is retried: a retry after the first words would repeat them.
 *
 * The stream is read as the servers send it: `data: [DONE]` ends it; chunks whose `choices` is `[]`
 * or `null` (the usage chunk) carry no text; `data: {"error": …}` is the provider's error; a body
 * that ends before `[DONE]` and before any `finish_reason` is an answer cut short.
 */
import { IncomingMessage } from 'node:http';
import { createParser } from 'eventsource-parser';
import { ProviderRequest, postJson, readText } from './provider-http';
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

/**
 * Streams the answer: `onPieces` gets its text as it arrives, the pieces of one read of the connection
 * together, called from that read (no promise or generator step per token); resolves once the answer
 * is complete, rejects with a ProviderError otherwise (after the pieces that came before the failure).
 */
export async function streamCompletion(p: ProviderSettings, turns: readonly ProviderTurn[], onPieces: (pieces: string[]) => void, signal?: AbortSignal): Promise<void> {
  const call = startCall(p, signal);
  try {
    await readAnswer(await call.post({ model: p.model, messages: turns, stream: true }), call, onPieces);
  } catch (err) {
    throw call.explain(err);
  } finally {
    call.end();
  }
}

/**
 * Reads a streamed answer as the connection delivers it, each read parsed at once: `[DONE]` ends it,
 * a body that ends before it and before any `finish_reason` is an answer cut short; a stop (a
 * timeout, the visitor gone) ends it at once, whatever is still unread.
 */
function readAnswer(res: IncomingMessage, call: Call, onPieces: (pieces: string[]) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let finished = false;
    let done = false;
    let pieces: string[] = [];
    const settle = (err?: unknown) => {
      if (settled) return;
      settled = true;
      if (err === undefined) resolve();
      else reject(err);
    };
    const parser = createParser({
      onEvent: (event) => {
        if (done) return;
        if (event.data.trim() === '[DONE]') return void (done = true);
        const chunk = parseChunk(event.data);
        if (chunk.finished) finished = true;
        if (chunk.text) pieces.push(chunk.text);
      },
    });
    res.setEncoding('utf8');
    res.on('data', (text: string) => {
      call.firstByte();
      if (settled || done) return;
      let failure: unknown;
      try {
        parser.feed(text);
      } catch (err) {
        failure = err;
      }
      const ready = pieces;
      pieces = [];
      try {
        if (ready.length) onPieces(ready);
      } catch (err) {
        failure ??= err;
      }
      if (failure !== undefined) settle(failure);
      else if (done) settle();
    });
    res.once('end', () => settle(done || finished ? undefined : new ProviderError('cut', 'The provider stopped before the answer was complete.')));
    res.once('error', (err) => settle(err));
    res.once('close', () => settle(new Error('the connection closed mid-answer')));
    call.onStop(() => settle(new Error('stopped')));
  });
}

/** The whole answer at once (`stream: false`). `maxTokens` bounds a test call. */
export async function completeChat(p: ProviderSettings, turns: readonly ProviderTurn[], signal?: AbortSignal, maxTokens?: number): Promise<{ text: string; model: string }> {
  const call = startCall(p, signal);
  try {
    const res = await call.post({ model: p.model, messages: turns, stream: false, ...(maxTokens ? { max_tokens: maxTokens } : {}) });
    call.firstByte();
    const body = await call.guard(readText(res));
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

type Call = ReturnType<typeof startCall>;

/** One request: its two timers, why it was stopped, and its connection, ended when it is. */
function startCall(p: ProviderSettings, signal?: AbortSignal) {
  let request: ProviderRequest | null = null;
  let response: IncomingMessage | null = null;
  let stopped: StopReason | null = null;
  const onStop: Array<() => void> = [];
  const stop = (reason: StopReason) => {
    if (stopped) return;
    stopped = reason;
    request?.destroy();
    for (const then of onStop.splice(0)) then();
  };
  const onCallerAbort = () => stop('caller');
  signal?.addEventListener('abort', onCallerAbort, { once: true });
  let firstByteTimer: NodeJS.Timeout | null = setTimeout(() => stop('first_byte'), p.firstByteMs);
  const totalTimer = setTimeout(() => stop('total'), p.totalMs);
  if (signal?.aborted) stop('caller');

  const call = {
    async post(body: unknown): Promise<IncomingMessage> {
      if (stopped) throw new Error('stopped');
      request = postJson(`${p.baseUrl}/chat/completions`, { Authorization: `Bearer ${p.apiKey}`, Accept: 'application/json, text/event-stream' }, body);
      let res: IncomingMessage;
      try {
        res = await call.guard(request.response);
      } catch (err) {
        if (stopped) throw err;
        throw new ProviderError('network', `The provider could not be reached: ${(err as Error).message}.`);
      }
      response = res;
      if (res.statusCode === undefined || res.statusCode < 200 || res.statusCode > 299) throw await statusError(res);
      return res;
    },
    /** Rejects as soon as the call is stopped, whatever `work` waits for (a body that never comes). */
    guard<T>(work: Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        call.onStop(() => reject(new Error('stopped')));
        work.then(resolve, reject);
      });
    },
    onStop(then: () => void): void {
      if (stopped) then();
      else onStop.push(then);
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
      onStop.length = 0;
      // A connection whose answer was read to its end goes back to the pool; any other is not wanted.
      if (!(response as IncomingMessage | null)?.complete) (request as ProviderRequest | null)?.destroy();
    },
  };
  return call;
}

async function statusError(res: IncomingMessage): Promise<ProviderError> {
  const status = res.statusCode ?? 0;
  let message = `The provider answered HTTP ${status}.`;
  try {
    const text = (await readText(res)).slice(0, ERROR_BODY_BYTES);
    const json = JSON.parse(text) as { error?: unknown };
    if (json.error !== undefined) message = `${message} ${errorMessage(json.error)}`;
  } catch {
    // No JSON error body: the status says it.
  }
  const kind = status === 401 || status === 403 ? 'unauthorized' : status === 429 ? 'rate_limited' : 'http';
  return new ProviderError(kind, message, status);
}
