/**
 * One fuzz request over real HTTP, with a deadline: the answer, or what went wrong instead (a hang:
 * no answer within ANSWER_WITHIN_MS; unanswered: the connection ended without a status line). Every
 * request and outcome is counted in the suite's tally.
 */
import http from 'node:http';
import { ANSWER_WITHIN_MS, tally } from './settings';

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

export type FuzzOutcome =
  | { kind: 'answer'; status: number; headers: http.IncomingHttpHeaders; body: Buffer }
  | { kind: 'hang' }
  | { kind: 'unanswered'; error: string };

/** Sends the request with exactly these headers (plus Host and Content-Length), on a fresh connection. */
export function send(port: number, request: FuzzRequest, counted = true): Promise<FuzzOutcome> {
  if (counted) tally.requests++;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: FuzzOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (outcome.kind === 'hang') tally.hangs++;
      else if (outcome.kind === 'unanswered') tally.crashes++;
      else if (outcome.status >= 500) tally.serverErrors++;
      resolve(outcome);
    };
    const req = http.request({
      host: '127.0.0.1', port, method: request.method, path: request.path, agent: false,
      headers: { ...request.headers, 'Content-Length': String(request.body.length) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => settle({ kind: 'answer', status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', (err) => settle({ kind: 'unanswered', error: `response: ${err.message}` }));
    });
    const timer = setTimeout(() => {
      settle({ kind: 'hang' });
      req.destroy();
    }, ANSWER_WITHIN_MS);
    // An answer sent before the whole body was written (413) may be followed by a reset of our write:
    // the answer, once read, decides.
    req.on('error', (err) => setTimeout(() => settle({ kind: 'unanswered', error: err.message }), 50));
    req.end(request.body);
  });
}

/** A request as a failure message shows it (the body cut to its start). */
export function requestText(request: FuzzRequest): string {
  const headers = JSON.stringify(request.headers, (_, v) => (typeof v === 'string' && v.length > 200 ? `${v.slice(0, 200)}… (${v.length} chars)` : v));
  return `${request.method} ${request.path} ${headers} body(${request.body.length} bytes)=${JSON.stringify(request.body.subarray(0, 300).toString('latin1'))}`;
}

/** A request and what became of it, for a failure message. */
export function explain(request: FuzzRequest, outcome: FuzzOutcome): string {
  const head = requestText(request);
  if (outcome.kind !== 'answer') return `${head} -> ${outcome.kind}${outcome.kind === 'unanswered' ? ` (${outcome.error})` : ''}`;
  return `${head} -> ${outcome.status} ${JSON.stringify(outcome.body.subarray(0, 300).toString('utf8'))}`;
}

/** Whether the server still answers a GET of `path` with 200 (a probe between fuzz requests; not counted). */
export async function stillAnswers(port: number, path: string, headers: Record<string, string> = {}): Promise<boolean> {
  const outcome = await send(port, { method: 'GET', path, headers, body: Buffer.alloc(0) }, false);
  return outcome.kind === 'answer' && outcome.status === 200;
}
