/**
 * `npm run bench`: requests per second and p50/p99 latency of GET /support/v1/tickets on MariaDB with
 * many tickets, as an agent signed in with an application password, rotating over the statuses, pages
 * 1-5 and priority=high; with and without the svc_* indexes; next to a bare Express route measured in
 * the same run. Understudy and the baseline each run in their own process; autocannon runs here.
 *
 *   npm run bench -- [--tickets=100000] [--connections=16] [--duration=10] [--indexes=both|on|off] [--writes=<per second>]
 *
 * With --writes=N an agent also changes N tickets per second (GET then PATCH, over HTTP) while the list is
 * measured: every write moves the change token, so cached pages must be loaded again, as on a busy desk.
 *   BENCH_MYSQL_URL=mysql://root@127.0.0.1:3306/understudy_bench (default)
 */
import { ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import autocannon from 'autocannon';
import { openSite } from '../lib/boot';
import { memoryLogger } from '../lib/logger';
import { addIndexes, removeIndexes } from '../lib/support/db-indexes';
import { AGENT_APP_PASSWORD, AGENT_LOGIN, SALTS, benchConfig, benchTarget, prepareSite } from './fixture';

const ROOT = path.resolve(__dirname, '..');

interface Result { name: string; rps: number; p50: number; p99: number; errors: number; non2xx: number }

async function main(): Promise<void> {
  const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
  const url = process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/understudy_bench';
  const tickets = Number(args.tickets ?? 100_000);
  const connections = Number(args.connections ?? 16);
  const duration = Number(args.duration ?? 10);
  const modes = args.indexes === 'on' ? ['on'] : args.indexes === 'off' ? ['off'] : ['on', 'off'];
  const writes = Number(args.writes ?? 0);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const count = await prepareSite(url, tickets, log);
  log(`${count} tickets in ${benchTarget(url).database}; ${connections} connections, ${duration} s per run`);

  const results: Result[] = [];
  const barePort = await freePort();
  const bare = await start('bare Express', [path.join(ROOT, 'bench/bare-express.ts')], { PORT: String(barePort) });
  try {
    results.push(await measure('bare Express GET /hello', `http://127.0.0.1:${barePort}`, [{ path: '/hello' }], {}, connections, duration));
  } finally {
    bare.kill('SIGTERM');
  }
  for (const mode of modes) {
    await setIndexes(url, mode === 'on');
    const port = await freePort();
    const env = { DATABASE_URL: url, ...SALTS, WP_ENVIRONMENT_TYPE: 'local', PORT: String(port), UNDERSTUDY_DATA_DIR: '/tmp/understudy-bench' };
    const server = await start('Understudy', [path.join(ROOT, 'bin/understudy.ts'), 'serve'], env);
    try {
      const auth = `Basic ${Buffer.from(`${AGENT_LOGIN}:${AGENT_APP_PASSWORD}`).toString('base64')}`;
      const base = `http://127.0.0.1:${port}`;
      const writer = writes > 0 ? startWriter(base, auth, writes) : null;
      try {
        const name = `Understudy GET /tickets, svc_* indexes ${mode}${writes ? `, ${writes} writes/s` : ''}`;
        results.push(await measure(name, base, ticketRequests(), { authorization: auth }, connections, duration));
      } finally {
        if (writer) log(`  ${await writer.stop()} ticket changes made during the run`);
      }
    } finally {
      server.kill('SIGTERM');
    }
  }
  report(results);
}

/** The rotation: every status, pages 1-5, and priority=high. */
function ticketRequests(): Array<{ path: string }> {
  const requests: Array<{ path: string }> = [];
  for (let page = 1; page <= 5; page++) {
    for (const filter of ['status=open', 'status=waiting', 'status=resolved', 'priority=high']) {
      requests.push({ path: `/wp-json/support/v1/tickets?${filter}&page=${page}` });
    }
  }
  return requests;
}

/** Changes `perSecond` tickets a second (priority flips), as an agent would, until stopped. */
function startWriter(base: string, auth: string, perSecond: number): { stop(): Promise<number> } {
  let done = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = Date.now();
      const id = 1 + Math.floor(Math.random() * 1000) * 3;
      const got = await fetch(`${base}/wp-json/support/v1/tickets/${id}`, { headers: { authorization: auth } });
      if (got.ok) {
        const ticket = (await got.json()) as { version: number; priority: string };
        const priority = ticket.priority === 'high' ? 'normal' : 'high';
        const patched = await fetch(`${base}/wp-json/support/v1/tickets/${id}`, {
          method: 'PATCH', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify({ version: ticket.version, priority }),
        });
        if (patched.ok) done += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1000 / perSecond - (Date.now() - started))));
    }
  })();
  return { stop: async () => { running = false; await loop; return done; } };
}

async function measure(name: string, url: string, requests: Array<{ path: string }>, headers: Record<string, string>, connections: number, duration: number): Promise<Result> {
  process.stderr.write(`${name}: warming up…\n`);
  await autocannon({ url, connections, duration: 2, requests, headers });
  process.stderr.write(`${name}: measuring…\n`);
  const r = await autocannon({ url, connections, duration, requests, headers });
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
}

async function setIndexes(url: string, on: boolean): Promise<void> {
  const { site } = await openSite(benchConfig(benchTarget(url)), { logger: memoryLogger() });
  try {
    if (on) await addIndexes(site.db);
    else await removeIndexes(site.db);
  } finally {
    await site.db.close();
  }
}

function start(name: string, args: string[], env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/listening|Serving|http:\/\/127\.0\.0\.1:\d+/i.test(output)) resolve(child);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before listening:\n${output}`)));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function report(results: Result[]): void {
  const baseline = results[0]?.rps ?? 0;
  const rows = results.map((r) => [r.name, r.rps.toFixed(0), `${r.p50} ms`, `${r.p99} ms`, baseline ? `${((r.rps / baseline) * 100).toFixed(1)}%` : '', String(r.errors + r.non2xx)]);
  const head = ['run', 'req/s', 'p50', 'p99', 'of bare Express', 'errors/non-2xx'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const fmt = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] as number)).join('  ');
  process.stdout.write(`\n${fmt(head)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n${rows.map(fmt).join('\n')}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
