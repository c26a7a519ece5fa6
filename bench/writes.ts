/**
 * The writes suite of the benchmark: what keeping PHP's persistent object cache coherent costs a
 * write (docs/object-cache.md). An agent changes tickets flat out (`PATCH /support/v1/tickets/<id>`,
 * priority flipped between high and normal, each from the version the last answer gave), rotating
 * over 2,000 tickets, with the server started three times a round: OBJECT_CACHE=none, then the
 * Redis drop-in's adapter, then Automattic's memcached drop-in's. The suite starts its own
 * redis-server and memcached on free ports, so their counters see only its writes: the commands each
 * write costs the cache (second passes included: every write is invalidated again a second later)
 * are read from them, and the CPU a write costs the server and the cache from /proc.
 *
 *   npm run bench -- --suite=writes [--tickets=5000] [--caches=redis,memcached] [--rounds=1] [--connections=16] [--duration=10]
 *   BENCH_MYSQL_URL=mysql://root@127.0.0.1:3306/understudy_bench (default; the tickets live in <database>_writes)
 */
import { ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { createClient } from '@redis/client';
import { SECOND_PASS_MS } from '../lib/wp/object-cache/coherence';
import { MemcachedKeyScheme } from '../lib/wp/object-cache/memcached';
import { AGENT_APP_PASSWORD, AGENT_LOGIN, SALTS, benchDatabaseUrl, benchTarget, prepareSite } from './fixture';
import { Result, cpuTimeMs, cpuTimeSince, freePort, log, measure, startServer, stop } from './harness';

/** Tickets the rotation goes over: each comes back after 2,000 writes, long after its last answer. */
const ROTATION = 2_000;
/** Past the second pass: every write's two invalidations are counted. */
const SECOND_PASS_SETTLE_MS = SECOND_PASS_MS + 500;

interface Cache {
  name: string;
  /** The OBJECT_CACHE setting that points the server at it. */
  setting: string;
  /** The cache server's process, whose CPU is read. */
  pid?: number;
  /** The cache's counters of invalidation commands. */
  counters(): Promise<Counters>;
  stop(): Promise<void>;
}

type Counters = Record<string, number>;

interface RotatedTicket {
  id: number;
  version: number;
  priority: string;
  /** A change of it is under way: its next one waits for the answer (an unanswered one never comes back). */
  busy?: boolean;
}

/** Per connection: the ticket its request in flight changes. */
interface WriteContext {
  ticket?: RotatedTicket;
}

export async function writesSuite(args: Record<string, string>, connections: number, duration: number): Promise<Result[]> {
  const url = benchDatabaseUrl('writes');
  const count = await prepareSite(url, Number(args.tickets ?? 5_000), log);
  const rounds = Number(args.rounds ?? 1);
  log(`${count} tickets in ${benchTarget(url).database}; ${connections} connections, ${duration} s per run, ${rounds} round(s)`);
  const caches: Cache[] = [];
  try {
    for (const kind of (args.caches ?? 'redis,memcached').split(',').filter(Boolean)) caches.push(await startCache(kind));
    const results: Result[] = [];
    // Each round measures every cache right after a run without one, so a busy spell of the machine falls on both.
    for (let round = 1; round <= rounds; round++) {
      const none = await measureWrites(url, 'none', null, connections, duration);
      results.push(none);
      for (const cache of caches) {
        const result = await measureWrites(url, cache.name, cache, connections, duration);
        result.note = `${percent(result.rps, none.rps)} of none's req/s; ${result.note}`;
        results.push(result);
      }
    }
    return results;
  } finally {
    for (const cache of caches) await cache.stop();
  }
}

function startCache(kind: string): Promise<Cache> {
  if (kind === 'redis') return startRedis();
  if (kind === 'memcached') return startMemcached();
  throw new Error(`unknown cache ${kind}: choose from redis, memcached`);
}

/** One run against a server started for it; the CPU and the cache's commands a write, read around the measured part. */
async function measureWrites(url: string, name: string, cache: Cache | null, connections: number, duration: number): Promise<Result> {
  const port = await freePort();
  const env = {
    DATABASE_URL: url, ...SALTS, WP_ENVIRONMENT_TYPE: 'local', PORT: String(port), UNDERSTUDY_DATA_DIR: '/tmp/understudy-bench',
    OBJECT_CACHE: cache?.setting ?? 'none',
  };
  const server = await startServer(['serve'], env);
  try {
    const base = `http://127.0.0.1:${port}`;
    const headers = { authorization: `Basic ${Buffer.from(`${AGENT_LOGIN}:${AGENT_APP_PASSWORD}`).toString('base64')}`, 'content-type': 'application/json' };
    const requests = await patchRotation(base, headers);
    log(`OBJECT_CACHE=${name}: warming up…`);
    await autocannon({ url: base, connections, duration: 2, headers, requests });
    await sleep(SECOND_PASS_SETTLE_MS);
    const before = { counters: await cache?.counters(), server: cpuTimeMs(server.pid), cache: cpuTimeMs(cache?.pid) };
    const result = await measure(`Understudy PATCH /tickets/<id>, OBJECT_CACHE=${name}`, { url: base, requests, headers, connections, duration, server, cold: true });
    await sleep(SECOND_PASS_SETTLE_MS);
    const counters = await cache?.counters();
    const cpu = (ms: number | undefined) => (ms === undefined ? '?' : (ms / Math.max(1, result.ok)).toFixed(2));
    const notes = [`server CPU ${cpu(cpuTimeSince(server.pid, before.server))} ms a write`];
    if (cache && before.counters && counters) notes.push(perWrite(before.counters, counters, result.ok), `${name} CPU ${cpu(cpuTimeSince(cache.pid, before.cache))} ms a write`);
    result.note = notes.join('; ');
    return result;
  } finally {
    await stop(server);
  }
}

/**
 * The writes: each picks the next ticket of the rotation and flips its priority from the version and
 * priority the last answer gave (read from the list first, so a restarted server starts right). A
 * ticket whose change is still unanswered is skipped: the warm-up stops with changes in flight whose
 * answers nobody reads, and those tickets' versions are unknown from then on.
 */
async function patchRotation(base: string, headers: Record<string, string>): Promise<autocannon.Request[]> {
  const tickets: RotatedTicket[] = [];
  for (let page = 1; tickets.length < ROTATION; page++) {
    const res = await fetch(`${base}/wp-json/support/v1/tickets?per_page=100&page=${page}`, { headers });
    if (!res.ok) throw new Error(`the ticket list answered ${res.status}: ${await res.text()}`);
    const rows = (await res.json()) as RotatedTicket[];
    if (!rows.length) break;
    tickets.push(...rows.map(({ id, version, priority }) => ({ id, version, priority })));
  }
  let next = 0;
  return [{
    method: 'PATCH',
    setupRequest: (req, context) => {
      let ticket = tickets[next++ % tickets.length] as RotatedTicket;
      while (ticket.busy) ticket = tickets[next++ % tickets.length] as RotatedTicket;
      ticket.busy = true;
      (context as WriteContext).ticket = ticket;
      const priority = ticket.priority === 'high' ? 'normal' : 'high';
      return { ...req, path: `/wp-json/support/v1/tickets/${ticket.id}`, body: JSON.stringify({ version: ticket.version, priority }) };
    },
    onResponse: (status, body, context) => {
      const ticket = (context as WriteContext).ticket;
      if (!ticket) return;
      ticket.busy = false;
      if (status !== 200) return;
      const answer = JSON.parse(body) as RotatedTicket;
      ticket.version = answer.version;
      ticket.priority = answer.priority;
    },
  }];
}

/** The cache commands a write cost, from the counters' growth over `writes` answered writes. */
function perWrite(before: Counters, after: Counters, writes: number): string {
  return Object.keys(after)
    .map((name) => `${(((after[name] as number) - (before[name] ?? 0)) / Math.max(1, writes)).toFixed(2)} ${name}`)
    .join(', ') + ' a write';
}

function percent(value: number, of: number): string {
  return `${((value / of) * 100).toFixed(1)}%`;
}

/** A private redis-server on a free port, nothing saved. */
async function startRedis(): Promise<Cache> {
  const port = await freePort();
  const child = await startDaemon('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], port);
  const client = createClient({ socket: { host: '127.0.0.1', port } });
  await client.connect();
  return {
    name: 'redis',
    pid: child.pid,
    setting: `redis://127.0.0.1:${port}/0?prefix=bench`,
    async counters() {
      const stats = await client.info('commandstats');
      const calls = (command: string) => Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(stats)?.[1] ?? 0);
      // Every command but the bench's own INFO: what the server sent (its connection's HELLO or SELECT included).
      const all = [...stats.matchAll(/cmdstat_(\w+):calls=(\d+)/g)].filter(([, command]) => command !== 'info').reduce((sum, [, , n]) => sum + Number(n), 0);
      return { 'DEL commands': calls('del'), 'commands in all': all };
    },
    async stop() {
      await client.close();
      await stopDaemon(child);
    },
  };
}

/** A private memcached on a free port, holding the drop-in's two flush numbers (without them nothing is deleted). */
async function startMemcached(): Promise<Cache> {
  const port = await freePort();
  const user = process.getuid?.() === 0 ? ['-u', 'root'] : [];
  const child = await startDaemon('memcached', ['-p', String(port), '-l', '127.0.0.1', '-U', '0', ...user], port);
  const scheme = new MemcachedKeyScheme({ servers: [], tablePrefix: 'wp_' });
  const flushNumber = String(Date.now() * 1000);
  const sets = ['WP_Object_Cache', 'WP_Object_Cache_global']
    .map((group) => `set ${scheme.flushKey(group, 'flush_number_v4')} 0 0 ${flushNumber.length}\r\n${flushNumber}\r\n`).join('');
  await memcachedCommand(port, sets, /STORED\r\nSTORED\r\n$/);
  return {
    name: 'memcached',
    pid: child.pid,
    setting: `memcached://127.0.0.1:${port}`,
    async counters() {
      const stats = await memcachedCommand(port, 'stats\r\n', /END\r\n$/);
      const stat = (name: string) => Number(new RegExp(`STAT ${name} (\\d+)`).exec(stats)?.[1] ?? 0);
      return { 'keys deleted': stat('delete_hits') + stat('delete_misses'), 'keys read (flush numbers)': stat('cmd_get') };
    },
    stop: () => stopDaemon(child),
  };
}

/** Sends `command` on a new connection; the answer once it matches `end`. */
function memcachedCommand(port: number, command: string, end: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = net.connect(port, '127.0.0.1', () => socket.write(command));
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      if (end.test(answer)) {
        socket.end();
        resolve(answer);
      }
    });
    socket.on('error', reject);
  });
}

/** A cache server of the suite's own, once it accepts connections on `port`. */
async function startDaemon(command: string, args: string[], port: number): Promise<ChildProcess> {
  const child = spawn(command, args, { stdio: 'ignore' });
  const exited = new Promise<never>((_, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${command} exited (${code}) before listening`)));
  });
  for (let tries = 0; tries < 100; tries++) {
    if (await Promise.race([accepts(port), exited])) return child;
    await sleep(50);
  }
  child.kill('SIGTERM');
  throw new Error(`${command} did not listen on ${port} within 5 s`);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

async function stopDaemon(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
