/**
 * The recording part of `npm run bench`: what `understudy proxy --record` costs the client. A PHP
 * stand-in (a Node server answering a 2 KB JSON page, as a WordPress page cache would) is measured
 * directly, then through `understudy proxy` passing every request, without and with --record (every
 * exchange, default rotation): flat out (throughput, p99 under saturation) and at a steady 300
 * requests per second (p99 at a load the proxy carries, what a client of a healthy site sees). After
 * each recording run, its files are counted (exchanges recorded) and removed.
 *
 *   npm run bench -- --suite=record [--connections=16] [--duration=10]
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { parseCapture } from '../lib/replay/capture';
import autocannon from 'autocannon';
import { BenchRequest, Result, freePort, log, measure, memoryAfter, sampleRss, startScript, startServer, stop } from './harness';

const WORK_DIR = '/tmp/understudy-bench-record';
/** The steady rate of the second pair of runs, well under what the proxy carries on this machine. */
const STEADY_RATE = 300;
const PAGE = JSON.stringify({ id: 1, title: 'Hello world', content: 'x'.repeat(1900) });

export async function recordSuite(connections: number, duration: number): Promise<Result[]> {
  fs.rmSync(WORK_DIR, { recursive: true, force: true });
  fs.mkdirSync(WORK_DIR, { recursive: true });
  const phpPort = await freePort();
  const php = await startScript('PHP stand-in', 'bench/record.ts', { BENCH_RECORD_UPSTREAM: '1', PORT: String(phpPort) });
  const requests: BenchRequest[] = [{ path: '/blog/hello-world/', headers: { Authorization: `Basic ${Buffer.from('agent1:bench secret').toString('base64')}` } }];
  const results: Result[] = [];
  try {
    results.push(await measure('PHP stand-in, direct', { url: `http://127.0.0.1:${phpPort}`, requests, connections, duration, server: php }));
    for (const rate of [undefined, STEADY_RATE]) {
      const load = rate ? `, ${rate} req/s` : ', flat out';
      results.push(await throughProxy(`proxy, pass (recording off)${load}`, phpPort, [], requests, connections, duration, rate));
      const recording = path.join(WORK_DIR, `recording-${rate ?? 'max'}`);
      results.push(await throughProxy(`proxy, pass + --record${load}`, phpPort, [`--record=${recording}`], requests, connections, duration, rate));
      countRecorded(recording);
    }
  } finally {
    await stop(php);
    fs.rmSync(WORK_DIR, { recursive: true, force: true });
  }
  return results;
}

function countRecorded(recording: string): void {
  const files = fs.readdirSync(recording);
  const entries = files.reduce((n, f) => n + parseCapture(fs.readFileSync(path.join(recording, f), 'utf8')).length, 0);
  const bytes = files.reduce((n, f) => n + fs.statSync(path.join(recording, f)).size, 0);
  log(`  recorded ${entries} exchanges (warm-up included) in ${files.length} files, ${(bytes / 1048576).toFixed(1)} MiB`);
  fs.rmSync(recording, { recursive: true, force: true });
}

async function throughProxy(name: string, phpPort: number, flags: string[], requests: BenchRequest[], connections: number, duration: number, rate?: number): Promise<Result> {
  const port = await freePort();
  const env = { DATABASE_URL: `sqlite:${path.join(WORK_DIR, 'site.sqlite')}`, PORT: String(port), UNDERSTUDY_DATA_DIR: path.join(WORK_DIR, 'data'), WP_ENVIRONMENT_TYPE: 'local' };
  const proxy = await startServer(['proxy', `--upstream=http://127.0.0.1:${phpPort}`, ...flags], env);
  let tail = '';
  proxy.stderr?.on('data', (chunk: Buffer) => { tail = (tail + chunk.toString()).slice(-4000); });
  try {
    if (!rate) return await measure(name, { url: `http://127.0.0.1:${port}`, requests, connections, duration, server: proxy });
    return await steady(name, `http://127.0.0.1:${port}`, requests, connections, duration, rate, proxy);
  } finally {
    await stop(proxy);
    // The recorder's last progress line, printed at shutdown: recorded, dropped, cut.
    const last = tail.match(/recording: [^\n]*/g)?.at(-1);
    if (last) log(`  proxy said: ${last}`);
  }
}

/** A run at a fixed overall rate (measure() runs flat out), after the same 2-second warm-up. */
async function steady(name: string, url: string, requests: BenchRequest[], connections: number, duration: number, rate: number, server: ChildProcess): Promise<Result> {
  const base = { url, connections, requests, overallRate: rate };
  log(`${name}: warming up…`);
  await autocannon({ ...base, duration: 2 });
  log(`${name}: measuring…`);
  const rss = sampleRss(server);
  const r = await autocannon({ ...base, duration });
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, max: r.latency.max, errors: r.errors + r.timeouts, non2xx: r.non2xx, ok: r['2xx'], ...(await memoryAfter(server, rss)) };
}

/** Run as the PHP stand-in (started by the suite as a child process). */
if (process.env.BENCH_RECORD_UPSTREAM === '1') {
  const server = http.createServer((req, res) => {
    req.resume().on('end', () => res.writeHead(200, { 'Content-Type': 'application/json; charset=UTF-8' }).end(PAGE));
  });
  server.keepAliveTimeout = 30_000;
  server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('listening\n'));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}
