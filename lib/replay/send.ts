/**
 * Sending a captured request to a target server: same method, path and query, headers and body;
 * only the connection-level headers are left for the HTTP client to set.
 */
import http from 'node:http';
import https from 'node:https';
import { ActualResponse } from './compare';
import { CapturedRequest, HeaderList } from './capture';

const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

export function sendCaptured(request: CapturedRequest, target: string, headerOverrides: HeaderList = []): Promise<ActualResponse> {
  const captured = new URL(request.url);
  const base = new URL(target);
  const url = new URL(captured.pathname + captured.search, base);
  const headers: Record<string, string> = {};
  for (const [name, value] of request.headers) if (!HOP_HEADERS.has(name.toLowerCase())) headers[name] = value;
  for (const [name, value] of headerOverrides) headers[name] = value;
  const body = request.body === null ? undefined : Buffer.from(request.body);
  if (body) headers['Content-Length'] = String(body.length);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(url, { method: request.method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const list: HeaderList = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) list.push([res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string]);
        resolve({ status: res.statusCode ?? 0, headers: list, body: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
