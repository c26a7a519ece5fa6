/**
 * The chat suite of `npm run bench`: N conversations at once (100, 500, 2,000), each asking a
 * question, reading its answer as a local provider (bench/chat-provider.ts, a process of its own)
 * streams it at 20 tokens a second for 10 s, and asking again in the same thread, for 30 s; their
 * first questions spread over 10 s, so N/10 questions arrive a second. The load generator is another
 * process (bench/chat-load.ts, one connection per answer). For each N, four runs one after the other:
 * - `direct`: the load generator straight at the provider: the baseline of what the machine, the
 *   provider and the client cost by themselves;
 * - `stripped-down`: the same through bench/chat-stripped.ts, the server's own streaming code and
 *   nothing else: the floor of a token's cost, against which the server's CPU a token is a ratio;
 * - `Understudy`: POST /support/v1/chat/messages with `stream: true` on the built server (MariaDB);
 * - `PHP-FPM`: a PHP script on php-fpm behind nginx proxying the same stream (bench/chat-php.ts).
 * Each token carries the moment the provider wrote it, so its latency is measured end to end; what
 * the server adds is its latency minus the direct run's (p50 against p50, p99 against p99). Also
 * read: the server's event-loop delay (its own metric, prom-client's `monitorEventLoopDelay`,
 * scraped from METRICS_PORT before and after the run, which resets it), its peak RSS, its CPU a
 * token, and, during each run, the p99 of another route (docs search) against its idle p99, and who
 * used the machine's two cores (the provider, the load generator, the server, MariaDB).
 *
 *   npm run bench -- --suite=chat [--streams=100,500,2000] [--php-workers=10] [--php=on|off]
 *   BENCH_MYSQL_URL=mysql://root@127.0.0.1:3306/understudy_bench (the site lives in <database>_chat)
 *
 * The site's `chat_rate_limits` let the whole site take the load (the `site` bucket, 240 a minute by
 * default, is raised to a million); each conversation comes from an address of its own through a
 * trusted proxy, so the per-address and per-thread limits stay as shipped. HTTP_MAX_CONNECTIONS is
 * raised to 6,000 (default 1,000: a setting for sites that hold many streams, docs/deploy.md).
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openSite } from '../lib/boot';
import { memoryLogger } from '../lib/logger';
import { insertDocs } from '../lib/support/docs/store';
import { CHAT_DOCS } from '../test/harness/chat-docs';
import { LoadPlan, LoadSummary, Percentiles, percentiles } from './chat-load';
import { phpStackMissing, startPhpStack } from './chat-php';
import { SALTS, benchConfig, benchDatabaseUrl, benchTarget, createBenchDatabase } from './fixture';
import { ROOT, Result, cpuTimeMs, cpuTimeSince, freePort, log, startScript, startServer, stop } from './harness';

const QUESTION = 'How do I export my data as CSV?';
/** An answer's length (200 tokens at 20 a second), over which the conversations start: N/10 new questions a second from then on. */
const RAMP_MS = 10_000;
/** Each conversation asks again as soon as its answer ends, for this long: about three answers each. */
const DURATION_MS = 30_000;
const DEADLINE_MS = 30_000;
const DATA_DIR = '/tmp/understudy-bench-chat';

export async function chatSuite(args: Record<string, string>): Promise<Result[]> {
  const counts = (args.streams ?? '100,500,2000').split(',').map(Number);
  const phpWorkers = Number(args['php-workers'] ?? 10);
  const missing = args.php === 'off' ? 'turned off (--php=off)' : phpStackMissing();
  if (missing) log(`chat: the PHP side is skipped: ${missing}`);
  const providerPort = await freePort();
  const provider = await startScript('provider', 'bench/chat-provider.ts', { PORT: String(providerPort) });
  const providerUrl = `http://127.0.0.1:${providerPort}/v1`;
  const url = benchDatabaseUrl('chat');
  await prepareSite(url, providerUrl);
  const port = await freePort();
  const metricsPort = await freePort();
  const server = await startServer(['serve'], {
    DATABASE_URL: url, ...SALTS, WP_ENVIRONMENT_TYPE: 'local', PORT: String(port), UNDERSTUDY_DATA_DIR: DATA_DIR,
    TRUSTED_PROXIES: '127.0.0.1, ::1', HTTP_MAX_CONNECTIONS: '6000', METRICS_PORT: String(metricsPort),
  });
  for (const stream of [server.stdout, server.stderr]) {
    stream?.removeAllListeners('data');
    stream?.resume();
  }
  const origin = `http://127.0.0.1:${port}`;
  const results: Result[] = [];
  try {
    // The first question learns the docs' passages; the first search builds the docs index.
    await runLoad({ target: 'understudy', url: origin, streams: 1, rampMs: 0, durationMs: 0, deadlineMs: DEADLINE_MS, question: QUESTION });
    const idle = await probe(origin, 15_000);
    results.push(probeResult('docs search, idle', idle, server));
    for (const streams of counts) {
      const plan = { streams, rampMs: RAMP_MS, durationMs: DURATION_MS, deadlineMs: DEADLINE_MS, question: QUESTION };
      log(`chat: ${streams} streams straight to the provider…`);
      const directShares = machineShares(provider);
      const direct = await runLoad({ ...plan, target: 'direct', url: providerUrl.replace(/\/v1$/, '') });
      results.push(streamResult(`direct to the provider, ${streams} streams`, direct, direct, { shares: directShares.stop(direct) }));
      log(`chat: ${streams} streams through the stripped-down streaming server…`);
      const floor = await measureStripped(provider, providerUrl, plan);
      results.push(streamResult(`stripped-down server, ${streams} streams`, floor.load, direct, floor));
      log(`chat: ${streams} streams through Understudy…`);
      const shares = machineShares(provider, server);
      const measured = await measureServer(server, metricsPort, () => runLoad({ ...plan, target: 'understudy', url: origin }), origin);
      measured.shares = shares.stop(measured.load);
      measured.ratio = cpuPerToken(measured) / cpuPerToken(floor);
      results.push(streamResult(`Understudy, ${streams} streams`, measured.load, direct, measured));
      if (measured.during) results.push(probeResult(`docs search, during ${streams} streams`, measured.during, server, idle));
      if (missing) continue;
      log(`chat: ${streams} streams through PHP-FPM (${phpWorkers} workers) behind nginx…`);
      const php = await startPhpStack(providerUrl, phpWorkers);
      try {
        const measuredPhp = await measureProcesses(php.pids, () => runLoad({ ...plan, target: 'php', url: php.url }));
        results.push(streamResult(`PHP-FPM ${phpWorkers} workers + nginx, ${streams} streams`, measuredPhp.load, direct, measuredPhp));
      } finally {
        await php.stop();
      }
    }
  } finally {
    await stop(server);
    await stop(provider);
  }
  return results;
}

/** A fresh database with the chat test corpus, chat on, the provider set and the site-wide limit raised. */
async function prepareSite(url: string, providerUrl: string): Promise<void> {
  const target = benchTarget(url);
  await createBenchDatabase(target, { fresh: true });
  const { site } = await openSite({ ...benchConfig(target), dataDir: DATA_DIR }, { logger: memoryLogger() });
  try {
    await insertDocs(site, CHAT_DOCS);
    await site.options.update('svc_settings', {
      chat_enabled: true, chat_base_url: providerUrl, chat_model: 'bench', chat_api_key: 'sk-bench',
      chat_rate_limits: { site: { limit: 1_000_000, window: 60 } },
    });
  } finally {
    await site.close();
  }
}

function runLoad(plan: LoadPlan): Promise<LoadSummary> {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', path.join(ROOT, 'bench/chat-load.ts')], {
    cwd: ROOT, env: { ...process.env, CHAT_LOAD: JSON.stringify(plan) }, stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  return new Promise((resolve, reject) => child.once('exit', (code) => {
    const line = /^RESULT (.*)$/m.exec(output)?.[1];
    if (code !== 0 || !line) reject(new Error(`the load generator exited (${code}): ${output}`));
    else resolve(JSON.parse(line) as LoadSummary);
  }));
}

interface Measured {
  load: LoadSummary;
  /** Peak resident memory of the serving processes during the run, MB. */
  rssMb?: number;
  cpuMs?: number;
  loopDelay?: { p99: number; max: number };
  /** The other route while the streams ran. */
  during?: Probe;
  /** Who used the machine's CPU during the run (machineShares()). */
  shares?: string;
  /** The server's CPU a token as a multiple of the stripped-down server's in the same round. */
  ratio?: number;
}

const cpuPerToken = (m: Measured) => (m.cpuMs ?? NaN) / m.load.tokens;

/**
 * The same load through the stripped-down streaming server (bench/chat-stripped.ts: the provider's
 * stream read and written by the server's own code, nothing stored): the floor of a token's cost.
 */
async function measureStripped(provider: ChildProcess, providerUrl: string, plan: Omit<LoadPlan, 'target' | 'url'>): Promise<Measured> {
  const port = await freePort();
  const stripped = await startScript('stripped-down chat server', 'bench/chat-stripped.ts', { PORT: String(port), PROVIDER_URL: providerUrl }, { asServer: true });
  try {
    const shares = machineShares(provider, stripped);
    const measured = await measureProcesses([stripped.pid as number], () => runLoad({ ...plan, target: 'understudy', url: `http://127.0.0.1:${port}` }));
    measured.shares = shares.stop(measured.load);
    return measured;
  } finally {
    await stop(stripped);
  }
}

/**
 * The machine's CPU over a run and who used it, in cores (2 = both cores busy throughout): all
 * processes together (/proc/stat), the provider, the load generator (its own report), the server
 * when there is one, and MariaDB (shared with everything else using it); with the provider's and
 * load generator's CPU a token, the part of a token's cost that is not the server's.
 */
function machineShares(provider: ChildProcess, server?: ChildProcess): { stop(load: LoadSummary): string } {
  const started = performance.now();
  const busyBefore = machineBusyMs();
  const mariadb = mariadbPid();
  const before = [provider.pid, server?.pid, mariadb].map((pid) => (pid ? cpuTimeMs(pid) : undefined));
  return {
    stop(load) {
      const seconds = (performance.now() - started) / 1000;
      const [providerMs, serverMs, mariadbMs] = [provider.pid, server?.pid, mariadb].map((pid, i) => (pid ? cpuTimeSince(pid, before[i]) : undefined));
      const cores = (cpuMs: number | undefined) => (cpuMs === undefined ? '?' : (cpuMs / 1000 / seconds).toFixed(2));
      const perToken = (cpuMs: number | undefined) => (cpuMs === undefined || !load.tokens ? '?' : ((cpuMs * 1000) / load.tokens).toFixed(0));
      return [
        `machine ${cores(machineBusyMs() - busyBefore)} cores busy of ${os.cpus().length}`,
        `provider ${cores(providerMs)} (${perToken(providerMs)} µs a token)`,
        `load generator ${cores(load.cpuMs)} (${perToken(load.cpuMs)} µs a token)`,
        ...(server ? [`server ${cores(serverMs)}`] : []),
        `MariaDB ${cores(mariadbMs)}`,
      ].join(', ');
    },
  };
}

/** CPU time every core spent busy since boot (/proc/stat: all but idle and iowait), ms. */
function machineBusyMs(): number {
  const [, ...ticks] = (fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] as string).trim().split(/\s+/).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = ticks as number[];
  return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) * 10;
}

/** The MariaDB server's process, when it runs on this machine. */
function mariadbPid(): number | undefined {
  for (const name of ['mariadbd', 'mysqld']) {
    try {
      const pid = Number(execFileSync('pidof', ['-s', name], { encoding: 'utf8' }).trim());
      if (pid) return pid;
    } catch {
      // Not running under this name.
    }
  }
  return undefined;
}

/** Runs the load against the server, reading its memory, CPU, event-loop delay and, if asked, another route's latency. */
async function measureServer(server: ChildProcess, metricsPort: number, load: () => Promise<LoadSummary>, probeOrigin: string | null): Promise<Measured> {
  await loopDelay(metricsPort);
  const cpuBefore = cpuTimeMs(server.pid);
  const peak = sampleRss([server.pid as number]);
  // The other route is measured once every conversation has started, for 15 s.
  const during = probeOrigin ? sleep(RAMP_MS).then(() => probe(probeOrigin, 15_000)) : Promise.resolve(undefined);
  const result = await load();
  const cpuMs = cpuTimeSince(server.pid, cpuBefore);
  return { load: result, rssMb: peak.stop(), cpuMs, loopDelay: await loopDelay(metricsPort), during: await during };
}

async function measureProcesses(pids: number[], load: () => Promise<LoadSummary>): Promise<Measured> {
  const cpuBefore = pids.map((pid) => cpuTimeMs(pid) ?? 0);
  const peak = sampleRss(pids);
  const result = await load();
  const cpuMs = pids.reduce((sum, pid, i) => sum + (cpuTimeSince(pid, cpuBefore[i]) ?? 0), 0);
  return { load: result, rssMb: peak.stop(), cpuMs };
}

/** The event loop's delay since the last scrape (prom-client resets its histogram at each one), ms. */
async function loopDelay(metricsPort: number): Promise<{ p99: number; max: number }> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const read = (name: string) => Number(new RegExp(`^understudy_nodejs_eventloop_lag_${name}_seconds(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1]) * 1000;
  return { p99: read('p99'), max: read('max') };
}

/** The highest sum of the processes' (and their children's) resident memory, sampled every 250 ms. */
function sampleRss(pids: number[]): { stop(): number } {
  let peak = 0;
  const sample = () => { peak = Math.max(peak, pids.reduce((sum, pid) => sum + treeRssKb(pid), 0)); };
  const timer = setInterval(sample, 250);
  sample();
  return { stop: () => { clearInterval(timer); sample(); return Math.round(peak / 1024); } };
}

function treeRssKb(pid: number): number {
  try {
    const own = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    const children = fs.readdirSync(`/proc/${pid}/task`).flatMap((task) => fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
    return own + children.reduce((sum, child) => sum + treeRssKb(child), 0);
  } catch {
    return 0;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Another route, one request at a time every 50 ms for `ms`, each from a reader of its own (the search's per-address limit): latencies in ms. */
async function probe(origin: string, ms: number): Promise<Probe> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const queries = ['export%20csv', 'password', 'invoice', 'two%20factor', 'refund'];
  const latencies: number[] = [];
  const failures: string[] = [];
  const end = performance.now() + ms;
  for (let n = 0; performance.now() < end; n++) {
    const started = performance.now();
    const status = await new Promise<string>((resolve) => {
      http.get(`${origin}/wp-json/support/v1/docs/search?q=${queries[n % queries.length]}`, { agent, headers: { 'X-Forwarded-For': `10.250.${(n >> 8) & 255}.${n & 255}` } }, (res) => {
        res.resume();
        res.on('end', () => resolve(String(res.statusCode)));
      }).on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
    });
    // Every answer's time counts; what was not a 200 is also told.
    if (status !== '200') failures.push(status);
    latencies.push(performance.now() - started);
    await sleep(Math.max(0, 50 - (performance.now() - started)));
  }
  agent.destroy();
  return { latencies, failures };
}

interface Probe {
  latencies: number[];
  /** Statuses (or socket errors) of the answers that were not 200. */
  failures: string[];
}

const ms = (value: number) => Math.round(value * 10) / 10;

function probeResult(name: string, { latencies, failures }: Probe, server: ChildProcess, idle?: Probe): Result {
  const p = percentiles(latencies);
  const idleP99 = idle ? percentiles(idle.latencies).p99 : undefined;
  const failed = failures.length ? `; not 200: ${[...new Set(failures)].map((f) => `${failures.filter((x) => x === f).length}× ${f}`).join(', ')}` : '';
  return {
    name, rps: latencies.length / 15, p50: ms(p.p50), p99: ms(p.p99), max: ms(Math.max(0, ...latencies)), errors: 0, non2xx: failures.length, ok: latencies.length - failures.length,
    note: `${idleP99 ? `p99 ${(p.p99 / idleP99).toFixed(2)}× idle` : 'one request at a time, every 50 ms'}${failed}`,
    rssMb: idle ? undefined : rssOf(server),
  };
}

function rssOf(server: ChildProcess): number | undefined {
  const kb = treeRssKb(server.pid as number);
  return kb ? Math.round(kb / 1024) : undefined;
}

/** A row: tokens a second as the rate, each token's latency as p50/p99; the rest in the notes. */
function streamResult(name: string, run: LoadSummary, direct: LoadSummary, m: Partial<Measured>): Result {
  const added = (mine: Percentiles, base: Percentiles) => `+${ms(mine.p50 - base.p50)}/+${ms(mine.p99 - base.p99)} ms`;
  const failures = Object.entries(run.failures).map(([why, n]) => `${n} ${why}`).join(', ');
  const notes = [
    `headers p50/p99 ${ms(run.headers.p50)}/${ms(run.headers.p99)} ms, first token ${ms(run.firstToken.p50)}/${ms(run.firstToken.p99)} ms`,
    ...(run === direct ? [] : [`added: first token ${added(run.firstToken, direct.firstToken)}, per token ${added(run.perToken, direct.perToken)}`]),
    `${run.completed}/${run.streams} answers complete, peak ${run.peakOpen} open`,
    ...(run.noFirstToken ? [`${run.noFirstToken} without a first token in ${DEADLINE_MS / 1000} s`] : []),
    ...(failures ? [failures] : []),
    ...(m.loopDelay ? [`event loop delay p99/max ${ms(m.loopDelay.p99)}/${ms(m.loopDelay.max)} ms`] : []),
    ...(m.cpuMs !== undefined && run.tokens ? [`CPU ${((m.cpuMs * 1000) / run.tokens).toFixed(0)} µs a token${m.ratio ? ` (${m.ratio.toFixed(2)}× the stripped-down server's)` : ''}`] : []),
    ...(m.shares ? [m.shares] : []),
  ];
  return {
    name, rps: run.tokensPerSecond, p50: ms(run.perToken.p50), p99: ms(run.perToken.p99), max: ms(run.perToken.max), errors: run.streams - run.completed, non2xx: 0,
    ok: run.completed, rssMb: m.rssMb, note: notes.join('; '),
  };
}
