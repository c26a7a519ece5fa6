/**
 * The chat suite's stripped-down streaming server: the floor under what the real server does a token.
 * The provider's stream is read by the server's own code (`streamCompletion`: node:http with kept
 * connections, the event parser, each chunk's JSON) and each read's pieces are written to the visitor
 * as the same server-sent events (`formatEvent`, one write a read), behind bare `node:http`; nothing
 * else: no database (no question or answer stored), no retrieval, no limits, no REST routing, request
 * log or metrics. The suite runs it beside the real server on the same load and reports the real
 * server's CPU a token as a multiple of this one's (docs/performance.md, "Chat at scale").
 *
 *   PORT=… PROVIDER_URL=http://127.0.0.1:…/v1 (started by bench/chat.ts)
 */
import http from 'node:http';
import { streamCompletion } from '../lib/support/chat/provider';
import { EVENT_STREAM_HEADERS, formatEvent } from '../lib/wp/rest/stream';

const PROVIDER = { baseUrl: process.env.PROVIDER_URL as string, model: 'bench', apiKey: 'sk-bench', firstByteMs: 30_000, totalMs: 60_000 };

function answer(question: string, res: http.ServerResponse): void {
  const left = new AbortController();
  res.once('close', () => left.abort());
  res.writeHead(200, EVENT_STREAM_HEADERS);
  res.flushHeaders();
  let text = '';
  const write = (pieces: string[]) => {
    text += pieces.join('');
    res.write(pieces.map((piece) => formatEvent({ event: 'delta', data: { type: 'delta', text: piece } })).join(''));
  };
  streamCompletion(PROVIDER, [{ role: 'user', content: question }], write, left.signal).then(
    () => res.end(formatEvent({ event: 'done', data: { type: 'done', reply: { content: text } } })),
    () => res.destroy(),
  );
}

if (require.main === module) {
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (piece: string) => { body += piece; });
    req.on('end', () => {
      let question = '';
      try {
        question = String((JSON.parse(body) as { message?: unknown }).message ?? '');
      } catch {
        res.writeHead(400).end();
        return;
      }
      answer(question, res);
    });
  });
  server.maxConnections = 100_000;
  server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('listening\n'));
  process.on('SIGTERM', () => process.exit(0));
}
