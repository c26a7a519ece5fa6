/**
 * The HTTP server `serve` and `proxy` listen with, and its own limits, so that slow, idle or broken
 * clients can neither hold connections for long nor take the process down:
 * - timeouts for the headers, the whole request, a kept-alive connection and a silent socket;
 * - a cap on connections open at once (further ones are closed as they arrive), and a share of it
 *   for each address, so that one client holding connections open leaves room for everyone else;
 * - a budget for the request bodies held in memory, all requests together (lib/wp/http/body-memory.ts);
 * - a `clientError` answer (400, 408, 413, 431) that then destroys the socket, and error listeners on
 *   the request and response streams, so a client that resets its connection is only a closed socket.
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from '../logger';
import type { ServerConfig } from '../wp/config';
import { addressKey } from '../wp/http/address-key';
import { DEFAULT_BODY_MEMORY_BYTES, bodyMemory } from '../wp/http/body-memory';
import { NO_TRUSTED_PROXIES, TrustedProxies, normaliseAddress } from '../wp/http/trusted-proxies';

/** The server's limits. Each timeout is in milliseconds, and 0 turns it off. */
export interface HttpLimits {
  /** HTTP_HEADERS_TIMEOUT_MS: from a request's first byte (or the connection's opening) to the end of its headers. */
  headersTimeoutMs: number;
  /** HTTP_REQUEST_TIMEOUT_MS: from a request's first byte to the end of its body. */
  requestTimeoutMs: number;
  /** HTTP_KEEP_ALIVE_TIMEOUT_MS: how long a kept-alive connection may wait for its next request. */
  keepAliveTimeoutMs: number;
  /** HTTP_IDLE_TIMEOUT_MS: how long a connection may go without a byte either way during a request. */
  idleTimeoutMs: number;
  /** HTTP_MAX_CONNECTIONS: connections open at once; further ones are closed as they arrive. */
  maxConnections: number;
  /**
   * HTTP_MAX_CONNECTIONS_PER_ADDRESS: connections one address (an IPv6 /64) may hold open at once;
   * further ones from it are closed as they arrive. A trusted proxy's connections are not counted.
   */
  maxConnectionsPerAddress: number;
  /** HTTP_MAX_BODY_MEMORY_BYTES: bytes of request bodies held in memory, all requests together. */
  maxBodyMemoryBytes: number;
}

/**
 * `serve`: real clients send their headers at once; Understudy reads at most an 8 MiB body (60 s
 * allows ~140 KB/s for it) and answers in well under a minute.
 */
export const SERVE_HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 20_000, requestTimeoutMs: 60_000, keepAliveTimeoutMs: 5_000, idleTimeoutMs: 60_000, maxConnections: 1000,
  maxConnectionsPerAddress: 100, maxBodyMemoryBytes: DEFAULT_BODY_MEMORY_BYTES,
};

/**
 * `proxy`: uploads to the PHP site pass through whole (media files of hundreds of MB), and a PHP
 * page may work for minutes before it answers (sites raise max_execution_time for imports): ten
 * minutes to send a request, five minutes of silence.
 */
export const PROXY_HTTP_LIMITS: HttpLimits = { ...SERVE_HTTP_LIMITS, requestTimeoutMs: 600_000, idleTimeoutMs: 300_000 };

type Env = Record<string, string | undefined>;

/** The limits: each HTTP_* variable that is set overrides the command's default. */
export function loadHttpLimits(env: Env, defaults: HttpLimits): HttpLimits {
  const read = (name: string, fallback: number, min: number): number => {
    const raw = env[name]?.trim();
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min) {
      throw new Error(`${name} must be a whole number${min > 0 ? ` of at least ${min}` : ' (0 turns it off)'}, got "${env[name]}"`);
    }
    return value;
  };
  const requestTimeoutMs = read('HTTP_REQUEST_TIMEOUT_MS', defaults.requestTimeoutMs, 0);
  // A shorter request timeout on its own shortens the default headers timeout too (as Node does).
  const headersDefault = requestTimeoutMs > 0 ? Math.min(defaults.headersTimeoutMs, requestTimeoutMs) : defaults.headersTimeoutMs;
  const maxConnections = read('HTTP_MAX_CONNECTIONS', defaults.maxConnections, 1);
  const limits: HttpLimits = {
    headersTimeoutMs: read('HTTP_HEADERS_TIMEOUT_MS', headersDefault, 0),
    requestTimeoutMs,
    keepAliveTimeoutMs: read('HTTP_KEEP_ALIVE_TIMEOUT_MS', defaults.keepAliveTimeoutMs, 0),
    idleTimeoutMs: read('HTTP_IDLE_TIMEOUT_MS', defaults.idleTimeoutMs, 0),
    maxConnections,
    // A lower cap on its own lowers each address's share with it: a tenth, and at least 8.
    maxConnectionsPerAddress: read('HTTP_MAX_CONNECTIONS_PER_ADDRESS', Math.min(defaults.maxConnectionsPerAddress, Math.max(8, Math.floor(maxConnections / 10))), 1),
    maxBodyMemoryBytes: read('HTTP_MAX_BODY_MEMORY_BYTES', defaults.maxBodyMemoryBytes, 1),
  };
  if (limits.requestTimeoutMs > 0 && limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new Error(`HTTP_HEADERS_TIMEOUT_MS (${limits.headersTimeoutMs}) must not be longer than HTTP_REQUEST_TIMEOUT_MS (${limits.requestTimeoutMs})`);
  }
  return limits;
}

type RequestHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** Refused connections are logged at most this often, with how many there were. */
const DROP_LOG_EVERY_MS = 60_000;

/**
 * An http.Server with `limits`, answering with `handler`. Its body memory budget is the process's
 * (one server per process). `trustedProxies` are not held to an address's share of connections.
 */
export function createHttpServer(limits: HttpLimits, handler: RequestHandler, logger: Logger, trustedProxies: TrustedProxies = NO_TRUSTED_PROXIES): http.Server {
  const server = http.createServer({
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // Node checks the headers and request timeouts on this interval (30 s by default, which would let
    // a 20 s headers timeout run to 50 s): a quarter of the shorter one, between 50 ms and 1 s.
    connectionsCheckingInterval: checkingInterval(limits),
  });
  server.maxConnections = limits.maxConnections;
  bodyMemory.setLimit(limits.maxBodyMemoryBytes);
  shareConnectionsByAddress(server, limits, trustedProxies, logger);
  // A socket silent for this long mid-request is destroyed (Node's default for `timeout` with no listener).
  server.timeout = limits.idleTimeoutMs;

  const latest = new WeakMap<Duplex, { req: http.IncomingMessage; res: http.ServerResponse }>();
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    latest.set(req.socket, { req, res });
    // A client that resets mid-request destroys both streams; with a listener their errors are never
    // thrown. Readers of the body see the reset through their own listeners.
    req.on('error', ignore);
    res.on('error', (err) => logger.warn('HTTP response stream failed', { url: req.url, error: err.message }));
    handler(req, res);
  });

  // Malformed requests, timeouts and resets: an answer when one can still be given, then the socket goes.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code !== 'ECONNRESET' && socket.writable && mayAnswer(latest.get(socket))) socket.write(clientErrorAnswer(err.code));
    socket.destroy();
  });

  server.on('drop', everyMinute(logger, (refused) => `HTTP_MAX_CONNECTIONS (${limits.maxConnections}) reached: refused ${refused} connection(s)`));
  return server;
}

function ignore(): void {}

/**
 * Closes a new connection on arrival when its address already holds its share of connections. The
 * address is the TCP peer's: a forwarded address is a claim made per request, on a connection a
 * proxy may reuse for many visitors, so a trusted proxy's connections are left to the global cap
 * (the proxy limits its own clients: nginx's `limit_conn`, docs/deploy.md).
 */
function shareConnectionsByAddress(server: http.Server, limits: HttpLimits, trustedProxies: TrustedProxies, logger: Logger): void {
  const open = new Map<string, number>();
  const warn = everyMinute(logger, (refused) => `HTTP_MAX_CONNECTIONS_PER_ADDRESS (${limits.maxConnectionsPerAddress}) reached: refused ${refused} connection(s)`);
  server.on('connection', (socket: Socket) => {
    const peer = normaliseAddress(socket.remoteAddress ?? '');
    if (!peer || trustedProxies.has(peer)) return;
    const key = addressKey(peer);
    const held = open.get(key) ?? 0;
    if (held >= limits.maxConnectionsPerAddress) {
      warn();
      return void socket.destroy();
    }
    open.set(key, held + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });
}

/** A warning about refused connections, logged at most once a minute with how many there were. */
function everyMinute(logger: Logger, message: (refused: number) => string): () => void {
  let refused = 0;
  let lastLog = -Infinity;
  return () => {
    refused += 1;
    const now = performance.now();
    if (now - lastLog < DROP_LOG_EVERY_MS) return;
    logger.warn(message(refused));
    lastLog = now;
    refused = 0;
  };
}

/**
 * Whether an error answer can go on a connection whose latest request was `latest`: not in the
 * middle of another answer, and not after the answer to a request whose body is what ran out of time.
 */
function mayAnswer(latest: { req: http.IncomingMessage; res: http.ServerResponse } | undefined): boolean {
  if (!latest) return true;
  // The request still being received is the one at fault: answer it unless its answer has begun.
  if (!latest.req.complete) return !latest.res.headersSent;
  // Otherwise the fault is in a next request: answer once the previous answer is all sent.
  return latest.res.writableFinished;
}

function checkingInterval(limits: HttpLimits): number {
  const timeouts = [limits.headersTimeoutMs, limits.requestTimeoutMs].filter((t) => t > 0);
  if (!timeouts.length) return 30_000;
  return Math.min(1000, Math.max(50, Math.floor(Math.min(...timeouts) / 4)));
}

/** The raw answer to a request Node could not parse or that ran out of time; the connection closes after it. */
export function clientErrorAnswer(code: string | undefined): string {
  const [status, reason] = code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, 'Request Timeout']
    : code === 'HPE_HEADER_OVERFLOW' ? [431, 'Request Header Fields Too Large']
      : code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW' ? [413, 'Payload Too Large']
        : [400, 'Bad Request'];
  const body = `${reason}\n`;
  return `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
}

/** Listens on `port` and `host`; rejects when the address cannot be bound. */
export function listen(server: http.Server, { port, host }: ServerConfig): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
