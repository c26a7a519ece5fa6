/**
 * A real memcached (Debian's /usr/bin/memcached) on 127.0.0.1 (or another loopback address, ::1) and a free port, started as a child
 * process for one test file and stopped after it; `set` writes an item as PECL memcache would (raw
 * text protocol), so tests seed what the drop-in would have stored. Also a silent server: accepts
 * connections and never answers, for deadlines.
 */
import { ChildProcess, spawn } from 'node:child_process';
import net, { AddressInfo } from 'node:net';

export interface RunningMemcached {
  /** `127.0.0.1:<port>` or `[::1]:<port>`, as `$memcached_servers` lists it. */
  server: string;
  port: number;
  /** Stores `value` under `key` with PECL memcache's `flags` (0 string, 1 serialized, 768 integer). */
  set(key: string, value: string, flags?: number): Promise<void>;
  /** memcached's `stats` counters. */
  stats(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

export async function startMemcached(host = '127.0.0.1'): Promise<RunningMemcached> {
  for (let attempt = 0; ; attempt++) {
    const port = await freePort(host);
    const args = ['-l', host, '-p', String(port), '-U', '0'];
    if (process.getuid?.() === 0) args.push('-u', 'root');
    const child = spawn('/usr/bin/memcached', args, { stdio: 'ignore' });
    if (await accepting(host, port, child)) return running(host, port, child);
    child.kill();
    if (attempt === 3) throw new Error('memcached did not start');
  }
}

/** A TCP server that accepts and never answers. */
export async function startSilentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => { sockets.add(socket); socket.on('close', () => sockets.delete(socket)); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => { for (const s of sockets) s.destroy(); server.close(() => resolve()); }),
  };
}

/** A port nothing listens on (just freed); rejects when `host` is not an address of this machine. */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function accepting(host: string, port: number, child: ChildProcess): Promise<boolean> {
  for (let i = 0; i < 100 && child.exitCode === null; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, host, () => { socket.destroy(); resolve(true); });
      socket.on('error', () => resolve(false));
    });
    if (ok) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

function running(host: string, port: number, child: ChildProcess): RunningMemcached {
  return {
    server: `${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    async set(key, value, flags = 0) {
      const data = Buffer.from(value, 'utf8');
      const reply = await exchange(host, port, Buffer.concat([Buffer.from(`set ${key} ${flags} 0 ${data.length}\r\n`, 'latin1'), data, Buffer.from('\r\n')]), /\r\n$/);
      if (reply !== 'STORED\r\n') throw new Error(`memcached set ${key}: ${reply}`);
    },
    async stats() {
      const reply = await exchange(host, port, Buffer.from('stats\r\n'), /END\r\n$/);
      const stats: Record<string, number> = {};
      for (const [, name, value] of reply.matchAll(/^STAT (\S+) (\S+)\r$/gm)) stats[name] = Number(value);
      return stats;
    },
    stop: () => new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill();
    }),
  };
}

/** Sends `request` on a new connection and returns what comes back until `end` matches. */
function exchange(host: string, port: number, request: Buffer, end: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let reply = '';
    const socket = net.connect(port, host, () => socket.write(request));
    socket.on('data', (chunk) => {
      reply += chunk.toString('latin1');
      if (end.test(reply)) { socket.destroy(); resolve(reply); }
    });
    socket.on('error', reject);
  });
}
