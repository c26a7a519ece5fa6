/**
 * Passing a request to the PHP site and its answer back, untouched: status, every header in order
 * (several Set-Cookie stay several), body bytes streamed as they come, redirects not followed. Only
 * hop-by-hop headers are dropped (RFC 9110 §7.6.1) and the usual X-Forwarded-* headers added; the
 * client's own forwarding and client-IP headers pass only from a trusted proxy (TRUSTED_PROXIES).
 */
import http, { IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import { fromTrustedProxy, isSecure } from '../wp/http/request-info';
import { peerAddress } from '../wp/http/trusted-proxies';

export interface Upstream {
  url: URL;
  agent: http.Agent;
  /** Send the client's Host (the public site name) rather than the upstream's own. */
  preserveHost: boolean;
  /** Longest silence of the upstream connection (no byte either way) before the exchange is given up. */
  timeoutMs: number;
}

export const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000;

/** Watches a passed exchange without changing it (the shadow side keeps copies). */
export interface PassObserver {
  requestChunk?(chunk: Buffer): void;
  response?(status: number, rawHeaders: string[]): void;
  responseChunk?(chunk: Buffer): void;
  /** The client has the whole answer (true), or the exchange broke off (false; `timedOut` when the upstream went silent). Called once. */
  finished?(complete: boolean, timedOut?: boolean): void;
}

/**
 * What a proxy or CDN says about the visitor, beside every `X-Forwarded*` header (`-Ssl` and
 * `-Server` are read by common is_ssl() snippets): from anyone else, PHP must not read them as said.
 */
const CLIENT_CLAIMS = new Set([
  'forwarded', 'forwarded-for', 'x-real-ip', 'client-ip', 'x-client-ip', 'cf-connecting-ip', 'true-client-ip', 'x-cluster-client-ip',
  'fastly-client-ip', 'front-end-https',
]);

/** PHP reads `X_Real_IP` as HTTP_X_REAL_IP too, so `_` counts as `-`. */
function isClientClaim(lowerName: string): boolean {
  const name = lowerName.replace(/_/g, '-');
  return name.startsWith('x-forwarded') || CLIENT_CLAIMS.has(name);
}

const HOP_BY_HOP = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer',
  'transfer-encoding', 'upgrade',
]);

/** The client's answer when the upstream stays silent: a WordPress-shaped error, as the site's own. */
const TIMEOUT_BODY = `${JSON.stringify({ code: 'upstream_timeout', message: 'The site did not answer in time.', data: { status: 504 } })}\n`;

class UpstreamTimeout extends Error {}

export function createUpstream(url: string, preserveHost = true, timeoutMs = DEFAULT_UPSTREAM_TIMEOUT_MS): Upstream {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`The upstream must be an http:// or https:// URL, got "${url}"`);
  const agent = parsed.protocol === 'https:' ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  return { url: parsed, agent, preserveHost, timeoutMs };
}

/**
 * Streams `req` to the upstream and the answer to `res`. `consumed` holds body bytes the proxy
 * already read from `req` (to learn an admin-ajax action); they are sent first.
 */
export function passThrough(req: IncomingMessage, res: ServerResponse, upstream: Upstream, consumed: Buffer | null = null, observer: PassObserver = {}): void {
  let reported = false;
  let timedOut = false;
  const finish = (complete: boolean) => {
    if (!reported) observer.finished?.(complete, timedOut);
    reported = true;
  };
  const outgoing = requestTo(upstream, req.method ?? 'GET', req.url ?? '/', forwardedHeaders(req, upstream));
  // Idle time, as nginx's proxy_read_timeout: a long answer that keeps streaming is not cut.
  outgoing.setTimeout(upstream.timeoutMs, () => {
    timedOut = true;
    outgoing.destroy(new UpstreamTimeout());
  });
  outgoing.on('response', (answer) => {
    const headers = withoutHopByHop(answer.rawHeaders);
    observer.response?.(answer.statusCode ?? 502, headers);
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, headers);
    if (observer.responseChunk) answer.on('data', (chunk: Buffer) => observer.responseChunk?.(chunk));
    answer.on('error', () => res.destroy());
    answer.pipe(res);
  });
  outgoing.on('error', (err) => {
    finish(false);
    if (res.headersSent) return void res.destroy();
    if (err instanceof UpstreamTimeout) return void res.writeHead(504, { 'Content-Type': 'application/json; charset=UTF-8' }).end(TIMEOUT_BODY);
    res.writeHead(502, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Bad gateway: the upstream site did not answer.\n');
  });
  res.on('finish', () => finish(true));
  // CASE: the client went away before its answer was complete: stop asking the upstream.
  res.on('close', () => {
    if (!res.writableFinished) outgoing.destroy();
    finish(res.writableFinished);
  });
  if (consumed?.length) {
    observer.requestChunk?.(consumed);
    outgoing.write(consumed);
  }
  if (observer.requestChunk) req.on('data', (chunk: Buffer) => observer.requestChunk?.(chunk));
  req.pipe(outgoing);
}

/**
 * The headers the upstream gets: the client's, minus hop-by-hop, plus X-Forwarded-For/-Proto/-Host.
 * A client that is no trusted proxy has its X-Forwarded*, Forwarded, X-Real-IP and client-IP headers
 * dropped: the upstream gets only what this proxy saw (its address, its TLS, its Host).
 */
export function forwardedHeaders(req: IncomingMessage, upstream: Upstream): string[] {
  const kept = withoutHopByHop(req.rawHeaders);
  const trusted = fromTrustedProxy(req);
  const out: string[] = [];
  let forwardedFor: string | undefined;
  const present = new Set<string>();
  for (let i = 0; i < kept.length; i += 2) {
    const name = (kept[i] as string).toLowerCase();
    if (name === 'host' || (!trusted && isClientClaim(name))) continue;
    if (name === 'x-forwarded-for') {
      forwardedFor = forwardedFor ? `${forwardedFor}, ${kept[i + 1]}` : kept[i + 1];
      continue;
    }
    present.add(name);
    out.push(kept[i] as string, kept[i + 1] as string);
  }
  const clientHost = req.headers.host ?? upstream.url.host;
  // Each proxy appends the address it was connected from; the visitor's is already in the chain.
  const ip = peerAddress(req);
  out.unshift('Host', upstream.preserveHost ? clientHost : upstream.url.host);
  out.push('X-Forwarded-For', forwardedFor ? `${forwardedFor}, ${ip}` : ip);
  if (!present.has('x-forwarded-proto')) out.push('X-Forwarded-Proto', isSecure(req) ? 'https' : 'http');
  if (!present.has('x-forwarded-host')) out.push('X-Forwarded-Host', clientHost);
  return out;
}

/** An HTTP request to the upstream, with raw headers as given (Node adds none of its own but framing). */
export function requestTo(upstream: Upstream, method: string, url: string, rawHeaders: string[]): http.ClientRequest {
  const client = upstream.url.protocol === 'https:' ? https : http;
  const base = upstream.url.pathname.replace(/\/+$/, '');
  return client.request({
    protocol: upstream.url.protocol,
    hostname: upstream.url.hostname,
    port: upstream.url.port || undefined,
    // CASE: the Host header may name the public site; TLS must still verify the upstream's own name.
    servername: upstream.url.hostname,
    method,
    path: base + url,
    headers: rawHeaders as unknown as http.OutgoingHttpHeaders,
    agent: upstream.agent,
  });
}

/** Drops hop-by-hop headers, including any the Connection header names. */
export function withoutHopByHop(rawHeaders: readonly string[]): string[] {
  const named = new Set<string>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if ((rawHeaders[i] as string).toLowerCase() === 'connection') {
      for (const token of (rawHeaders[i + 1] as string).split(',')) named.add(token.trim().toLowerCase());
    }
  }
  const out: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = (rawHeaders[i] as string).toLowerCase();
    if (!HOP_BY_HOP.has(name) && !named.has(name)) out.push(rawHeaders[i] as string, rawHeaders[i + 1] as string);
  }
  return out;
}
