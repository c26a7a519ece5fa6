/**
 * `understudy proxy --record=<dir>`: exchanges the PHP site answers (passed or shadowed) written as
 * HAR 1.2 for `understudy replay`. The client never waits for it: during the exchange only bounded
 * copies of the bodies are kept; once the client has its whole answer the exchange is queued, and a
 * writer turns queued exchanges into redacted entries and appends them to rotating files. A queue past
 * its byte bound drops the exchange and counts it instead of holding memory or the client.
 */
import type { IncomingMessage } from 'node:http';
import type { HeaderList } from '../../replay/capture';
import { routeGlob } from '../../replay/route-key';
import { isSecure } from '../../wp/http/request-info';
import { PassObserver, withoutHopByHop } from '../pass-through';
import { HarFiles } from './har-files';
import { Identities } from './placeholders';

export interface RecordOptions {
  dir: string;
  /** Share of exchanges recorded, 0 to 1 (1). */
  sample?: number;
  /** Route globs to record (all when empty), as in routing and rules files. */
  routes?: string[];
  /** Largest body kept whole; longer ones are cut and the entry marked not comparable (1 MiB). */
  maxBodyBytes?: number;
  maxFileBytes?: number;
  maxEntries?: number;
  maxFiles?: number;
  /** Bytes of exchanges waiting for the writer before new ones are dropped (16 MiB). */
  queueBytes?: number;
  /** Where the progress line goes (stderr); none when absent. */
  progress?: { write(text: string): unknown; isTTY?: boolean };
  random?: () => number;
}

export interface RecordCounters {
  recorded: number;
  /** Dropped because the writer fell behind. */
  dropped: number;
  truncated: number;
  files: number;
  bytes: number;
}

interface Pending {
  route: string;
  /** In front of a network: the site the exchange was for. */
  blogId?: number;
  started: Date;
  ms: number;
  method: string;
  url: string;
  headers: HeaderList;
  requestBody: Capped;
  status: number;
  statusText: string;
  responseHeaders: HeaderList;
  responseBody: Capped;
}

/** A copy of a streamed body up to a bound, remembering that it went past it. */
class Capped {
  private readonly chunks: Buffer[] = [];
  size = 0;
  cut = false;

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): void {
    const room = this.limit - this.size;
    if (chunk.length > room) this.cut = true;
    if (room <= 0) return;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    // Node hands each 'data' event a buffer of its own: keeping it needs no copy.
    this.chunks.push(kept);
    this.size += kept.length;
  }

  get bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

export class Recorder {
  readonly counters: RecordCounters = { recorded: 0, dropped: 0, truncated: 0, files: 0, bytes: 0 };
  /** Exchanges not written because writing failed (a full disk), and the last reason. */
  private notWritten = 0;
  private lastError = '';
  private readonly files: HarFiles;
  private readonly identities = new Identities();
  private readonly queue: Pending[] = [];
  private queuedBytes = 0;
  private writing: Promise<void> | null = null;
  private readonly routes: RegExp[];
  private readonly ticker: NodeJS.Timeout | null = null;
  private shown = '';

  constructor(private readonly options: RecordOptions) {
    this.files = new HarFiles({
      dir: options.dir, maxFileBytes: options.maxFileBytes ?? 64 * 1024 * 1024, maxEntries: options.maxEntries ?? 10_000, maxFiles: options.maxFiles ?? 20,
    });
    this.routes = (options.routes ?? []).map(routeGlob);
    if (options.progress) {
      this.ticker = setInterval(() => this.showProgress(), options.progress.isTTY ? 1_000 : 10_000);
      this.ticker.unref();
    }
  }

  /**
   * An observer that records this exchange, or undefined when it is not to be recorded. `marked`: its
   * route is in `record` mode; `onlyMarked`: the routing file names such routes, so other exchanges
   * are recorded only when --record-routes names them (without either, every exchange is). `blogId`:
   * in front of a network, the site it is for, written down with its route for the replay.
   */
  observe(req: IncomingMessage, route: string, marked = false, onlyMarked = false, blogId?: number): PassObserver | undefined {
    const named = this.routes.some((r) => r.test(route));
    if (!marked && !named && (onlyMarked || this.routes.length)) return undefined;
    if ((this.options.sample ?? 1) < 1 && (this.options.random ?? Math.random)() >= (this.options.sample ?? 1)) return undefined;
    const limit = this.options.maxBodyBytes ?? 1024 * 1024;
    const started = new Date();
    const scheme = isSecure(req) ? 'https' : 'http';
    const pending: Pending = {
      route, ...(blogId !== undefined ? { blogId } : {}), started, ms: 0, method: req.method ?? 'GET', url: `${scheme}://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`,
      headers: pairs(withoutHopByHop(req.rawHeaders)), requestBody: new Capped(limit),
      status: 0, statusText: '', responseHeaders: [], responseBody: new Capped(limit),
    };
    return {
      requestChunk: (chunk) => pending.requestBody.add(chunk),
      response: (status, rawHeaders) => {
        pending.status = status;
        pending.responseHeaders = pairs(rawHeaders);
      },
      responseChunk: (chunk) => pending.responseBody.add(chunk),
      finished: (complete) => {
        if (!complete || !pending.status) return;
        pending.ms = Date.now() - started.getTime();
        this.enqueue(pending);
      },
    };
  }

  /** Writes what is queued, closes the last file, prints the last progress line. */
  async close(): Promise<void> {
    if (this.ticker) clearInterval(this.ticker);
    await this.writing;
    await this.files.close();
    this.showProgress(true);
  }

  /** Files of this recording still on disk (oldest first). */
  get recordedFiles(): string[] {
    return this.files.files;
  }

  private enqueue(pending: Pending): void {
    const size = pending.requestBody.size + pending.responseBody.size + 1024;
    if (this.queuedBytes + size > (this.options.queueBytes ?? 16 * 1024 * 1024)) {
      this.counters.dropped++;
      return;
    }
    this.queue.push(pending);
    this.queuedBytes += size;
    this.writing ??= this.drain().finally(() => { this.writing = null; });
  }

  private async drain(): Promise<void> {
    // setImmediate: entries are built after the current I/O turn, never inside a client's.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.queue.length) {
      const pending = this.queue.shift() as Pending;
      this.queuedBytes -= pending.requestBody.size + pending.responseBody.size + 1024;
      try {
        await this.files.append(JSON.stringify(this.entry(pending)));
        this.counters.recorded++;
      } catch (err) {
        this.notWritten++;
        this.lastError = err instanceof Error ? err.message : String(err);
      }
      this.counters.files = this.files.files.length;
      this.counters.bytes = this.files.totalBytes;
    }
  }

  private entry(p: Pending): object {
    const requestBytes = p.requestBody.size || p.requestBody.cut ? p.requestBody.bytes : null;
    const responseType = header(p.responseHeaders, 'content-type') ?? '';
    const textual = isTextual(responseType);
    const responseText = textual ? p.responseBody.bytes.toString('utf8') : null;
    const redacted = this.identities.redact(p.route, { url: p.url, headers: p.headers, body: requestBytes, cut: p.requestBody.cut }, { headers: p.responseHeaders, body: responseText });
    const cut = [p.requestBody.cut && 'request', p.responseBody.cut && 'response'].filter(Boolean);
    if (cut.length) this.counters.truncated++;
    const notComparable = cut.length ? `${cut.join(' and ')} body over ${this.options.maxBodyBytes ?? 1024 * 1024} bytes, recorded cut` : redacted.request.notRecorded;
    const url = new URL(redacted.request.url);
    return {
      startedDateTime: p.started.toISOString(),
      time: p.ms,
      request: {
        method: p.method, url: redacted.request.url, httpVersion: 'HTTP/1.1', headers: harHeaders(redacted.request.headers),
        queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
        cookies: [], headersSize: -1, bodySize: p.requestBody.size,
        ...(redacted.request.body === null ? {} : { postData: { mimeType: header(p.headers, 'content-type') ?? '', text: redacted.request.body } }),
      },
      response: {
        status: p.status, statusText: p.statusText, httpVersion: 'HTTP/1.1', headers: harHeaders(redacted.response.headers), cookies: [],
        content: textual
          ? { size: p.responseBody.size, mimeType: responseType, text: redacted.response.body ?? '' }
          : { size: p.responseBody.size, mimeType: responseType, text: p.responseBody.bytes.toString('base64'), encoding: 'base64' },
        redirectURL: header(redacted.response.headers, 'location') ?? '', headersSize: -1, bodySize: p.responseBody.size,
      },
      cache: {},
      timings: { send: 0, wait: p.ms, receive: 0 },
      comment: `${p.method} ${p.route}`,
      _understudy: { route: p.route, ...(p.blogId !== undefined ? { blogId: p.blogId } : {}), ...(notComparable ? { notComparable } : {}) },
    };
  }

  private showProgress(last = false): void {
    const out = this.options.progress;
    if (!out) return;
    const c = this.counters;
    const failed = this.notWritten ? `, ${this.notWritten} not written (${this.lastError})` : '';
    const text = `recording: ${c.recorded.toLocaleString('en-US')} exchanges, ${(c.bytes / 1048576).toFixed(1)} MiB in ${c.files} file${c.files === 1 ? '' : 's'}, ${c.dropped} dropped, ${c.truncated} cut${failed}`;
    if (text === this.shown && !last) return;
    this.shown = text;
    out.write(out.isTTY && !last ? `\r${text}` : `${out.isTTY ? '\r' : ''}${text}\n`);
  }
}

function pairs(raw: readonly string[]): HeaderList {
  const list: HeaderList = [];
  for (let i = 0; i < raw.length; i += 2) list.push([raw[i] as string, raw[i + 1] as string]);
  return list;
}

function harHeaders(list: HeaderList): Array<{ name: string; value: string }> {
  return list.map(([name, value]) => ({ name, value }));
}

function header(list: HeaderList, name: string): string | undefined {
  return list.find(([n]) => n.toLowerCase() === name)?.[1];
}

/** Bodies replay can compare as text; anything else is kept as base64. */
function isTextual(contentType: string): boolean {
  return contentType === '' || /^text\/|json|javascript|xml|x-www-form-urlencoded/i.test(contentType);
}
