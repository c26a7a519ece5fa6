/**
 * The chat suite's model provider, run as a process of its own: `POST /v1/chat/completions` with
 * `stream: true` answers as OpenAI streams (a role chunk, content chunks, a finish chunk, `[DONE]`),
 * TOKENS tokens TOKEN_MS apart (default 200 tokens at 20 a second: 10 s). Each token's text carries
 * the moment it was written (` w<n>@<epoch ms>`), so a client can tell how long it took to reach it
 * through whatever stands between (bench/chat-load.ts).
 */
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

const TOKENS = Number(process.env.TOKENS ?? 200);
const TOKEN_MS = Number(process.env.TOKEN_MS ?? 50);

/** Milliseconds since the epoch with microseconds: the same clock in every process on this machine. */
export const epochMs = (): number => performance.timeOrigin + performance.now();

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', model: 'bench', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

function stream(res: http.ServerResponse): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  res.write(chunk({ role: 'assistant', content: '' }));
  let n = 0;
  const send = () => {
    if (res.destroyed) return clearInterval(timer);
    if (n === TOKENS) {
      clearInterval(timer);
      res.end(`${chunk({}, 'stop')}data: [DONE]\n\n`);
      return;
    }
    res.write(chunk({ content: ` w${++n}@${epochMs().toFixed(3)}` }));
  };
  // The first token at once, so the time to it is the path's own, not the model's.
  const timer = setInterval(send, TOKEN_MS);
  send();
}

if (require.main === module) {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404).end();
        return;
      }
      stream(res);
    });
  });
  server.maxConnections = 100_000;
  server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write(`provider listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`));
  process.on('SIGTERM', () => process.exit(0));
}
