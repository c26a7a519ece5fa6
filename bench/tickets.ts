/**
 * The ticket-list part of `npm run bench`: requests per second, p50/p99 latency and the server's
 * memory for GET /support/v1/tickets on MariaDB with many tickets, as an agent signed in with an
 * application password, rotating over the statuses, pages 1-5 and priority=high; with and without the
 * svc_* indexes; read-only, and with --writes=N also while an agent changes N tickets a second (GET
 * then PATCH, over HTTP), as on a desk that is being worked. Each mode starts a server and first
 * measures its first 10 s from the moment it says it is ready, while its ticket index loads.
 *
 *   npm run bench -- [--tickets=100000] [--connections=16] [--duration=10] [--indexes=both|on|off] [--writes=<per second>]
 *                    [--buffer-pool=<MB>]
 *   BENCH_MYSQL_URL=mysql://root@127.0.0.1:3306/understudy_bench (default)
 *
 * Without the indexes each catch-up scans posts, so whether MariaDB's buffer pool holds the tables
 * decides its cost (docs/performance.md); the suite prints both sizes. --buffer-pool sets
 * innodb_buffer_pool_size (a global of the server, resized online) for the suite and sets it back after.
 */
import { openSite } from '../lib/boot';
import { memoryLogger } from '../lib/logger';
import { addIndexes, removeIndexes } from '../lib/support/db-indexes';
import { AGENT_APP_PASSWORD, AGENT_LOGIN, SALTS, adminQuery, benchConfig, benchDatabaseUrl, benchTarget, prepareSite } from './fixture';
import { ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { Result, freePort, log, loggedAfter, measure, rssMb, startServer, stop, untilReady, whenLogged } from './harness';

export async function ticketsSuite(args: Record<string, string>, connections: number, duration: number): Promise<Result[]> {
  const url = benchDatabaseUrl();
  const tickets = Number(args.tickets ?? 100_000);
  const modes = args.indexes === 'on' ? ['on'] : args.indexes === 'off' ? ['off'] : ['on', 'off'];
  const writes = Number(args.writes ?? 0);
  const count = await prepareSite(url, tickets, log);
  log(`${count} tickets in ${benchTarget(url).database}; ${connections} connections, ${duration} s per run`);
  const restorePool = args['buffer-pool'] ? await setBufferPool(url, Number(args['buffer-pool'])) : null;
  try {
    await logBufferPool(url);
    const results: Result[] = [];
    for (const mode of modes) {
      await setIndexes(url, mode === 'on');
      results.push(...await measureList(url, mode, writes, connections, duration));
    }
    return results;
  } finally {
    await restorePool?.();
  }
}

/** Sets innodb_buffer_pool_size to `mb`; returns what sets it back. */
async function setBufferPool(url: string, mb: number): Promise<() => Promise<void>> {
  const size = await adminQuery(benchTarget(url), 'SELECT @@innodb_buffer_pool_size');
  await adminQuery(benchTarget(url), `SET GLOBAL innodb_buffer_pool_size = ${Math.round(mb) * 1024 * 1024}`);
  return async () => void (await adminQuery(benchTarget(url), `SET GLOBAL innodb_buffer_pool_size = ${Number(size)}`));
}

async function logBufferPool(url: string): Promise<void> {
  const pool = await adminQuery(benchTarget(url), 'SELECT @@innodb_buffer_pool_size');
  const tables = await adminQuery(benchTarget(url), `SELECT SUM(data_length + index_length) FROM information_schema.TABLES WHERE table_schema = '${benchTarget(url).database}' AND table_name IN ('wp_posts', 'wp_postmeta')`);
  log(`MariaDB buffer pool ${mb(pool)} MB; posts and postmeta ${mb(tables)} MB`);
}

function mb(bytes: unknown): number {
  return Math.round(Number(bytes) / 1024 / 1024);
}

/**
 * The lists of a server just started, from the moment it says it is ready (`/-/health/ready` 200),
 * for FIRST_SECONDS without a warm-up: what a balancer sends visitors into after a deploy, while the
 * ticket index loads in the background.
 */
const FIRST_SECONDS = 10;

/** A server started for each mode, so that every run starts from a cold index: its first seconds, then the runs. */
async function measureList(url: string, mode: string, writes: number, connections: number, duration: number): Promise<Result[]> {
  const port = await freePort();
  const env = { DATABASE_URL: url, ...SALTS, WP_ENVIRONMENT_TYPE: 'local', PORT: String(port), UNDERSTUDY_DATA_DIR: '/tmp/understudy-bench' };
  const server = await startServer(['serve'], env);
  try {
    const auth = `Basic ${Buffer.from(`${AGENT_LOGIN}:${AGENT_APP_PASSWORD}`).toString('base64')}`;
    const base = `http://127.0.0.1:${port}`;
    const loaded = whenLogged(server, /^(?=.*a cache has loaded)(?=.*ticket lists)/);
    await untilReady(base);
    const ready = performance.now();
    const first = await measure(`Understudy GET /tickets, svc_* indexes ${mode}, the first ${FIRST_SECONDS} s after ready`, {
      url: base, requests: ticketRequests(), headers: { authorization: auth }, connections, duration: FIRST_SECONDS, server, cold: true,
    });
    log(`  ticket index loaded ${loggedAfter(loaded, ready)}; server RSS ${rssMb(server)} MB`);
    const results = [first];
    for (const perSecond of writes > 0 ? [0, writes] : [0]) results.push(await measureWarm(base, auth, mode, perSecond, connections, duration, server));
    return results;
  } finally {
    await stop(server);
  }
}

/** A run on a server whose index has loaded: read-only, or beside an agent changing `writes` tickets a second. */
async function measureWarm(base: string, auth: string, mode: string, writes: number, connections: number, duration: number, server: ChildProcess): Promise<Result> {
  const writer = writes > 0 ? startWriter(base, auth, writes) : null;
  try {
    const name = `Understudy GET /tickets, svc_* indexes ${mode}, ${writes ? `${writes} writes/s` : 'read-only'}`;
    return await measure(name, { url: base, requests: ticketRequests(), headers: { authorization: auth }, connections, duration, server });
  } finally {
    if (writer) log(`  ${await writer.stop()} ticket changes made during the run`);
  }
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

async function setIndexes(url: string, on: boolean): Promise<void> {
  const { site } = await openSite(benchConfig(benchTarget(url)), { logger: memoryLogger() });
  try {
    if (on) await addIndexes(site.db);
    else await removeIndexes(site.db);
  } finally {
    await site.close();
  }
}
