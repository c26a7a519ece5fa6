/**
 * The request-time half of shadow mode: the client's exchange with the upstream is passed through
 * exactly as in `pass` mode, while bounded copies of the request and response bodies are kept. Only
 * after the client has its whole answer is a comparison queued (see shadow-queue.ts), so the shadow
 * side can neither slow nor break the client.
 */
import { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { HeaderList } from '../replay/capture';
import { secretsOf } from '../replay/credentials';
import { sendRequest } from '../replay/send';
import { clientIp, isSecure } from '../wp/http/request-info';
import { injectRequest } from './inject';
import { PassObserver, Upstream, forwardedHeaders, passThrough, withoutHopByHop } from './pass-through';
import type { ShadowSettings } from './routing';
import type { ShadowQueue } from './shadow-queue';
import type { ShadowStats } from './stats';

export interface ShadowContext {
  upstream: Upstream;
  understudy: RequestListener;
  queue: ShadowQueue;
  stats: ShadowStats;
  settings: Required<ShadowSettings>;
  /** On a network: the site the exchange is for (counts and differences carry it). */
  blogId?: number;
}

/** Copies of a streamed body up to a bound; past it, the copy is abandoned (the stream is not). */
class BoundedCopy {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  overflowed = false;

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): void {
    if (this.overflowed) return;
    this.size += chunk.length;
    if (this.size > this.limit) {
      this.overflowed = true;
      this.chunks.length = 0;
      return;
    }
    this.chunks.push(chunk);
  }

  get bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

/** `recording` also watches the exchange (`--record`). */
export function shadowPass(req: IncomingMessage, res: ServerResponse, ctx: ShadowContext, route: string, consumed: Buffer | null, recording?: PassObserver): void {
  const method = (req.method ?? 'GET').toUpperCase();
  const repeatable = method === 'GET' || method === 'HEAD';
  if (!repeatable && !ctx.settings.writes) {
    ctx.stats.count(route, 'skipped', ctx.blogId);
    return passThrough(req, res, ctx.upstream, consumed, recording);
  }
  // Everything the comparison needs is taken now: the connection may serve another request later.
  const url = req.url ?? '/';
  const upstreamHeaders = forwardedHeaders(req, ctx.upstream);
  const understudyHeaders = withoutHopByHop(req.rawHeaders);
  const client = { remoteAddress: clientIp(req), remotePort: req.socket.remotePort, encrypted: isSecure(req) };
  const requestBody = new BoundedCopy(ctx.settings.maxBodyBytes);
  const responseBody = new BoundedCopy(ctx.settings.maxBodyBytes);
  let answer: { status: number; headers: HeaderList } | undefined;

  passThrough(req, res, ctx.upstream, consumed, both(recording, {
    requestChunk: (chunk) => requestBody.add(chunk),
    response: (status, rawHeaders) => {
      answer = { status, headers: pairs(rawHeaders) };
    },
    responseChunk: (chunk) => responseBody.add(chunk),
    finished: (complete, timedOut) => {
      if (timedOut) return ctx.stats.count(route, 'failed', ctx.blogId);
      if (!complete || !answer) return;
      if (requestBody.overflowed || responseBody.overflowed) return ctx.stats.count(route, 'skipped', ctx.blogId);
      const body = requestBody.bytes;
      ctx.queue.enqueue({
        route, method, url, repeatable, ...(ctx.blogId !== undefined ? { blogId: ctx.blogId } : {}),
        primary: { ...answer, body: responseBody.bytes.toString('utf8') },
        secrets: secretsOf({ method, url: `http://shadow${url}`, headers: pairs(understudyHeaders), body: body.toString('utf8') || null }),
        understudy: () => injectRequest(ctx.understudy, { method, url, rawHeaders: understudyHeaders, body, ...client }),
        upstreamAgain: () => sendRequest({
          method, url: new URL(ctx.upstream.url.pathname.replace(/\/+$/, '') + url, ctx.upstream.url), headers: pairs(upstreamHeaders), body,
        }, ctx.settings.timeoutMs),
      });
    },
  }));
}

/** One observer telling two. */
function both(first: PassObserver | undefined, second: PassObserver): PassObserver {
  if (!first) return second;
  return {
    requestChunk: (chunk) => { first.requestChunk?.(chunk); second.requestChunk?.(chunk); },
    response: (status, headers) => { first.response?.(status, headers); second.response?.(status, headers); },
    responseChunk: (chunk) => { first.responseChunk?.(chunk); second.responseChunk?.(chunk); },
    finished: (complete, timedOut) => { first.finished?.(complete, timedOut); second.finished?.(complete, timedOut); },
  };
}

function pairs(raw: readonly string[]): HeaderList {
  const list: HeaderList = [];
  for (let i = 0; i < raw.length; i += 2) list.push([raw[i] as string, raw[i + 1] as string]);
  return list;
}
