/**
 * `npm run bench:uploads`: how much memory the server takes while large uploads arrive at once.
 *
 * Starts the built server as a user would (`node dist/bin/understudy.js serve`) in a throwaway folder,
 * so its first start creates the embedded SQLite demo site and prints the demo sign-ins (public demo
 * values). Then sends concurrent multipart POSTs to /wp-json/support/v1/tickets, each just under the
 * 8 MiB body limit (subject, body and one file part of random bytes), as the demo customers signed in
 * with their application passwords, and reads the server's resident memory from /proc/<pid>/status:
 * VmRSS before the burst (after a few warm-up requests), and the peak during it (VmHWM, reset just
 * before the burst through /proc/<pid>/clear_refs, and also sampled every 20 ms as a cross-check).
 * Each round starts a fresh server and site.
 *
 *   npm run bench:uploads -- [--concurrency=16] [--rounds=3] [--root=<checkout with a built dist/>]
 *
 * --root measures another checkout's build (e.g. a `git worktree` of an older commit) the same way.
 * Linux only (/proc).
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const MIB = 1024 * 1024;
/** The REST server's default body limit (PHP's post_max_size). */
const BODY_LIMIT = 8 * MIB;
/** Customers may open 20 tickets an hour; the burst is spread over the demo customers. */
const CUSTOMERS = ['customer1', 'customer2'];

interface Round {
  baselineRss: number;
  peakHwm: number;
  peakSampled: number;
  afterRss: number;
  statuses: number[];
  seconds: number;
}

async function main(): Promise<void> {
  const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
  const root = path.resolve(args.root ?? path.resolve(__dirname, '..'));
  const concurrency = Number(args.concurrency ?? 16);
  const rounds = Number(args.rounds ?? 3);
  const entry = path.join(root, 'dist/bin/understudy.js');
  if (!fs.existsSync(entry)) throw new Error(`${entry} does not exist: run npm run build in ${root} first`);
  if (concurrency > CUSTOMERS.length * 20) throw new Error(`at most ${CUSTOMERS.length * 20} tickets fit in the customers' hourly limit`);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  log(`${entry}: ${concurrency} concurrent uploads of just under ${BODY_LIMIT / MIB} MiB, ${rounds} rounds, ${os.cpus().length} cores`);

  const results: Round[] = [];
  for (let i = 1; i <= rounds; i++) {
    const result = await round(entry, concurrency);
    results.push(result);
    log(`round ${i}: baseline ${mb(result.baselineRss)}, peak ${mb(result.peakHwm)} (sampled ${mb(result.peakSampled)}), `
      + `after ${mb(result.afterRss)}; answers ${summary(result.statuses)} in ${result.seconds.toFixed(1)} s`);
  }
  const median = (pick: (r: Round) => number) => [...results].map(pick).sort((a, b) => a - b)[Math.floor(results.length / 2)] as number;
  console.log(JSON.stringify({
    server: entry, concurrency, body_bytes: bodySizeFor(0).total, rounds,
    baseline_rss_mb: toMb(median((r) => r.baselineRss)), peak_rss_mb: toMb(median((r) => r.peakHwm)),
    peak_rss_mb_max: toMb(Math.max(...results.map((r) => r.peakHwm))), statuses: summary(results.flatMap((r) => r.statuses)),
  }, null, 2));
}

/** One fresh server: warm it up, note its memory, send the burst, note the peak, stop it. */
async function round(entry: string, concurrency: number): Promise<Round> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-bench-uploads-'));
  const port = await freePort();
  // Only what a shell would pass on: no DATABASE_URL or WP_CONFIG_PATH, so the embedded demo site is used.
  const env = { PATH: process.env.PATH ?? '', HOME: dir, PORT: String(port), UNDERSTUDY_DATA_DIR: path.join(dir, 'data') };
  const child = spawn(process.execPath, [entry, 'serve'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const signIns = await demoSignIns(child);
    const base = `http://127.0.0.1:${port}`;
    const auth = (login: string) => `Basic ${Buffer.from(`${login}:${signIns.get(login)}`).toString('base64')}`;
    for (const login of CUSTOMERS) {
      if (!signIns.has(login)) throw new Error(`the server printed no sign-in for ${login}`);
      for (let i = 0; i < 3; i++) await request(base, 'GET', '/wp-json/support/v1/tickets', { Authorization: auth(login) });
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const pid = child.pid as number;
    const baselineRss = memory(pid).VmRSS;
    // Resets VmHWM to the current RSS, so that what follows is the burst's own peak.
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    let peakSampled = baselineRss;
    const sampler = setInterval(() => { peakSampled = Math.max(peakSampled, memory(pid).VmRSS); }, 20);
    const started = process.hrtime.bigint();
    const statuses = await Promise.all(Array.from({ length: concurrency }, (_, i) => upload(base, auth(CUSTOMERS[i % CUSTOMERS.length] as string), i)));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    clearInterval(sampler);
    const peakHwm = memory(pid).VmHWM;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    return { baselineRss, peakHwm, peakSampled, afterRss: memory(pid).VmRSS, statuses, seconds };
  } finally {
    await stop(child);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The demo sign-ins `serve` prints on the site's first start: login → application password. */
function demoSignIns(child: ChildProcess): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    const found = new Map<string, string>();
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`no sign-ins printed within 60 s:\n${out}\n${err}`)), 60_000);
    child.stderr?.on('data', (chunk: Buffer) => { err += chunk.toString('utf8'); });
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      for (const m of out.matchAll(/curl -u ([^:\s]+):(\S+) /g)) found.set(m[1] as string, m[2] as string);
      if (CUSTOMERS.every((login) => found.has(login))) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`the server exited (${code}):\n${out}\n${err}`)); });
  });
}

/** The multipart body's parts around the file, and the file size that brings the whole just under the limit. */
function bodySizeFor(i: number): { head: Buffer; tail: Buffer; fileBytes: number; total: number } {
  const boundary = 'bench-uploads-boundary';
  const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from(field('subject', `Upload ${i}`) + field('body', 'The file is attached.')
    + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="upload-${i}.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const total = BODY_LIMIT - 1024;
  return { head, tail, fileBytes: total - head.length - tail.length, total };
}

const fileContent = randomBytes(BODY_LIMIT);

function upload(base: string, authorization: string, i: number): Promise<number> {
  const { head, tail, fileBytes, total } = bodySizeFor(i);
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}/wp-json/support/v1/tickets`, {
      method: 'POST', agent: false,
      headers: { Authorization: authorization, 'Content-Type': 'multipart/form-data; boundary=bench-uploads-boundary', 'Content-Length': String(total) },
    }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.write(head);
    req.write(fileContent.subarray(0, fileBytes));
    req.end(tail);
  });
}

function request(base: string, method: string, urlPath: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${urlPath}`, { method, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** VmRSS and VmHWM of a process, in bytes. */
function memory(pid: number): { VmRSS: number; VmHWM: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { VmRSS: kb('VmRSS'), VmHWM: kb('VmHWM') };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const toMb = (bytes: number) => Math.round(bytes / MIB);
const mb = (bytes: number) => `${toMb(bytes)} MB`;
const summary = (statuses: number[]) => Object.entries(statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {}))
  .map(([status, n]) => `${n}x ${status}`).join(', ');

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
