/**
 * A memcached server spoken to in its text protocol, only as far as invalidation needs: a multi-key
 * `get` and pipelined `delete`s over one socket, each request bounded by a deadline. No npm client
 * was available; the protocol subset is small (memcached's protocol.txt: VALUE/END, DELETED/NOT_FOUND,
 * ERROR/CLIENT_ERROR/SERVER_ERROR). A deadline missed or a socket error fails every request waiting
 * on the socket and drops it; the next request connects again.
 */
import net from 'node:net';

/** `host:port` (port 11211 when absent) or `unix:///path/to.sock`, as `$memcached_servers` lists them. */
export type MemcacheServer = string;

export interface MemcacheValue {
  flags: number;
  data: Buffer;
}

type Parse<T> = (buffer: Buffer) => { result: T; consumed: number } | undefined;

interface Pending {
  parse: Parse<unknown>;
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

export class MemcacheConnection {
  private socket?: net.Socket;
  private buffer = Buffer.alloc(0);
  private pending: Pending[] = [];

  constructor(readonly server: MemcacheServer, private readonly timeoutMs: number) {}

  /** The values of those of `keys` the server holds, by key: one `get` command. Keys are byte strings (latin1). */
  get(keys: string[]): Promise<Map<string, MemcacheValue>> {
    if (!keys.length) return Promise.resolve(new Map());
    return this.request(`get ${keys.join(' ')}\r\n`, parseValues);
  }

  /** Deletes `keys`, pipelined: for each, whether the server held it. */
  delete(keys: string[]): Promise<boolean[]> {
    if (!keys.length) return Promise.resolve([]);
    return this.request(keys.map((key) => `delete ${key}\r\n`).join(''), parseDeleted(keys.length));
  }

  close(): void {
    this.fail(new Error(`memcached ${this.server}: connection closed`));
  }

  private request<T>(command: string, parse: Parse<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => this.fail(new Error(`memcached ${this.server}: no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      this.pending.push({ parse, resolve: resolve as (value: unknown) => void, reject, timer });
      this.connected().write(command, 'latin1');
    });
  }

  private connected(): net.Socket {
    if (this.socket) return this.socket;
    const socket = this.server.startsWith('unix://')
      ? net.connect({ path: this.server.slice('unix://'.length) })
      : net.connect({ host: hostOf(this.server), port: portOf(this.server) });
    socket.setNoDelay(true);
    // A dropped socket's late events must not fail the requests of the one that replaced it.
    const current = () => this.socket === socket;
    socket.on('data', (chunk: Buffer) => { if (current()) this.received(chunk); });
    socket.on('error', (error) => { if (current()) this.fail(new Error(`memcached ${this.server}: ${error.message}`)); });
    socket.on('close', () => { if (current()) this.fail(new Error(`memcached ${this.server}: connection closed`)); });
    this.socket = socket;
    return socket;
  }

  private received(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    while (this.pending.length) {
      let parsed;
      try {
        parsed = this.pending[0].parse(this.buffer);
      } catch (error) {
        this.fail(error as Error);
        return;
      }
      if (!parsed) return;
      const done = this.pending.shift()!;
      clearTimeout(done.timer);
      this.buffer = this.buffer.subarray(parsed.consumed);
      done.resolve(parsed.result);
    }
  }

  /** Fails every waiting request and drops the socket: what it would answer next is unknowable. */
  private fail(error: Error): void {
    const pending = this.pending;
    this.pending = [];
    this.buffer = Buffer.alloc(0);
    this.socket?.destroy();
    this.socket = undefined;
    for (const p of pending) {
      clearTimeout(p.timer);
      p.reject(error);
    }
  }
}

/** `host`, `host:port`, `[IPv6]` or `[IPv6]:port`: the brackets are not part of the address. */
function hostOf(server: string): string {
  const bracketed = /^\[([^\]]*)\]/.exec(server);
  if (bracketed) return bracketed[1];
  const colon = server.lastIndexOf(':');
  return colon < 0 ? server : server.slice(0, colon);
}

function portOf(server: string): number {
  const colon = server.lastIndexOf(':');
  const port = colon < 0 || colon < server.lastIndexOf(']') ? 0 : Number.parseInt(server.slice(colon + 1), 10);
  return port > 0 ? port : 11211;
}

/** The line starting at `from`, without its CRLF, and where the next begins; undefined until it has all come. */
function lineAt(buffer: Buffer, from: number): { line: string; next: number } | undefined {
  const end = buffer.indexOf('\r\n', from);
  return end < 0 ? undefined : { line: buffer.toString('latin1', from, end), next: end + 2 };
}

function serverError(line: string): Error {
  return new Error(`memcached answered: ${line}`);
}

/** `VALUE <key> <flags> <bytes>[ <cas>]` CRLF `<data>` CRLF …, then `END`. */
const parseValues: Parse<Map<string, MemcacheValue>> = (buffer) => {
  const values = new Map<string, MemcacheValue>();
  let at = 0;
  for (;;) {
    const head = lineAt(buffer, at);
    if (!head) return undefined;
    if (head.line === 'END') return { result: values, consumed: head.next };
    const [word, key, flags, bytes] = head.line.split(' ');
    if (word !== 'VALUE' || key === undefined || !/^\d+$/.test(flags ?? '') || !/^\d+$/.test(bytes ?? '')) throw serverError(head.line);
    const end = head.next + Number(bytes);
    if (buffer.length < end + 2) return undefined;
    values.set(key, { flags: Number(flags), data: Buffer.from(buffer.subarray(head.next, end)) });
    at = end + 2;
  }
};

/** One `DELETED` or `NOT_FOUND` line per key. */
function parseDeleted(count: number): Parse<boolean[]> {
  return (buffer) => {
    const found: boolean[] = [];
    let at = 0;
    while (found.length < count) {
      const reply = lineAt(buffer, at);
      if (!reply) return undefined;
      if (reply.line !== 'DELETED' && reply.line !== 'NOT_FOUND') throw serverError(reply.line);
      found.push(reply.line === 'DELETED');
      at = reply.next;
    }
    return { result: found, consumed: at };
  };
}
