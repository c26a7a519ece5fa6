/**
 * The HTTP server's own limits, over real sockets against `serve` and `proxy` started as the CLI
 * starts them: partial headers and short bodies are cut off with a 408, kept-alive connections close
 * when idle, connections past the cap are refused, and clients that reset never take the process
 * down. The timeouts are set short through the environment; the tests assert what the client sees
 * (the answer, the closed connection), never how long it took.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { runCli } from '../../lib/cli';
import { PROXY_HTTP_LIMITS, SERVE_HTTP_LIMITS, clientErrorAnswer, loadHttpLimits } from '../../lib/cli/http-server';
import { DEFAULT_BODY_MEMORY_BYTES, bodyMemory } from '../../lib/wp/http/body-memory';
import { ScratchDatabase, scratchDatabase } from '../harness/db';
import { eventually } from '../harness/eventually';
import { Listening, listen } from '../harness/http';
import { capture, cli, envFor, openFor, scratchDir } from './cli-harness';

interface Started {
  url: string;
  port: number;
  stderr: ReturnType<typeof capture>;
  stop(): Promise<number>;
}

/** Starts `serve` or `proxy` in-process and waits for its start-up line. */
async function start(argv: string[], env: Record<string, string>): Promise<Started> {
  const stdout = capture();
  const stderr = capture();
  const controller = new AbortController();
  const done = runCli([...argv, '--port=0'], { env, cwd: scratchDir(), stdout, stderr, signal: controller.signal });
  let finished = false;
  void done.finally(() => { finished = true; });
  for (let waited = 0; waited < 20_000; waited += 20) {
    const match = / at (http:\/\/[^\s"]+)/.exec(stderr.text());
    if (match) {
      const url = match[1] as string;
      return { url, port: Number(new URL(url).port), stderr, stop: () => { controller.abort(); return done; } };
    }
    if (finished) throw new Error(`${argv[0]} ended before listening (status ${await done}): ${stderr.text()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  controller.abort();
  await done;
  throw new Error(`${argv[0]} did not start: ${stderr.text()}`);
}

/** A raw client connection that keeps everything it receives and knows when the server closed it. */
interface Connection {
  socket: net.Socket;
  received(): string;
  /** Resolves with what was received once the connection is closed; fails if it is still open after `withinMs`. */
  closed(withinMs?: number): Promise<string>;
  isClosed(): boolean;
}

/** A connection to the server on 127.0.0.1, from `from` (any loopback address: 127.0.0.2, …). */
function connect(port: number, from?: string): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
    let data = '';
    let isClosed = false;
    const closing = new Promise<void>((done) => socket.once('close', () => { isClosed = true; done(); }));
    socket.on('data', (chunk) => { data += chunk.toString('latin1'); });
    // A refused or reset connection is a closed one, which is what these tests look at.
    socket.on('error', () => {});
    socket.once('connect', () => resolve({
      socket,
      received: () => data,
      isClosed: () => isClosed,
      closed: async (withinMs = 10_000) => {
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<never>((_, fail) => { timer = setTimeout(() => fail(new Error(`still open after ${withinMs} ms; received: ${JSON.stringify(data)}`)), withinMs); });
        try {
          await Promise.race([closing, late]);
        } finally {
          clearTimeout(timer);
        }
        return data;
      },
    }));
    socket.once('error', reject);
  });
}

/** Waits until `conn` has received one whole answer (headers and a Content-Length body) and returns it. */
async function answerOn(conn: Connection): Promise<string> {
  let answer = '';
  await eventually(async () => {
    const text = conn.received();
    const end = text.indexOf('\r\n\r\n');
    if (end < 0) return false;
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
    if (text.length < end + 4 + length) return false;
    answer = text.slice(0, end + 4 + length);
    return true;
  }, 10_000, 10);
  return answer;
}

const GET_ME = 'GET /wp-json/wp/v2/users/me HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';

/** A plain request that must still be answered: the process is alive and serving. */
async function stillServing(url: string): Promise<void> {
  const res = await fetch(`${url}/wp-json/wp/v2/users/me`);
  assert.equal(res.status, 401);
  await res.arrayBuffer();
}

describe('HTTP limits of serve and proxy', function () {
  let db: ScratchDatabase;
  let env: Record<string, string>;

  before(async () => {
    db = await scratchDatabase();
    env = envFor(db.target, { WP_ENVIRONMENT_TYPE: 'local' });
    const { site } = await openFor(env);
    await site.close();
  });
  after(async () => { await db?.drop(); });

  describe('serve', () => {
    let server: Started | undefined;
    const serve = async (limits: Record<string, string>) => {
      server = await start(['serve'], { ...env, ...limits });
      return server;
    };
    afterEach(async () => {
      if (server) assert.equal(await server.stop(), 0);
      server = undefined;
      // The body memory budget is the process's: a test's own leaves with it.
      bodyMemory.setLimit(DEFAULT_BODY_MEMORY_BYTES);
    });

    it('answers 408 and closes the connection of a client that sends only part of its headers', async () => {
      const { port, url } = await serve({ HTTP_HEADERS_TIMEOUT_MS: '300', HTTP_REQUEST_TIMEOUT_MS: '5000' });
      const conn = await connect(port);
      conn.socket.write('GET /wp-json/wp/v2/users/me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
      const got = await conn.closed();
      assert.match(got, /^HTTP\/1\.1 408 Request Timeout\r\n/);
      assert.match(got, /\r\nConnection: close\r\n/);
      // A connection that never sends a byte is cut off the same way.
      const silent = await connect(port);
      assert.match(await silent.closed(), /^HTTP\/1\.1 408 Request Timeout\r\n/);
      await stillServing(url);
    });

    it('answers 408 and closes the connection when a body stays shorter than its Content-Length', async () => {
      const { port, url } = await serve({ HTTP_HEADERS_TIMEOUT_MS: '300', HTTP_REQUEST_TIMEOUT_MS: '600' });
      const conn = await connect(port);
      conn.socket.write('POST /wp-json/support/v1/tickets HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"subject":');
      const got = await conn.closed();
      assert.match(got, /^HTTP\/1\.1 408 Request Timeout\r\n/);
      assert.equal(got.indexOf('HTTP/1.1', 1), -1, 'one answer only: the REST server does not answer as well');
      // A request answered before its body is in (a 404 here) gets that answer only, then the connection closes.
      const answered = await connect(port);
      answered.socket.write('POST /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\nsome');
      const only = await answered.closed();
      assert.match(only, /^HTTP\/1\.1 404 /);
      assert.equal(only.indexOf('HTTP/1.1', 1), -1, only);
      await stillServing(url);
    });

    it('closes a connection that goes silent mid-body when only the idle timeout applies', async () => {
      const { port, url } = await serve({ HTTP_REQUEST_TIMEOUT_MS: '0', HTTP_IDLE_TIMEOUT_MS: '300' });
      const conn = await connect(port);
      conn.socket.write('POST /wp-json/support/v1/tickets HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"subject":');
      assert.equal(await conn.closed(), '');
      await stillServing(url);
    });

    it('closes a kept-alive connection once it has been idle for the keep-alive timeout', async () => {
      const { port } = await serve({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000' });
      const conn = await connect(port);
      conn.socket.write(GET_ME);
      const first = await answerOn(conn);
      assert.match(first, /^HTTP\/1\.1 401 /);
      assert.match(first, /\r\nConnection: keep-alive\r\nKeep-Alive: timeout=1\r\n/i);
      // The connection serves a second request, then closes by itself, with nothing more sent.
      conn.socket.write(GET_ME);
      const both = await conn.closed();
      assert.equal(both.split('HTTP/1.1 401 ').length - 1, 2, both);
    });

    it('refuses connections past HTTP_MAX_CONNECTIONS, and takes new ones once a connection closes', async () => {
      const { port, stderr } = await serve({ HTTP_MAX_CONNECTIONS: '2', HTTP_KEEP_ALIVE_TIMEOUT_MS: '20000' });
      const held = [await connect(port), await connect(port)];
      for (const conn of held) {
        conn.socket.write(GET_ME);
        assert.match(await answerOn(conn), /^HTTP\/1\.1 401 /);
      }
      const refused = await connect(port);
      refused.socket.write(GET_ME);
      assert.equal(await refused.closed(), '', 'closed without an answer');
      assert.ok(held.every((conn) => !conn.isClosed()), 'the connections within the cap stay open');
      assert.match(stderr.text(), /HTTP_MAX_CONNECTIONS \(2\) reached: refused 1 connection/);

      held[0]!.socket.destroy();
      // The server counts the closed connection as soon as it sees it close.
      await eventually(async () => {
        const next = await connect(port);
        next.socket.write(GET_ME);
        const got = await Promise.race([answerOn(next).catch(() => ''), next.closed().then(() => '')]);
        next.socket.destroy();
        return got.startsWith('HTTP/1.1 401 ');
      }, 10_000);
      held[1]!.socket.destroy();
    });

    it('gives each address a share of the connections: past HTTP_MAX_CONNECTIONS_PER_ADDRESS its new ones close, others are served', async () => {
      const { port, url, stderr } = await serve({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: '3', HTTP_KEEP_ALIVE_TIMEOUT_MS: '20000' });
      const held: Connection[] = [];
      for (let i = 0; i < 3; i++) {
        const conn = await connect(port, '127.0.0.2');
        conn.socket.write(GET_ME);
        assert.match(await answerOn(conn), /^HTTP\/1\.1 401 /);
        held.push(conn);
      }
      const refused = await connect(port, '127.0.0.2');
      refused.socket.write(GET_ME);
      assert.equal(await refused.closed(), '', 'closed without an answer');
      const other = await connect(port, '127.0.0.3');
      other.socket.write(GET_ME);
      assert.match(await answerOn(other), /^HTTP\/1\.1 401 /, 'another address is still served');
      assert.ok(held.every((conn) => !conn.isClosed()), 'the connections within the share stay open');
      assert.match(stderr.text(), /HTTP_MAX_CONNECTIONS_PER_ADDRESS \(3\) reached: refused 1 connection/);
      // A closed connection gives its place back.
      held[0]!.socket.destroy();
      await eventually(async () => {
        const next = await connect(port, '127.0.0.2');
        next.socket.write(GET_ME);
        const got = await Promise.race([answerOn(next).catch(() => ''), next.closed().then(() => '')]);
        next.socket.destroy();
        return got.startsWith('HTTP/1.1 401 ');
      }, 5000, 50);
      for (const conn of [...held, other]) conn.socket.destroy();
      await stillServing(url);
    });

    it('leaves a trusted proxy\'s connections to the global cap: behind it, every visitor shares its address', async () => {
      const { port } = await serve({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: '2', HTTP_KEEP_ALIVE_TIMEOUT_MS: '20000', TRUSTED_PROXIES: '127.0.0.4' });
      const conns = await Promise.all([1, 2, 3, 4].map(() => connect(port, '127.0.0.4')));
      for (const conn of conns) {
        conn.socket.write(GET_ME);
        assert.match(await answerOn(conn), /^HTTP\/1\.1 401 /);
      }
      for (const conn of conns) conn.socket.destroy();
    });

    it('refuses a body past HTTP_MAX_BODY_MEMORY_BYTES with 503 and Retry-After while other bodies hold the room', async () => {
      const { port, url } = await serve({ HTTP_MAX_BODY_MEMORY_BYTES: String(1024 * 1024) });
      // Four addresses each send 250 KiB (within an address's quarter of the budget) and hold on.
      const holding = await Promise.all(['127.0.0.5', '127.0.0.7', '127.0.0.8', '127.0.0.9'].map((from) => connect(port, from)));
      for (const conn of holding) {
        conn.socket.write(`POST /wp-json/wp/v2/users/me HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${256 * 1024}\r\n\r\n{"a":"${'b'.repeat(250 * 1024 - 6)}`);
      }
      // serve runs in this process: its body memory is the one this test reads.
      await eventually(async () => bodyMemory.bytesHeld === 1000 * 1024, 5000);
      const conn = await connect(port, '127.0.0.6');
      conn.socket.write(`POST /wp-json/wp/v2/users/me HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${200 * 1024}\r\n\r\n{}`);
      const refused = await conn.closed();
      assert.match(refused, /^HTTP\/1\.1 503 /);
      assert.match(refused, /\r\nRetry-After: 5\r\n/i);
      assert.match(refused, /\r\nConnection: close\r\n/i);
      assert.match(refused, /"code":"rest_server_busy"/);
      for (const conn of holding) conn.socket.destroy();
      await stillServing(url);
    });

    it('answers a malformed request 400 and oversized headers 431, closing the connection; resets crash nothing', async () => {
      const { port, url, stderr } = await serve({});
      const malformed = await connect(port);
      malformed.socket.write('GET /wp-json/ HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n');
      assert.match(await malformed.closed(), /^HTTP\/1\.1 400 Bad Request\r\n/);
      const huge = await connect(port);
      huge.socket.write(`GET /wp-json/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      assert.match(await huge.closed(), /^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);

      // Resets in the middle of headers, of a body, and while the answer is on its way.
      const resets = [
        'GET /wp-json/wp/v2/users/me HTTP/1.1\r\nHost: 127.0.0.1\r\n',
        'POST /wp-json/support/v1/tickets HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"su',
        'POST /wp-admin/admin-ajax.php HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\naction=',
        `${GET_ME}${GET_ME}${GET_ME}`,
      ];
      for (const text of resets) {
        const conn = await connect(port);
        conn.socket.write(text);
        await new Promise((resolve) => setTimeout(resolve, 50));
        conn.socket.resetAndDestroy();
        await conn.closed();
      }
      await stillServing(url);
      assert.doesNotMatch(stderr.text(), /error/i);
    });
  });

  describe('proxy', () => {
    let upstream: Listening;
    const upstreamSaw: { url: string; aborted: boolean }[] = [];
    before(async () => {
      upstream = await listen((req, res) => {
        const seen = { url: req.url ?? '', aborted: false };
        upstreamSaw.push(seen);
        req.on('error', () => {});
        req.on('aborted', () => { seen.aborted = true; });
        req.resume();
        req.on('end', () => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('upstream\n'));
      });
    });
    after(async () => { await upstream.close(); });

    it('has the same limits: partial headers get 408, and an upload stalled on its way to the upstream is cut off', async () => {
      const proxy = await start(['proxy', `--upstream=${upstream.url}`], { ...env, HTTP_HEADERS_TIMEOUT_MS: '300', HTTP_REQUEST_TIMEOUT_MS: '600' });
      try {
        const partial = await connect(proxy.port);
        partial.socket.write('GET /blog/ HTTP/1.1\r\nHost: 127.0.0.1\r\n');
        assert.match(await partial.closed(), /^HTTP\/1\.1 408 Request Timeout\r\n/);

        const upload = await connect(proxy.port);
        upload.socket.write('POST /wp-admin/async-upload.php HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nContent-Length: 1000000\r\n\r\nfirst bytes');
        assert.match(await upload.closed(), /^HTTP\/1\.1 408 Request Timeout\r\n/);
        // The upstream's half of the exchange is given up too, not left waiting for the rest.
        await eventually(async () => upstreamSaw.some((s) => s.url === '/wp-admin/async-upload.php' && s.aborted), 10_000);

        const passed = await fetch(`${proxy.url}/blog/`);
        assert.equal(await passed.text(), 'upstream\n');
      } finally {
        assert.equal(await proxy.stop(), 0);
      }
    });
  });

  describe('configuration', () => {
    it('defaults: 20 s headers, 60 s request, 5 s keep-alive, 60 s idle, 1,000 connections; the proxy allows long uploads', () => {
      const shares = { maxConnectionsPerAddress: 100, maxBodyMemoryBytes: 64 * 1024 * 1024 };
      assert.deepEqual(loadHttpLimits({}, SERVE_HTTP_LIMITS), {
        headersTimeoutMs: 20_000, requestTimeoutMs: 60_000, keepAliveTimeoutMs: 5_000, idleTimeoutMs: 60_000, maxConnections: 1000, ...shares,
      });
      assert.deepEqual(loadHttpLimits({}, PROXY_HTTP_LIMITS), {
        headersTimeoutMs: 20_000, requestTimeoutMs: 600_000, keepAliveTimeoutMs: 5_000, idleTimeoutMs: 300_000, maxConnections: 1000, ...shares,
      });
    });

    it('reads each HTTP_* variable; 0 turns a timeout off; a shorter request timeout shortens the default headers timeout', () => {
      assert.deepEqual(loadHttpLimits({
        HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '0', HTTP_KEEP_ALIVE_TIMEOUT_MS: '65000', HTTP_IDLE_TIMEOUT_MS: '0', HTTP_MAX_CONNECTIONS: '50',
        HTTP_MAX_CONNECTIONS_PER_ADDRESS: '20', HTTP_MAX_BODY_MEMORY_BYTES: '1048576',
      }, SERVE_HTTP_LIMITS), {
        headersTimeoutMs: 1000, requestTimeoutMs: 0, keepAliveTimeoutMs: 65_000, idleTimeoutMs: 0, maxConnections: 50,
        maxConnectionsPerAddress: 20, maxBodyMemoryBytes: 1024 * 1024,
      });
      assert.equal(loadHttpLimits({ HTTP_REQUEST_TIMEOUT_MS: '5000' }, SERVE_HTTP_LIMITS).headersTimeoutMs, 5000);
      // A lower cap lowers each address's share with it: a tenth, at least 8.
      assert.equal(loadHttpLimits({ HTTP_MAX_CONNECTIONS: '500' }, SERVE_HTTP_LIMITS).maxConnectionsPerAddress, 50);
      assert.equal(loadHttpLimits({ HTTP_MAX_CONNECTIONS: '20' }, SERVE_HTTP_LIMITS).maxConnectionsPerAddress, 8);
    });

    it('refuses values that are not whole numbers, a cap below 1, and a headers timeout longer than the request\'s', () => {
      assert.throws(() => loadHttpLimits({ HTTP_IDLE_TIMEOUT_MS: '2s' }, SERVE_HTTP_LIMITS), /^Error: HTTP_IDLE_TIMEOUT_MS must be a whole number \(0 turns it off\), got "2s"$/);
      assert.throws(() => loadHttpLimits({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '-1' }, SERVE_HTTP_LIMITS), /HTTP_KEEP_ALIVE_TIMEOUT_MS must be a whole number/);
      assert.throws(() => loadHttpLimits({ HTTP_MAX_CONNECTIONS: '0' }, SERVE_HTTP_LIMITS), /HTTP_MAX_CONNECTIONS must be a whole number of at least 1, got "0"/);
      assert.throws(
        () => loadHttpLimits({ HTTP_HEADERS_TIMEOUT_MS: '30000', HTTP_REQUEST_TIMEOUT_MS: '10000' }, SERVE_HTTP_LIMITS),
        /HTTP_HEADERS_TIMEOUT_MS \(30000\) must not be longer than HTTP_REQUEST_TIMEOUT_MS \(10000\)/,
      );
    });

    it('stops serve with an Error line on a bad value, before anything listens', async () => {
      const run = await cli(['serve', '--port=0'], { ...env, HTTP_MAX_CONNECTIONS: 'many' });
      assert.deepEqual(run, { status: 1, stdout: '', stderr: 'Error: HTTP_MAX_CONNECTIONS must be a whole number of at least 1, got "many"\n' });
    });

    it('answers timeouts 408, oversized headers 431 and anything else 400, each closing the connection', () => {
      assert.match(clientErrorAnswer('ERR_HTTP_REQUEST_TIMEOUT'), /^HTTP\/1\.1 408 Request Timeout\r\nConnection: close\r\n/);
      assert.match(clientErrorAnswer('HPE_HEADER_OVERFLOW'), /^HTTP\/1\.1 431 /);
      assert.match(clientErrorAnswer('HPE_INVALID_METHOD'), /^HTTP\/1\.1 400 Bad Request\r\n/);
      const parsed = clientErrorAnswer(undefined).split('\r\n\r\n');
      assert.equal(Number(/Content-Length: (\d+)/.exec(parsed[0] as string)?.[1]), Buffer.byteLength(parsed[1] as string));
    });
  });
});
