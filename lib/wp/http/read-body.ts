/**
 * Reading a request body within a size limit. A body that declares a larger Content-Length is
 * refused before any of it is read; one that grows past the limit while streaming is cut off there.
 * A client that goes away mid-body is noticed, so no read waits forever.
 */
import type { IncomingMessage } from 'node:http';
import { WpError } from '../errors';

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

/** PayloadTooLargeError when the declared Content-Length is over `limit`, before reading anything. */
export function refuseDeclaredSize(req: IncomingMessage, limit: number): void {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw new PayloadTooLargeError(limit);
}

/**
 * Watches the body as it flows: calls `onFail` once with PayloadTooLargeError past `limit` (and stops
 * the flow) or with ClientAbortedError when the connection ends first. Returns a function that stops watching.
 */
export function watchBodySize(req: IncomingMessage, limit: number, onFail: (err: Error) => void): () => void {
  let size = 0;
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size <= limit) return;
    stop();
    req.unpipe();
    req.pause();
    onFail(new PayloadTooLargeError(limit));
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

/** The whole body as bytes, or PayloadTooLargeError once it exceeds `limit`, or ClientAbortedError. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  try {
    refuseDeclaredSize(req, limit);
  } catch (err) {
    return Promise.reject(err);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const stop = watchBodySize(req, limit, reject);
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => {
      stop();
      resolve(Buffer.concat(chunks));
    });
  });
}
