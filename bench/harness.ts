/**
 * What every benchmark run shares: a free port, a server started as its own process (the built
 * server, as in production), a measured autocannon run, the server's resident memory, the report.
 */
import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import autocannon from 'autocannon';
import { performance } from 'node:perf_hooks';

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
  /** The slowest answer (a stall of a few requests hides below the p99 of a fast run). */
  max: number;
  errors: number;
  non2xx: number;
  /** Answers with a 2xx status. */
  ok: number;
  /** Resident memory of the serving processes right after the run, in MB. */
  rssMb?: number;
  /** Their highest resident memory during the run (sampled every 250 ms), in MB. */
  rssPeakMb?: number;
  /** The server's V8 heap in use after the run, and memory outside it (typed arrays, buffers), in MB (its metrics). */
  heapMb?: number;
  externalMb?: number;
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

/** The metrics port of each server started (its heap is read there after a run). */
const metricsPorts = new WeakMap<ChildProcess, number>();

/** The built server (`npm run build` first), with `env`, once it listens; its metrics on a port of their own. */
export async function startServer(args: string[], env: Record<string, string>, { nodeArgs: suiteArgs = [] as string[] } = {}): Promise<ChildProcess> {
  // Node's flags as `npm start` gives them; BENCH_SERVER_NODE_ARGS adds others (say `--cpu-prof
  // --cpu-prof-dir=/tmp/prof`, which Node refuses in NODE_OPTIONS), and a suite its own (an inspector port).
  const nodeArgs = [...START_NODE_FLAGS, ...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean), ...suiteArgs];
  const metricsPort = env.METRICS_PORT ? Number(env.METRICS_PORT) : await freePort();
  const child = await start('Understudy', [...nodeArgs, path.join(ROOT, 'dist/bin/understudy.js'), ...args], { METRICS_PORT: String(metricsPort), ...env });
  metricsPorts.set(child, metricsPort);
  return child;
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
      // The metrics port's line comes first and names an address too, as does the inspector's: not the server's.
      if (!output.split('\n').some((line) => !/metrics|debugger/i.test(line) && /listening|Serving|http:\/\/127\.0\.0\.1:\d+/i.test(line))) return;
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

/** Resolves once the server answers `/-/health/ready` with 200 (polled every 20 ms). */
export async function untilReady(base: string): Promise<void> {
  for (;;) {
    const res = await fetch(`${base}/-/health/ready`).catch(() => null);
    if (res?.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The moment (performance.now()) a line matching `pattern` appears in the server's output, watched
 * line by line without keeping the output (say, when a cache has loaded: docs/deploy.md); `at` is
 * set then, so a caller can tell whether it has appeared yet.
 */
export function whenLogged(child: ChildProcess, pattern: RegExp): { seen: Promise<number>; at?: number } {
  const watch: { seen: Promise<number>; at?: number } = { seen: Promise.resolve(0) };
  watch.seen = new Promise((resolve) => {
    let partial = '';
    const onData = (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      if (!lines.some((line) => pattern.test(line))) return;
      child.stderr?.off('data', onData);
      watch.at = performance.now();
      resolve(watch.at);
    };
    child.stderr?.on('data', onData);
  });
  return watch;
}

/** How long after `from` a watched line appeared, or that it has not (yet). */
export function loggedAfter(watch: { at?: number }, from: number): string {
  return watch.at === undefined ? 'not yet' : `${(watch.at - from).toFixed(0)} ms after ready`;
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

/** Resident memory of a process and its children (the workers of `serve --workers`), in MB (Linux). */
export function rssMb(child: ChildProcess): number | undefined {
  const kb = rssKb(child.pid);
  return kb === undefined ? undefined : Math.round(kb / 1024);
}

function rssKb(pid: number | undefined): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) + childrenOf(pid as number).reduce((sum, c) => sum + (rssKb(c) ?? 0), 0);
  } catch {
    return undefined;
  }
}

/** The highest resident memory of a process since it started (its VmHWM; Linux), in MB. */
export function rssHighWaterMb(child: ChildProcess): number | undefined {
  try {
    const kb = /VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Math.round(Number(kb) / 1024);
  } catch {
    return undefined;
  }
}

/** Samples a server's resident memory every 250 ms until stopped; stop() gives the highest, in MB. */
export function sampleRss(child: ChildProcess): { stop(): number | undefined } {
  let peak: number | undefined;
  const sample = () => {
    const now = rssMb(child);
    if (now !== undefined) peak = Math.max(peak ?? 0, now);
  };
  sample();
  const timer = setInterval(sample, 250);
  return { stop: () => { clearInterval(timer); sample(); return peak; } };
}

/** The server's V8 heap in use and its memory outside the heap, in MB, from its metrics (undefined without them). */
export async function heapMb(child: ChildProcess): Promise<{ heapMb?: number; externalMb?: number }> {
  const port = metricsPorts.get(child);
  if (port === undefined) return {};
  try {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    const value = (name: string) => {
      const bytes = new RegExp(`^understudy_${name} ([\\d.e+]+)`, 'm').exec(text)?.[1];
      return bytes === undefined ? undefined : Math.round(Number(bytes) / 1024 / 1024);
    };
    return { heapMb: value('nodejs_heap_size_used_bytes'), externalMb: value('nodejs_external_memory_bytes') };
  } catch {
    return {};
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
  const rss = o.server ? sampleRss(o.server) : null;
  const r = await autocannon({ ...base, duration: o.duration });
  return {
    name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, max: r.latency.max, errors: r.errors + r.timeouts, non2xx: r.non2xx,
    ok: r['2xx'], ...(o.server ? await memoryAfter(o.server, rss) : {}),
  };
}

/** A server's memory after a run: resident now and at its highest (when sampled), its heap. */
export async function memoryAfter(server: ChildProcess, sampled: { stop(): number | undefined } | null): Promise<Pick<Result, 'rssMb' | 'rssPeakMb' | 'heapMb' | 'externalMb'>> {
  return { rssPeakMb: sampled?.stop(), rssMb: rssMb(server), ...(await heapMb(server)) };
}

/** The table of results, each run's throughput also as a share of the first (the bare Express route). */
export function report(title: string, results: Result[]): void {
  const baseline = results[0]?.rps ?? 0;
  const rows = results.map((r) => [
    r.name, r.rps.toFixed(0), `${r.p50} ms`, `${r.p99} ms`, `${r.max} ms`, baseline ? `${((r.rps / baseline) * 100).toFixed(1)}%` : '',
    String(r.errors + r.non2xx), r.rssMb === undefined ? '' : `${r.rssMb} MB${r.rssPeakMb === undefined ? '' : ` (peak ${r.rssPeakMb})`}`,
    r.heapMb === undefined ? '' : `${r.heapMb} MB${r.externalMb === undefined ? '' : ` + ${r.externalMb}`}`, r.note ?? '',
  ]);
  const head = ['run', 'req/s', 'p50', 'p99', 'max', 'of bare Express', 'errors/non-2xx', 'server RSS after (peak)', 'heap used + external', 'notes'];
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
