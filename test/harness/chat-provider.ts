/**
 * A real HTTP server on 127.0.0.1 speaking the OpenAI chat-completions API as providers do, for the
 * chat tests. What it does is chosen by the `model` a request names (a test sets `chat_model`):
 * - `ok` (any unknown name): the answer `ANSWER`, streamed in pieces (a role chunk first, a finish
 *   chunk, a usage chunk with `choices: []`, another with `choices: null`, then `[DONE]`) or as one JSON body;
 * - `mid-error`: two pieces, then `data: {"error": …}`;
 * - `cut`: two pieces, then the connection ends (no finish, no `[DONE]`);
 * - `silent`: headers never come;
 * - `slow-first`: the answer after `slowMs` of silence;
 * - `endless`: one piece, then nothing more until the client goes;
 * - `paced`: the streamed answer's pieces `slowMs` apart (a reader sees it grow);
 * - `long`: `LONG_ANSWER_PIECES` the same way: taller than a chat panel, with a long URL and Japanese without spaces;
 * - `unauthorized`, `rate-limited`: 401 and 429 with an OpenAI-style error body.
 * Every request is recorded, with whether the client closed it before the server had finished.
 */
import http from 'node:http';
import { AddressInfo } from 'node:net';

export const ANSWER_PIECES = ['You can reset your password ', 'from the sign-in page [1]. ', 'It takes a minute.'];
export const ANSWER = ANSWER_PIECES.join('');
export const LONG_ANSWER_PIECES = [
  'Resetting takes a few steps [1].\n', ...Array.from({ length: 30 }, (_, i) => `Step ${i + 1}: follow the link in the email and choose a new password.\n`),
  'The page is https://shop.example/account/password/reset?token=0123456789abcdef0123456789abcdef0123456789abcdef\n',
  'パスワードをリセットするにはサインインページのリンクをクリックしてから新しいパスワードを入力してください。',
];
export const LONG_ANSWER = LONG_ANSWER_PIECES.join('');

export interface ProviderRequest {
  path: string;
  authorization: string;
  body: { model: string; stream?: boolean; messages: Array<{ role: string; content: string }>; max_tokens?: number };
  /** True once the client closed the connection before the server ended its answer. */
  abandoned: boolean;
}

export interface FakeProvider {
  baseUrl: string;
  requests: ProviderRequest[];
  /** Milliseconds of silence before `slow-first` answers. */
  slowMs: number;
  close(): Promise<void>;
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', model: 'fake', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const usage = (choices: [] | null) => `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', choices, usage: { prompt_tokens: 9, completion_tokens: 12, total_tokens: 21 } })}\n\n`;

export async function startFakeProvider(): Promise<FakeProvider> {
  const requests: ProviderRequest[] = [];
  const open = new Set<http.ServerResponse>();
  const provider: FakeProvider = { baseUrl: '', requests, slowMs: 200, close: async () => undefined };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => { raw += c; });
    req.on('end', () => {
      const recorded: ProviderRequest = { path: req.url ?? '', authorization: String(req.headers.authorization ?? ''), body: JSON.parse(raw || '{}'), abandoned: false };
      requests.push(recorded);
      open.add(res);
      res.on('close', () => {
        open.delete(res);
        if (!res.writableEnded) recorded.abandoned = true;
      });
      answer(recorded, res, provider.slowMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  provider.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  provider.close = () => new Promise<void>((resolve) => {
    for (const res of open) res.destroy();
    server.close(() => resolve());
  });
  return provider;
}

function answer(r: ProviderRequest, res: http.ServerResponse, slowMs: number): void {
  const model = r.body.model;
  if (model === 'silent') return;
  if (model === 'unauthorized') return jsonError(res, 401, 'Incorrect API key provided.');
  if (model === 'rate-limited') return jsonError(res, 429, 'Rate limit reached for requests.');
  if (model === 'slow-first') {
    setTimeout(() => { if (!res.destroyed) answerOk(r, res); }, slowMs);
    return;
  }
  if (!r.body.stream) return answerOk(r, res);
  if (model === 'paced') return answerPaced(res, ANSWER_PIECES, slowMs);
  if (model === 'long') return answerPaced(res, LONG_ANSWER_PIECES, slowMs);
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  res.write(chunk({ role: 'assistant', content: '' }));
  if (model === 'mid-error' || model === 'cut' || model === 'endless') {
    res.write(chunk({ content: ANSWER_PIECES[0] }));
    if (model === 'endless') return;
    res.write(chunk({ content: ANSWER_PIECES[1] }));
    if (model === 'mid-error') res.end(`data: ${JSON.stringify({ error: { message: 'The server is overloaded.', type: 'server_error' } })}\n\n`);
    else res.end();
    return;
  }
  answerOk(r, res);
}

function answerOk(r: ProviderRequest, res: http.ServerResponse): void {
  if (!r.body.stream) {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', model: `${r.body.model}-0613`, choices: [{ index: 0, message: { role: 'assistant', content: ANSWER }, finish_reason: 'stop' }] }));
    return;
  }
  if (!res.headersSent) res.writeHead(200, { 'Content-Type': 'text/event-stream' });
  // Pieces split across writes at odd places: the parser must join lines itself.
  const text = ANSWER_PIECES.map((p) => chunk({ content: p })).join('') + chunk({}, 'stop') + usage([]) + usage(null) + 'data: [DONE]\n\n';
  res.write(text.slice(0, 37));
  res.write(text.slice(37, 150));
  res.end(text.slice(150));
}

function answerPaced(res: http.ServerResponse, pieces: string[], gapMs: number): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream' });
  const events = [...pieces.map((p) => chunk({ content: p })), chunk({}, 'stop') + 'data: [DONE]\n\n'];
  const next = () => {
    if (res.destroyed) return;
    const event = events.shift();
    if (event === undefined) return void res.end();
    res.write(event);
    setTimeout(next, gapMs);
  };
  next();
}

function jsonError(res: http.ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ error: { message, type: 'invalid_request_error', code: null } }));
}
