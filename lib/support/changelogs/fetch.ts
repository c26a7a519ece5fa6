/**
 * Reading a sync source over HTTP: http and https only (a redirect to any other scheme is refused),
 * only where OUTGOING_ALLOW lets a request connect (public addresses on ports 80, 443 and 8080 unless
 * it says more; lib/wp/http/outgoing-allow.ts), checked again for each of at most MAX_REDIRECTS
 * redirects, the whole exchange within the timeout (default 10 s), and the body cut off as soon as it
 * passes the size cap (default 2 MiB) while it streams in, whatever its Content-Length said. Failures
 * are SourceErrors that say why in words an admin can act on, except that every source that gave no
 * HTTP answer is the same UNREACHABLE.
 */
import type { IncomingMessage } from 'node:http';
import { Logger } from '../../logger';
import { OutgoingAllowance } from '../../wp/http/outgoing-allow';
import { safeGet } from '../../wp/http/safe-remote';
import { userAgent } from '../user-agent';

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
}

export const SOURCE_LIMITS: FetchLimits = { timeoutMs: 10_000, maxBytes: 2 * 1024 * 1024 };

const MAX_REDIRECTS = 5;

/** Where a source may be read from (the site's OUTGOING_ALLOW), and where to say why one was not. */
export interface SourceFetch {
  allow: OutgoingAllowance;
  logger: Logger;
}

/** The one answer for every source that gave no HTTP answer, whatever the reason. */
export const UNREACHABLE = 'The source could not be reached.';

export type SourceFailure = 'invalid_url' | 'unreachable' | 'timeout' | 'http_status' | 'too_large' | 'bad_content';

export class SourceError extends Error {
  constructor(readonly reason: SourceFailure, message: string, readonly httpStatus?: number) {
    super(message);
    this.name = 'SourceError';
  }

  /** Worth trying again later: the source was away or slow, not wrong. */
  get transient(): boolean {
    return this.reason === 'unreachable' || this.reason === 'timeout' || (this.reason === 'http_status' && (this.httpStatus ?? 0) >= 500);
  }
}

export interface FetchedSource {
  url: string;
  contentType: string;
  text: string;
}

/** The URL as a source may name it (absolute http or https), or a SourceError. */
export function sourceUrl(raw: string, base?: string): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw new SourceError('invalid_url', `"${raw}" is not a URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SourceError('invalid_url', `Only http and https sources can be read, not ${url.protocol.replace(/:$/, '')}.`);
  if (url.username || url.password) throw new SourceError('invalid_url', 'A source URL cannot carry a user name or password.');
  return url;
}

export async function fetchSource(raw: string, via: SourceFetch, limits: FetchLimits = SOURCE_LIMITS): Promise<FetchedSource> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let url = sourceUrl(raw);
  for (let redirects = 0; ; redirects++) {
    const res = await answerOf(url, via, signal);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (status >= 300 && status < 400 && location) {
      res.destroy();
      if (redirects >= MAX_REDIRECTS) throw new SourceError('unreachable', `More than ${MAX_REDIRECTS} redirects.`);
      url = sourceUrl(location, url.href);
      continue;
    }
    if (status !== 200) {
      res.destroy();
      throw new SourceError('http_status', `The source answered HTTP ${status}.`, status);
    }
    return { url: url.href, contentType: res.headers['content-type'] ?? '', text: decode(await readCapped(res, limits, signal)) };
  }
}

/**
 * The answer's head. Everything that goes wrong before one (an address or port not allowed, a name
 * that does not resolve, a refused or reset connection, no answer in time, an answer that is no
 * HTTP) is the same UNREACHABLE to the caller, so that probing cannot tell what is at an address;
 * the log says which.
 */
async function answerOf(url: URL, via: SourceFetch, signal: AbortSignal): Promise<IncomingMessage> {
  try {
    return await safeGet(url, { allow: via.allow, signal, headers: { 'User-Agent': userAgent(), Accept: 'application/json, text/markdown, text/plain, */*;q=0.5' } });
  } catch (err) {
    via.logger.warn('A changelog source could not be reached', { url: url.href, cause: signal.aborted ? 'timeout' : causeOf(err) });
    throw new SourceError('unreachable', UNREACHABLE);
  }
}

/** The body, refused as soon as it passes `maxBytes` (a declared length past it is refused before reading). */
async function readCapped(res: IncomingMessage, limits: FetchLimits, signal: AbortSignal): Promise<Buffer> {
  const tooLarge = () => new SourceError('too_large', `The source is larger than ${limits.maxBytes} bytes.`);
  if (Number(res.headers['content-length'] ?? 0) > limits.maxBytes) {
    res.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      total += chunk.byteLength;
      if (total > limits.maxBytes) throw tooLarge();
      chunks.push(chunk);
    }
  } catch (err) {
    res.destroy();
    if (err instanceof SourceError) throw err;
    if (signal.aborted) throw new SourceError('timeout', `The source did not finish answering within ${limits.timeoutMs / 1000} s.`);
    throw new SourceError('unreachable', UNREACHABLE);
  }
  return Buffer.concat(chunks);
}

/** UTF-8 text; anything else (a binary, another encoding's bytes) is no changelog. */
function decode(body: Buffer): string {
  if (body.includes(0)) throw new SourceError('bad_content', 'The source is not text.');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw new SourceError('bad_content', 'The source is not UTF-8 text.');
  }
}

function causeOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  return `${(err as NodeJS.ErrnoException).code ?? err.name}: ${err.message}`;
}
