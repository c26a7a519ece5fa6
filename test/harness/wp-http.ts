/**
 * Assertions on answers as WordPress sends them: the REST headers every answer carries, the error
 * shape, no-cache headers, and the captured oracle traffic to compare with.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Response } from 'supertest';
import { ORACLE_DIR } from './oracle';

export const NO_CACHE = { expires: 'Wed, 11 Jan 1984 05:00:00 GMT', 'cache-control': 'no-cache, must-revalidate, max-age=0' };

export interface Exchange {
  name: string;
  request: { method: string; url: string; headers: Array<[string, string]>; body: string | null };
  response: { status: number; headers: Array<[string, string]>; body: string | null };
}

export const traffic: Exchange[] = JSON.parse(fs.readFileSync(path.join(ORACLE_DIR, 'wp-core-traffic.json'), 'utf8'));

export function exchange(name: string): Exchange {
  const found = traffic.find((e) => e.name === name);
  assert.ok(found, `exchange "${name}" is in the traffic file`);
  return found;
}

/** Response headers that the web server, not WordPress, decides. */
const TRANSPORT = new Set(['server', 'date', 'transfer-encoding', 'connection', 'content-length', 'keep-alive']);

/** The headers WordPress sent (lower-cased names), without the transport ones. */
export function capturedHeaders(e: Exchange): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of e.response.headers) if (!TRANSPORT.has(name.toLowerCase())) out[name.toLowerCase()] = value;
  return out;
}

/** Our answer's headers in the same form. */
export function answerHeaders(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) if (!TRANSPORT.has(name)) out[name] = String(value);
  return out;
}

/** The headers serve_request() puts on every REST answer. */
export function assertRestHeaders(res: Response, opts: { jsonp?: boolean } = {}): void {
  assert.equal(res.headers['content-type'], `${opts.jsonp ? 'application/javascript' : 'application/json'}; charset=UTF-8`);
  assert.equal(res.headers['x-robots-tag'], 'noindex');
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  assert.equal(res.headers['access-control-expose-headers'], 'X-WP-Total, X-WP-TotalPages, Link');
  // WordPress's list, then the request headers a route's `corsHeaders` add for a listed origin (a token header).
  const allowHeaders = String(res.headers['access-control-allow-headers']);
  assert.ok(allowHeaders === WP_ALLOW_HEADERS || allowHeaders.startsWith(`${WP_ALLOW_HEADERS}, `), allowHeaders);
}

const WP_ALLOW_HEADERS = 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type';

/** A WordPress REST error: the status, `{code, message, data: {status, …}}`, and the usual headers. */
export function assertRestError(res: Response, status: number, code: string, message?: string): Record<string, any> {
  assert.equal(res.status, status, `${res.status} ${res.text}`);
  assertRestHeaders(res);
  const body = JSON.parse(res.text);
  assert.deepEqual(Object.keys(body).slice(0, 3), ['code', 'message', 'data']);
  assert.equal(body.code, code);
  if (message !== undefined) assert.equal(body.message, message);
  assert.equal(body.data.status, status);
  return body;
}

export function assertNoCache(res: Response): void {
  assert.equal(res.headers.expires, NO_CACHE.expires);
  assert.equal(res.headers['cache-control'], NO_CACHE['cache-control']);
}

export function assertCacheable(res: Response): void {
  assert.equal(res.headers.expires, undefined, 'no Expires header');
  assert.equal(res.headers['cache-control'], undefined, 'no Cache-Control header');
}

/** A raw-text parser for supertest, so bodies are compared byte for byte (JSON escapes included). */
export function asText(res: Response, done: (err: Error | null, body: string) => void): void {
  // superagent hands parsers the HTTP stream itself.
  const stream = res as unknown as NodeJS.ReadableStream;
  let text = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => { text += chunk; });
  stream.on('end', () => done(null, text));
}

/** The reason phrase of the status line. */
export function statusMessage(res: Response): string {
  return (res as unknown as { res: { statusMessage: string } }).res.statusMessage;
}

export interface RawAnswer {
  status: number;
  statusMessage: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Serves an app on an ephemeral port (for requests supertest cannot shape: no Content-Type, raw bytes). */
export async function listen(app: http.RequestListener): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** One request exactly as given: only the headers passed (and Host, Content-Length for a body). */
export function rawRequest(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: Buffer | string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers: { ...headers, ...(body !== undefined ? { 'Content-Length': String(Buffer.byteLength(body)) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, statusMessage: res.statusMessage ?? '', headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
