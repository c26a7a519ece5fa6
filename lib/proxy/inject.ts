/**
 * Handing a request whose body was already read to Understudy's request listener, in-process: the
 * proxy reads admin-ajax bodies to learn the action, and keeps shadowed bodies to replay them later.
 * The request is a real IncomingMessage fed from a buffer; its socket is a stand-in that carries the
 * client's address (Understudy reads REMOTE_ADDR and HTTPS from it) and never touches the real
 * connection, which may be closed or serving another request by then.
 */
import { EventEmitter } from 'node:events';
import { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { HeaderList } from '../replay/capture';
import type { ActualResponse } from '../replay/compare';

export interface BufferedRequest {
  method: string;
  /** Path and query, as in the request line. */
  url: string;
  /** Name, value, name, value… as `IncomingMessage.rawHeaders`. */
  rawHeaders: string[];
  body: Buffer;
  remoteAddress?: string;
  remotePort?: number;
  encrypted?: boolean;
}

/** What Understudy's code and Express read from `req.socket`; writes and reads are no-ops. */
class SocketStandIn extends EventEmitter {
  readonly readable = false;
  readonly writable = false;
  destroyed = false;

  constructor(readonly remoteAddress?: string, readonly remotePort?: number, readonly encrypted?: boolean) {
    super();
  }

  destroy(): this {
    this.destroyed = true;
    return this;
  }

  setTimeout(): this {
    return this;
  }
}

/** A request that reads `body` and then ends, as if it had just arrived. */
export function bufferedRequest(init: BufferedRequest): IncomingMessage {
  const socket = new SocketStandIn(init.remoteAddress, init.remotePort, init.encrypted) as unknown as Socket;
  const req = new IncomingMessage(socket);
  req.method = init.method;
  req.url = init.url;
  req.httpVersion = '1.1';
  req.httpVersionMajor = 1;
  req.httpVersionMinor = 1;
  req.rawHeaders = init.rawHeaders;
  req.headers = headersOf(req, init.rawHeaders);
  if (init.body.length) req.push(init.body);
  req.push(null);
  req.complete = true;
  return req;
}

/** Runs `listener` on a buffered request and collects the whole answer, as an HTTP client would see it. */
export function injectRequest(listener: RequestListener, init: BufferedRequest): Promise<ActualResponse> {
  const req = bufferedRequest(init);
  return new Promise((resolve, reject) => {
    const res = capturingResponse(req, resolve);
    try {
      listener(req, res);
    } catch (err) {
      reject(err);
    }
  });
}

/**
 * A ServerResponse with no connection: what is written is kept, and `end` resolves with status,
 * headers and body. (Node only emits `finish` once bytes reach a socket, so it is emitted here.)
 */
function capturingResponse(req: IncomingMessage, done: (answer: ActualResponse) => void): ServerResponse {
  const res = new ServerResponse(req);
  const chunks: Buffer[] = [];
  const keep = (chunk: unknown, encoding: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
  };
  const callbackOf = (...args: unknown[]) => args.find((a): a is () => void => typeof a === 'function');
  const writeHead = res.writeHead.bind(res);
  // Headers handed to writeHead() would bypass getHeaders(); they are set one by one instead.
  res.writeHead = ((status: number, reason?: unknown, headers?: unknown) => {
    const given = typeof reason === 'string' ? headers : reason;
    if (Array.isArray(given)) {
      const flat = given.flat() as string[];
      for (let i = 0; i < flat.length; i += 2) res.appendHeader(flat[i] as string, flat[i + 1] as string);
    } else if (given && typeof given === 'object') {
      for (const [name, value] of Object.entries(given)) if (value !== undefined) res.setHeader(name, value as string);
    }
    return typeof reason === 'string' ? writeHead(status, reason) : writeHead(status);
  }) as ServerResponse['writeHead'];
  res.write = ((chunk: unknown, encoding?: unknown, cb?: unknown) => {
    if (!res.headersSent) res.writeHead(res.statusCode);
    keep(chunk, encoding);
    callbackOf(encoding, cb)?.();
    return true;
  }) as ServerResponse['write'];
  res.end = ((chunk?: unknown, encoding?: unknown, cb?: unknown) => {
    if (res.writableEnded) return res;
    if (!res.headersSent) res.writeHead(res.statusCode);
    keep(chunk, encoding);
    (res as { finished: boolean }).finished = true;
    done({ status: res.statusCode, headers: headerList(res), body: Buffer.concat(chunks).toString('utf8') });
    callbackOf(chunk, encoding, cb)?.();
    res.emit('finish');
    res.emit('close');
    return res;
  }) as ServerResponse['end'];
  return res;
}

/**
 * `req.headers` as Node's parser would build it (set-cookie a list, cookie joined by `; `, the first
 * content-type kept, …), through IncomingMessage's own line-merging method so the rules stay Node's.
 */
function headersOf(req: IncomingMessage, rawHeaders: readonly string[]): IncomingMessage['headers'] {
  const headers: IncomingMessage['headers'] = {};
  const merge = (req as unknown as { _addHeaderLine(name: string, value: string, into: object): void })._addHeaderLine;
  for (let i = 0; i < rawHeaders.length; i += 2) merge.call(req, rawHeaders[i] as string, rawHeaders[i + 1] as string, headers);
  return headers;
}

function headerList(res: ServerResponse): HeaderList {
  const list: HeaderList = [];
  for (const name of res.getHeaderNames()) {
    const value = res.getHeader(name);
    for (const v of Array.isArray(value) ? value : [value]) if (v !== undefined) list.push([name, String(v)]);
  }
  return list;
}
