/**
 * A stand-in for the PHP site behind the proxy: it answers requests it has a recorded WordPress
 * exchange for with the recorded status, headers and body, and echoes everything else (method, URL,
 * headers, body) as JSON marked `from: upstream`, so tests can tell who answered what.
 */
import { IncomingMessage, RequestListener } from 'node:http';
import { Exchange } from '../../lib/replay/capture';

/** Headers the recording's own transport added; the stand-in's transport sets its own. */
const TRANSPORT = new Set(['transfer-encoding', 'connection', 'content-length', 'date', 'server', 'keep-alive']);

export interface SeenRequest {
  method: string;
  url: string;
  rawHeaders: string[];
  body: string;
}

export function recordedSite(exchanges: readonly Exchange[], seen: SeenRequest[] = []): RequestListener {
  const byKey = new Map<string, Exchange>();
  for (const e of exchanges) {
    const url = new URL(e.request.url);
    const header = (name: string) => e.request.headers.find(([n]) => n.toLowerCase() === name)?.[1] ?? '';
    const key = keyOf(e.request.method, url.pathname + url.search, header('authorization'), header('cookie'), header('x-wp-nonce'));
    if (!byKey.has(key)) byKey.set(key, e);
  }
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', rawHeaders: req.rawHeaders, body });
      const recorded = byKey.get(keyOfRequest(req));
      if (!recorded) return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ from: 'upstream', method: req.method, url: req.url, body }));
      const headers = recorded.response.headers.filter(([n]) => !TRANSPORT.has(n.toLowerCase())).flat();
      res.writeHead(recorded.response.status, headers);
      res.end(recorded.response.body ?? '');
    });
  };
}

function keyOfRequest(req: IncomingMessage): string {
  const h = (name: string) => String(req.headers[name] ?? '');
  return keyOf(req.method ?? 'GET', req.url ?? '/', h('authorization'), h('cookie'), h('x-wp-nonce'));
}

function keyOf(method: string, url: string, authorization: string, cookie: string, nonce: string): string {
  return [method, url, authorization, cookie, nonce].join('\n');
}
