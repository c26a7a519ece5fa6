/**
 * Sending a captured request to a target server: same method, path and query, headers and body;
 * only the connection-level headers are left for the HTTP client to set. Redirects are not followed:
 * the answer compared is the one the target gave.
 */
import http from 'node:http';
import https from 'node:https';
import { ActualResponse } from './compare';
import { CapturedRequest, HeaderList } from './capture';

const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

/** How long an answer may take before the exchange counts as failed. */
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface OutgoingRequest {
  method: string;
  /** Absolute URL to send to. */
  url: URL;
  headers: HeaderList;
  body: Buffer | null;
}

export function sendCaptured(request: CapturedRequest, target: string, headerOverrides: HeaderList = [], timeoutMs = DEFAULT_TIMEOUT_MS): Promise<ActualResponse> {
  const captured = new URL(request.url);
  const url = new URL(captured.pathname + captured.search, new URL(target));
  const overridden = new Set(headerOverrides.map(([name]) => name.toLowerCase()));
  const headers: HeaderList = [
    ...request.headers.filter(([name]) => !HOP_HEADERS.has(name.toLowerCase()) && !overridden.has(name.toLowerCase())),
    ...headerOverrides,
  ];
  const body = request.body === null ? null : Buffer.from(request.body);
  return sendRequest({ method: request.method, url, headers, body }, timeoutMs);
}

/**
 * One HTTP exchange, the whole answer read as UTF-8 text; rejects on network errors and on timeout.
 * A Host among `headers` is sent as given (the proxy's noise check), otherwise the URL's.
 */
export function sendRequest(request: OutgoingRequest, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<ActualResponse> {
  // Raw header pairs keep their order, case and repeats; Node then adds no Host of its own.
  const host = request.headers.find(([name]) => name.toLowerCase() === 'host')?.[1] ?? request.url.host;
  const headers: string[] = ['Host', host];
  for (const [name, value] of request.headers) if (!HOP_HEADERS.has(name.toLowerCase())) headers.push(name, value);
  if (request.body) headers.push('Content-Length', String(request.body.length));
  const client = request.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(request.url, { method: request.method, headers, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const list: HeaderList = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) list.push([res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string]);
        resolve({ status: res.statusCode ?? 0, headers: list, body: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', reject);
    });
    // CASE: `timeout` only reports idleness; ending the request turns it into an error the caller sees.
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(request.body ?? undefined);
  });
}
