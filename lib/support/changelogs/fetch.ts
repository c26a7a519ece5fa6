/**
 * Reading a sync source over HTTP: http and https only (a redirect to any other scheme is refused),
 * at most MAX_REDIRECTS redirects, the whole exchange within the timeout (default 10 s), and the body
 * cut off as soon as it passes the size cap (default 2 MiB) while it streams in, whatever its
 * Content-Length said. Failures are SourceErrors that say why, in words an admin can act on.
 */
import { userAgent } from '../outbound/user-agent';

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
}

export const SOURCE_LIMITS: FetchLimits = { timeoutMs: 10_000, maxBytes: 2 * 1024 * 1024 };

const MAX_REDIRECTS = 5;

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

export async function fetchSource(raw: string, limits: FetchLimits = SOURCE_LIMITS): Promise<FetchedSource> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  try {
    let url = sourceUrl(raw);
    for (let redirects = 0; ; redirects++) {
      const res = await fetch(url, { redirect: 'manual', signal, headers: { 'User-Agent': userAgent(), Accept: 'application/json, text/markdown, text/plain, */*;q=0.5' } });
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        await res.body?.cancel();
        if (redirects >= MAX_REDIRECTS) throw new SourceError('unreachable', `More than ${MAX_REDIRECTS} redirects.`);
        url = sourceUrl(location, url.href);
        continue;
      }
      if (res.status !== 200) {
        await res.body?.cancel();
        throw new SourceError('http_status', `The source answered HTTP ${res.status}.`, res.status);
      }
      return { url: url.href, contentType: res.headers.get('content-type') ?? '', text: decode(await readCapped(res, limits.maxBytes)) };
    }
  } catch (err) {
    if (err instanceof SourceError) throw err;
    if (signal.aborted) throw new SourceError('timeout', `The source did not answer within ${limits.timeoutMs / 1000} s.`);
    throw new SourceError('unreachable', `The source could not be reached (${causeOf(err)}).`);
  }
}

/** The body, refused as soon as it passes `maxBytes` (a declared length past it is refused before reading). */
async function readCapped(res: Response, maxBytes: number): Promise<Buffer> {
  const tooLarge = () => new SourceError('too_large', `The source is larger than ${maxBytes} bytes.`);
  if (Number(res.headers.get('content-length') ?? 0) > maxBytes) {
    await res.body?.cancel();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let total = 0;
  const reader = res.body?.getReader();
  for (;;) {
    const next = await reader?.read();
    if (!next || next.done) break;
    total += next.value.byteLength;
    if (total > maxBytes) {
      await reader?.cancel();
      throw tooLarge();
    }
    chunks.push(Buffer.from(next.value));
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
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
}
