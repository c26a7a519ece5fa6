/**
 * Reading a request body within a size limit. A body that declares a larger Content-Length is
 * refused before any of it is read; one that grows past the limit while streaming is cut off there.
 * The bytes held also count against the process's body memory (./body-memory.ts), as they arrive: a
 * declared body the budget (or its address's share) has no room for now is refused the same way, with
 * 503, and one that runs out of room on the way is cut off there. A client that goes away mid-body is
 * noticed, so no read waits forever.
 */
import type { IncomingMessage } from 'node:http';
import { WpError } from '../errors';
import { BodyMemoryHold, ServerBusyError } from './body-memory';

export class PayloadTooLargeError extends WpError {
  constructor(limit: number) {
    super('rest_payload_too_large', `The request body is larger than this endpoint accepts (${limit} bytes).`, 413, { max_bytes: limit });
  }
}

/** The client went away before its body was complete: there is no one left to answer. */
export class ClientAbortedError extends Error {
  constructor() {
    super('The client closed the connection before the request body was complete.');
    this.name = 'ClientAbortedError';
  }
}

/** Whether a body is on its way: a Content-Length above 0, or a chunked body. */
export function bodyPending(req: IncomingMessage): boolean {
  return Number(req.headers['content-length']) > 0 || req.headers['transfer-encoding'] !== undefined;
}

/** PayloadTooLargeError when the declared Content-Length is over `limit`, before reading anything. */
export function refuseDeclaredSize(req: IncomingMessage, limit: number): void {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw new PayloadTooLargeError(limit);
}

/**
 * ServerBusyError when the declared Content-Length would not fit in the body memory now, so that such
 * a body is refused before any of it is read. Nothing is taken: bytes are held as they arrive.
 */
export function refuseWithoutRoom(req: IncomingMessage, hold: BodyMemoryHold): void {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > 0 && !hold.fits(declared)) throw new ServerBusyError();
}

/**
 * Watches the body as it flows: calls `onFail` once with PayloadTooLargeError past `limit`, or with
 * ServerBusyError when `memory` has no room for a chunk that arrived (either stops the flow), or with ClientAbortedError when the connection ends first. Returns a function that stops watching.
 */
export function watchBodySize(req: IncomingMessage, limit: number, onFail: (err: Error) => void, memory?: BodyMemoryHold): () => void {
  let size = 0;
  const refusal = (chunk: Buffer): Error | null => {
    size += chunk.length;
    if (size > limit) return new PayloadTooLargeError(limit);
    if (memory && !memory.take(chunk.length)) return new ServerBusyError();
    return null;
  };
  const onData = (chunk: Buffer) => {
    const err = refusal(chunk);
    if (!err) return;
    stop();
    req.unpipe();
    req.pause();
    onFail(err);
  };
  const onGone = () => {
    if (req.complete) return;
    stop();
    onFail(new ClientAbortedError());
  };
  const stop = () => {
    req.off('data', onData);
    req.off('error', onGone);
    req.off('close', onGone);
  };
  req.on('data', onData);
  req.on('error', onGone);
  req.on('close', onGone);
  return stop;
}

const NO_BODY = Buffer.alloc(0);

/**
 * The whole body as bytes, held in `hold` (the caller releases it), or PayloadTooLargeError once it
 * exceeds `limit`, ServerBusyError when the body memory has no room, or ClientAbortedError.
 */
export function readBody(req: IncomingMessage, limit: number, hold: BodyMemoryHold): Promise<Buffer> {
  try {
    refuseDeclaredSize(req, limit);
    refuseWithoutRoom(req, hold);
  } catch (err) {
    return Promise.reject(err);
  }
  // Without Content-Length or Transfer-Encoding a request has no body (RFC 9112, 6.3): nothing to wait for.
  if (!req.headers['transfer-encoding'] && !Number(req.headers['content-length'])) return Promise.resolve(NO_BODY);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const stop = watchBodySize(req, limit, reject, hold);
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => {
      stop();
      resolve(Buffer.concat(chunks));
    });
  });
}
