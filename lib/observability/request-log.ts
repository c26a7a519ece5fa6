/**
 * Request logs with pino: one JSON line per answered request on stdout, for a log shipper; or, with
 * LOG_FORMAT=pretty (the default on a terminal), one readable line made from the same record by the
 * small formatter below (pino-pretty is not a dependency). A record holds the request id, method,
 * route pattern, path (never the query string), status, duration, user id and address: never a
 * header, cookie, credential or body.
 */
import { Writable } from 'node:stream';
import pino, { Logger as Pino } from 'pino';

export interface RequestRecord {
  request_id: string;
  method: string;
  route: string;
  path: string;
  /** The site of a network the request was for, when the process serves a whole network. */
  blog_id?: number;
  status: number;
  duration_ms: number;
  user_id: number;
  ip: string;
  /** The connection ended before the whole answer was sent. */
  aborted?: true;
  /** Answered 503 while the site was still opening: expected at start-up, so a warning, not an error. */
  starting?: true;
}

export type RequestLogger = ((record: RequestRecord) => void) & {
  /** Writes out what is buffered (before the process exits). */
  flush(): Promise<void>;
};

/**
 * Lines buffered for a log reader that is behind, at most; past that they are dropped (and the drop
 * is said once) rather than stall the server: writing to a full pipe would block the event loop.
 */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

export function createRequestLogger(out: NodeJS.WritableStream, format: 'json' | 'pretty'): RequestLogger {
  const destination = format === 'pretty' ? prettyLines(out) : out === process.stderr ? nonBlockingStderr() : out;
  const log: Pino = pino({ base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime, messageKey: 'msg' }, destination);
  const write = (record: RequestRecord) => log[levelOf(record)](record, 'request');
  return Object.assign(write, {
    flush: () => new Promise<void>((resolve) => log.flush(() => resolve())),
  });
}

/**
 * A 5xx is an error, except the answers that say "not yet" by design: a 503 while the site opens, and
 * a health check's 503 (a readiness probe asked while the caches warm, say), which are warnings.
 */
function levelOf(record: RequestRecord): 'info' | 'warn' | 'error' {
  if (record.starting || (record.status === 503 && record.route.startsWith('/-/health/'))) return 'warn';
  return record.status >= 500 ? 'error' : 'info';
}

/** The process's stderr, written asynchronously (pino's sonic-boom) with a bounded buffer. */
function nonBlockingStderr(): ReturnType<typeof pino.destination> {
  const destination = pino.destination({ dest: 2, sync: false, maxLength: MAX_BUFFERED_BYTES });
  let told = false;
  destination.on('drop', () => {
    if (told) return;
    told = true;
    // This destination only serves LOG_FORMAT=json, so the warning is a JSON line too.
    const msg = `request log: the log reader is behind by ${MAX_BUFFERED_BYTES} bytes; lines are dropped until it catches up`;
    process.stderr.write(`${JSON.stringify({ level: 40, time: new Date().toISOString(), pid: process.pid, msg })}\n`);
  });
  return destination;
}

/** A destination that turns each pino JSON line into `time LEVEL METHOD path status duration …`. */
function prettyLines(out: NodeJS.WritableStream): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n')) {
        if (!text) continue;
        try {
          out.write(`${pretty(JSON.parse(text))}\n`);
        } catch {
          out.write(`${text}\n`);
        }
      }
      done();
    },
  });
}

function pretty(r: Record<string, unknown>): string {
  const time = String(r.time ?? '').slice(11, 23);
  const level = Number(r.level) >= 50 ? 'ERROR' : Number(r.level) >= 40 ? 'WARN ' : 'INFO ';
  const user = r.user_id ? ` user=${String(r.user_id)}` : '';
  const blog = r.blog_id !== undefined ? ` blog=${String(r.blog_id)}` : '';
  const aborted = r.aborted ? ' (aborted)' : '';
  const starting = r.starting ? ' (starting)' : '';
  return `${time} ${level} ${String(r.method)} ${String(r.path)} ${String(r.status)} ${String(r.duration_ms)}ms ${String(r.route)}${blog}${user} ip=${String(r.ip)} id=${String(r.request_id)}${aborted}${starting}`;
}
