/**
 * What every benchmark run shares: a free port, a server started as its own process (the built
 * server, as in production), a measured autocannon run, the server's resident memory, the report.
 */
import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import autocannon from 'autocannon';

export const ROOT = path.resolve(__dirname, '..');

/** The Node flags of `npm start` (`node <flags> dist/bin/understudy.js serve`): the server is measured as it is run. */
const START_NODE_FLAGS = startNodeFlags();

function startNodeFlags(): string[] {
  const start: string = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start;
  const [, ...words] = start.split(/\s+/);
  const script = words.findIndex((word) => !word.startsWith('--'));
  return words.slice(0, script);
}

export interface Result {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Answers with a 2xx status. */
  ok: number;
  /** Resident memory of the serving process right after the run, in MB. */
  rssMb?: number;
  /** What a suite adds about the run (the writes suite: cache commands a write). */
  note?: string;
}

export type BenchRequest = autocannon.Request;

export const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

/** `--name=value` arguments. */
export function benchArgs(): Record<string, string> {
  return Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The built server (`npm run build` first), with `env`, once it listens. */
export function startServer(args: string[], env: Record<string, string>): Promise<ChildProcess> {
  // Node's flags as `npm start` gives them; BENCH_SERVER_NODE_ARGS adds others (say `--cpu-prof
  // --cpu-prof-dir=/tmp/prof`, which Node refuses in NODE_OPTIONS).
  const nodeArgs = [...START_NODE_FLAGS, ...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean)];
  return start('Understudy', [...nodeArgs, path.join(ROOT, 'dist/bin/understudy.js'), ...args], env);
}

/**
 * A TypeScript script of the benchmark (the bare Express baseline); `asServer`: with the Node flags
 * the built server gets (a stand-in measured against it, such as the stripped-down intake server).
 */
export function startScript(name: string, file: string, env: Record<string, string>, { asServer = false } = {}): Promise<ChildProcess> {
  return start(name, [...(asServer ? START_NODE_FLAGS : []), '--require', 'tsx/cjs', path.join(ROOT, file)], env);
}

function start(name: string, args: string[], env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (!/listening|Serving|http:\/\/127\.0\.0\.1:\d+/i.test(output)) return;
      // Listening: its output is read (so its pipes never fill) and dropped from now on.
      child.stdout?.off('data', onData).resume();
      child.stderr?.off('data', onData).resume();
      resolve(child);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before listening:\n${output}`)));
  });
}

/** Stops a server and waits for it to be gone. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * CPU time so far (user + system) in ms of a process and its children (the workers of `serve
 * --workers`), from /proc (Linux; clock ticks of 10 ms); undefined elsewhere.
 */
export function cpuTimeMs(pid: number | undefined): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name (in parentheses): state is the first, utime the 12th, stime the 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const own = (Number(fields[11]) + Number(fields[12])) * 10;
    return own + childrenOf(pid as number).reduce((sum, child) => sum + (cpuTimeMs(child) ?? 0), 0);
  } catch {
    return undefined;
  }
}

/** CPU time a process spent since `before` (cpuTimeMs), or undefined where it cannot be read. */
export function cpuTimeSince(pid: number | undefined, before: number | undefined): number | undefined {
  const now = cpuTimeMs(pid);
  return before === undefined || now === undefined ? undefined : now - before;
}

function childrenOf(pid: number): number[] {
  return fs.readdirSync(`/proc/${pid}/task`).flatMap((task) => fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
}

/** Resident memory of a process, in MB (Linux). */
export function rssMb(child: ChildProcess): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
    return kb ? Math.round(Number(kb) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

export interface MeasureOptions {
  url: string;
  requests: BenchRequest[];
  headers?: Record<string, string>;
  connections: number;
  duration: number;
  /** The serving process, whose memory is read after the run. */
  server?: ChildProcess;
  /** Skip the 2-second warm-up (a run whose every request must be counted). */
  cold?: boolean;
}

export async function measure(name: string, o: MeasureOptions): Promise<Result> {
  const base = { url: o.url, connections: o.connections, requests: o.requests, headers: o.headers ?? {} };
  if (!o.cold) {
    log(`${name}: warming up…`);
    await autocannon({ ...base, duration: 2 });
  }
  log(`${name}: measuring…`);
  const r = await autocannon({ ...base, duration: o.duration });
  return {
    name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx,
    ok: r['2xx'], rssMb: o.server ? rssMb(o.server) : undefined,
  };
}

/** The table of results, each run's throughput also as a share of the first (the bare Express route). */
export function report(title: string, results: Result[]): void {
  const baseline = results[0]?.rps ?? 0;
  const rows = results.map((r) => [
    r.name, r.rps.toFixed(0), `${r.p50} ms`, `${r.p99} ms`, baseline ? `${((r.rps / baseline) * 100).toFixed(1)}%` : '',
    String(r.errors + r.non2xx), r.rssMb === undefined ? '' : `${r.rssMb} MB`, r.note ?? '',
  ]);
  const head = ['run', 'req/s', 'p50', 'p99', 'of bare Express', 'errors/non-2xx', 'server RSS', 'notes'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const fmt = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] as number)).join('  ');
  process.stdout.write(`\n${title}\n\n${fmt(head)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n${rows.map(fmt).join('\n')}\n`);
}

/** The bare Express route, measured as each suite's first row. */
export async function measureBareExpress(connections: number, duration: number): Promise<Result> {
  const port = await freePort();
  const bare = await startScript('bare Express', 'bench/bare-express.ts', { PORT: String(port) });
  try {
    return await measure('bare Express GET /hello', { url: `http://127.0.0.1:${port}`, requests: [{ path: '/hello' }], connections, duration, server: bare });
  } finally {
    await stop(bare);
  }
}
