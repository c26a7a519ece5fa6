/**
 * Real HTTP on loopback: servers on 127.0.0.1 port 0 that are always closed (the proxy and replay
 * tests' upstreams, the browser tests' host pages and API), and a raw client that reports exactly
 * what came over the wire (status, raw headers in order, body bytes, and when each chunk arrived).
 */
import http from 'node:http';
import { AddressInfo } from 'node:net';

export interface Listening {
  server: http.Server;
  url: string;
  close(): Promise<void>;
}

export async function listen(listener: http.RequestListener): Promise<Listening> {
  const server = http.createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    server,
    url,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

export interface RawAnswer {
  status: number;
  statusMessage: string;
  rawHeaders: string[];
  body: Buffer;
  /** Each body chunk as it arrived, in order. */
  chunks: Buffer[];
}

export interface RawRequest {
  method?: string;
  path: string;
  headers?: string[];
  body?: Buffer | string;
  /** Called with each body chunk as it arrives (before the answer is complete). */
  onChunk?(chunk: Buffer): void;
}

/** One request with raw headers (no Node defaults beyond Host); resolves with the whole answer. */
export function rawRequest(base: string, request: RawRequest): Promise<RawAnswer> {
  const url = new URL(base);
  const headers = ['Host', url.host, ...(request.headers ?? [])];
  if (request.body !== undefined) headers.push('Content-Length', String(Buffer.byteLength(request.body)));
  return new Promise((resolve, reject) => {
    const req = http.request({
      hostname: url.hostname, port: url.port, method: request.method ?? 'GET', path: request.path,
      headers: headers as unknown as http.OutgoingHttpHeaders, agent: false,
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        request.onChunk?.(chunk);
      });
      res.on('end', () => resolve({
        status: res.statusCode ?? 0, statusMessage: res.statusMessage ?? '', rawHeaders: res.rawHeaders, body: Buffer.concat(chunks), chunks,
      }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(request.body);
  });
}

/** Values of a header in a raw header list, in order. */
export function headerValues(rawHeaders: readonly string[], name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) if ((rawHeaders[i] as string).toLowerCase() === name.toLowerCase()) out.push(rawHeaders[i + 1] as string);
  return out;
}
