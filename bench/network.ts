/**
 * The network part of `npm run bench` (issue 32): one process serving a whole WordPress network
 * (`serve` with MULTISITE on and no WP_BLOG_ID) against one process serving one site (WP_BLOG_ID).
 *
 *   npm run bench -- --suite=network [--sites=50] [--site-tickets=1000] [--connections=16] [--duration=10]
 *   BENCH_MYSQL_URL as for the other suites; the network is made in `<database>_network` (bench/network-fixture.ts)
 *
 * Throughput (a table like the other suites'): the ticket list (statuses and priority=high, pages 1-5)
 * and a light route (`wp/v2/users/me`), each rotating over every site's address (Host header and
 * `/siteN/` path, a different site each request) and on one site (blog 2) of the same process; the
 * rotation again with NETWORK_MAX_OPEN_SITES below the number of sites (every request may open a
 * site); the same two routes on a process serving blog 2 alone.
 *
 * Memory (a table of its own, printed first): resident memory, heap and memory outside it after full
 * collections (through the server's inspector, bench/inspector.ts) of the single-site process and of
 * the network process with its main site only, then 10, 25 and every site opened by one request each
 * and their desks' background loads done (idle sites), then after the ticket rotation over every site
 * (busy sites), and of a process whose sites are let go after NETWORK_SITE_IDLE_SECONDS=5; and what
 * a site's first request costs (opening it: migrations checked, its app, job worker and desk made)
 * against its second.
 */
import { ChildProcess } from 'node:child_process';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { AGENT_APP_PASSWORD, AGENT_LOGIN, SALTS, benchDatabaseUrl } from './fixture';
import { BenchRequest, MeasureOptions, Result, cpuTimeMs, cpuTimeSince, freePort, log, measure, startServer, stop, untilReady } from './harness';
import { HeldMemory, heldMemory } from './inspector';
import { NETWORK_DOMAIN, prepareNetwork, sitePath } from './network-fixture';

const AUTH = `Basic ${Buffer.from(`${AGENT_LOGIN}:${AGENT_APP_PASSWORD}`).toString('base64')}`;
const HEADERS = { authorization: AUTH, host: NETWORK_DOMAIN };
/** The site measured alone (in the network process and in a process of its own). */
const ONE_SITE = 2;

interface Served {
  child: ChildProcess;
  base: string;
  inspectorPort: number;
  events: ServerEvents;
}

export async function networkSuite(args: Record<string, string>, connections: number, duration: number): Promise<Result[]> {
  const url = benchDatabaseUrl('network');
  const sites = Number(args.sites ?? 50);
  const tickets = Number(args['site-tickets'] ?? 1000);
  const madeMs = await prepareNetwork(url, sites, tickets, log);
  log(`network of ${sites} sites, ${tickets} tickets each${madeMs ? ` (made in ${(madeMs / 1000).toFixed(0)} s)` : ''}`);
  const memory: MemoryRow[] = [];
  const results: Result[] = [];
  const run = { connections, duration };
  await withServer(url, { WP_BLOG_ID: String(ONE_SITE) }, async (single) => {
    await single.events.loaded(ONE_SITE);
    memory.push({ name: `single-site process (WP_BLOG_ID=${ONE_SITE}), desk loaded`, held: await heldMemory(single.inspectorPort) });
    results.push(await measured(`one site alone (WP_BLOG_ID=${ONE_SITE}): GET /tickets`, { ...run, url: single.base, server: single.child, requests: ticketRequests([ONE_SITE], false), headers: HEADERS }));
    results.push(await measured(`one site alone (WP_BLOG_ID=${ONE_SITE}): GET users/me`, { ...run, url: single.base, server: single.child, requests: meRequests([ONE_SITE], false), headers: HEADERS }));
    memory.push({ name: 'single-site process after its two runs', held: await heldMemory(single.inspectorPort) });
  });
  await withServer(url, {}, async (net) => {
    const first = await openOneByOne(net, sites, memory);
    const all = blogIds(sites);
    results.push(await measured(`network, GET /tickets rotating over ${sites} sites`, { ...run, url: net.base, server: net.child, requests: ticketRequests(all, true), headers: HEADERS }));
    const busy = await heldMemory(net.inspectorPort);
    memory.push({ name: `network process, ${sites} sites after the ticket rotation over all (busy)`, held: busy, perSite: perSite(busy, memory[memory.length - 1]?.held, sites) });
    results.push(await measured(`network, GET /tickets on one site (blog ${ONE_SITE})`, { ...run, url: net.base, server: net.child, requests: ticketRequests([ONE_SITE], true), headers: HEADERS }));
    results.push(await measured(`network, GET users/me rotating over ${sites} sites`, { ...run, url: net.base, server: net.child, requests: meRequests(all, true), headers: HEADERS }));
    results.push(await measured(`network, GET users/me on one site (blog ${ONE_SITE})`, { ...run, url: net.base, server: net.child, requests: meRequests([ONE_SITE], true), headers: HEADERS }));
    log(`first request of a site (users/me, ${first.firsts.length} sites): p50 ${pct(first.firsts, 50)} ms, max ${pct(first.firsts, 100)} ms; `
      + `its second: p50 ${pct(first.seconds, 50)} ms; ticket list index loaded in p50 ${pct(first.loads, 50)} ms, max ${pct(first.loads, 100)} ms`);
    memory.push({ name: `first request of a site (users/me) p50/max: ${pct(first.firsts, 50)}/${pct(first.firsts, 100)} ms; its second p50 ${pct(first.seconds, 50)} ms; `
      + `its ticket list index loaded in p50/max ${pct(first.loads, 50)}/${pct(first.loads, 100)} ms` });
  });
  const bound = Math.max(2, Math.floor(sites / 5));
  await withServer(url, { NETWORK_MAX_OPEN_SITES: String(bound) }, async (net) => {
    const result = await measured(`network, NETWORK_MAX_OPEN_SITES=${bound}, GET /tickets rotating over ${sites} sites`, {
      ...run, url: net.base, server: net.child, requests: ticketRequests(blogIds(sites), true), headers: HEADERS,
    });
    results.push({ ...result, note: `${result.note}; ${net.events.opens} sites opened, ${net.events.letGo} let go` });
  });
  await withServer(url, { NETWORK_SITE_IDLE_SECONDS: '5' }, (net) => letGo(net, sites, run, memory));
  printMemory(memory);
  return results;
}

/** A process of the built server on the network's database (`env` adds to the network's), with its inspector. */
async function withServer(url: string, env: Record<string, string>, work: (served: Served) => Promise<void>): Promise<void> {
  const port = await freePort();
  const inspectorPort = await freePort();
  const child = await startServer(['serve'], {
    DATABASE_URL: url, ...SALTS, WP_ENVIRONMENT_TYPE: 'local', PORT: String(port), UNDERSTUDY_DATA_DIR: '/tmp/understudy-bench-network',
    MULTISITE: '1', DOMAIN_CURRENT_SITE: NETWORK_DOMAIN, PATH_CURRENT_SITE: '/', LOG_FORMAT: 'json', ...env,
  }, { nodeArgs: [`--inspect=127.0.0.1:${inspectorPort}`] });
  try {
    const events = watchEvents(child, Number(env.WP_BLOG_ID ?? 1));
    const base = `http://127.0.0.1:${port}`;
    await untilReady(base);
    await work({ child, base, inspectorPort, events });
  } finally {
    await stop(child);
  }
}

/** What the server's log says about its sites: opened, let go, and each desk's background loads. */
interface ServerEvents {
  opens: number;
  letGo: number;
  /** Milliseconds the ticket list index took to load, by blog. */
  ticketLoads: Map<number, number>;
  /**
   * Resolves once blog `blogId`'s desk has loaded both its indexes, or after 10 s (the main site's may
   * load before the server says it listens, when its output is not watched yet).
   */
  loaded(blogId: number): Promise<void>;
}

/** `ownBlog`: the blog of lines that name none (a process serving one site logs no blog_id). */
function watchEvents(child: ChildProcess, ownBlog: number): ServerEvents {
  const loads = new Map<number, number>();
  const waiting: Array<{ blogId: number; resolve: () => void }> = [];
  const events: ServerEvents = {
    opens: 0, letGo: 0, ticketLoads: new Map(),
    loaded: (blogId) => new Promise((resolve) => {
      if ((loads.get(blogId) ?? 0) >= 2) return resolve();
      waiting.push({ blogId, resolve });
      setTimeout(resolve, 10_000).unref();
    }),
  };
  let partial = '';
  const onLine = (line: string) => {
    if (!line.startsWith('{')) return;
    const entry = JSON.parse(line) as { msg?: string; blog_id?: number; cache?: string; ms?: number };
    if (entry.msg === 'network: a site is open') events.opens += 1;
    if (entry.msg === 'network: an idle site is let go') events.letGo += 1;
    if (entry.msg !== 'support desk: a cache has loaded') return;
    const blogId = entry.blog_id ?? ownBlog;
    if (entry.cache === 'ticket lists') events.ticketLoads.set(blogId, entry.ms ?? 0);
    loads.set(blogId, (loads.get(blogId) ?? 0) + 1);
    for (const wait of waiting.filter((w) => (loads.get(w.blogId) ?? 0) >= 2)) {
      waiting.splice(waiting.indexOf(wait), 1);
      wait.resolve();
    }
  };
  const onData = (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    lines.forEach(onLine);
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  return events;
}

interface MemoryRow {
  name: string;
  held?: HeldMemory;
  /** What each site added to the row before, in MB. */
  perSite?: HeldMemory;
}

/**
 * Opens the sites one at a time (one users/me each), the memory after full collections with the main
 * site alone and at 10, 25 and all sites open once their desks have loaded; each site's first and
 * second request and its ticket index's load time.
 */
async function openOneByOne(net: Served, sites: number, memory: MemoryRow[]): Promise<{ firsts: number[]; seconds: number[]; loads: number[] }> {
  await net.events.loaded(1);
  let before = await heldMemory(net.inspectorPort);
  let openBefore = 1;
  memory.push({ name: `network process, main site only; idle, its CPU ${await idleCpu(net.child)} ms a second`, held: before });
  const firsts: number[] = [];
  const seconds: number[] = [];
  for (let blogId = 2; blogId <= sites; blogId++) {
    firsts.push(await timedMe(net.base, blogId));
    seconds.push(await timedMe(net.base, blogId));
    if (![10, 25, sites].includes(blogId)) continue;
    await Promise.all(blogIds(blogId).slice(1).map((id) => net.events.loaded(id)));
    const held = await heldMemory(net.inspectorPort);
    const cpu = blogId === sites ? `; idle, its CPU ${await idleCpu(net.child)} ms a second` : '';
    memory.push({ name: `network process, ${blogId} sites open, idle (one request each, desks loaded)${cpu}`, held, perSite: perSite(held, before, blogId - openBefore) });
    before = held;
    openBefore = blogId;
  }
  const loads = blogIds(sites).filter((id) => id !== 1).map((id) => net.events.ticketLoads.get(id) ?? NaN);
  return { firsts, seconds, loads };
}

/** A process letting sites go after 5 idle seconds: every site busy for a moment, then after they are let go. */
async function letGo(net: Served, sites: number, run: { connections: number; duration: number }, memory: MemoryRow[]): Promise<void> {
  await net.events.loaded(1);
  const alone = await heldMemory(net.inspectorPort);
  memory.push({ name: 'NETWORK_SITE_IDLE_SECONDS=5: main site only', held: alone });
  await measure('every site opened', { ...run, duration: Math.min(run.duration, 5), url: net.base, requests: ticketRequests(blogIds(sites), true), headers: HEADERS, cold: true });
  await Promise.all(blogIds(sites).slice(1).map((id) => net.events.loaded(id)));
  memory.push({ name: `NETWORK_SITE_IDLE_SECONDS=5: ${sites} sites just used`, held: await heldMemory(net.inspectorPort) });
  const started = performance.now();
  while (net.events.letGo < sites - 1 && performance.now() - started < 60_000) await new Promise((resolve) => setTimeout(resolve, 250));
  const after = await heldMemory(net.inspectorPort);
  memory.push({ name: `NETWORK_SITE_IDLE_SECONDS=5: ${net.events.letGo} let go after ${((performance.now() - started) / 1000).toFixed(0)} s`, held: after });
}

/** The CPU a process spends with no request, in ms a second over 10 s (each open site's job worker looks for due jobs every second). */
async function idleCpu(server: ChildProcess): Promise<string> {
  const before = cpuTimeMs(server.pid);
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  const spent = cpuTimeSince(server.pid, before);
  return spent === undefined ? '?' : (spent / 10).toFixed(1);
}

/** users/me on blog `blogId`, as its visitors address it; how long the answer took, in ms. */
function timedMe(base: string, blogId: number): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${sitePath(blogId)}wp-json/wp/v2/users/me`, { headers: HEADERS, agent: false }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`users/me on blog ${blogId}: ${res.statusCode}`))));
    });
    req.on('error', reject);
  });
}

/**
 * measure() with the server's CPU time a request (from /proc) as the note: on a shared machine the
 * requests a second follow the other work on it, the CPU a request much less.
 */
async function measured(name: string, o: MeasureOptions & { server: ChildProcess }): Promise<Result> {
  log(`${name}: warming up…`);
  await measure(name, { ...o, duration: 2, cold: true });
  const before = cpuTimeMs(o.server.pid);
  const result = await measure(name, { ...o, cold: true });
  const cpu = cpuTimeSince(o.server.pid, before);
  const answered = result.ok + result.non2xx;
  return { ...result, note: cpu === undefined || !answered ? '' : `server CPU ${((cpu / answered) * 1000).toFixed(0)} µs a request` };
}

function blogIds(sites: number): number[] {
  return Array.from({ length: sites }, (_, i) => i + 1);
}

/** Each request for the next site in turn: every status and priority=high, pages 1-5 (bench/tickets.ts's rotation). */
function ticketRequests(blogs: number[], network: boolean): BenchRequest[] {
  const filters = ['status=open', 'status=waiting', 'status=resolved', 'priority=high'];
  const requests: BenchRequest[] = [];
  for (let page = 1; page <= 5; page++) {
    for (const filter of filters) {
      for (const blogId of blogs) requests.push({ path: `${network ? sitePath(blogId) : '/'}wp-json/support/v1/tickets?${filter}&page=${page}` });
    }
  }
  return requests;
}

function meRequests(blogs: number[], network: boolean): BenchRequest[] {
  return blogs.map((blogId) => ({ path: `${network ? sitePath(blogId) : '/'}wp-json/wp/v2/users/me` }));
}

function perSite(now: HeldMemory, before: HeldMemory | undefined, sites: number): HeldMemory | undefined {
  if (!before) return undefined;
  const each = (key: keyof HeldMemory) => Math.round(((now[key] - before[key]) / sites) * 100) / 100;
  return { rssMb: each('rssMb'), heapMb: each('heapMb'), externalMb: each('externalMb') };
}

function pct(values: number[], p: number): string {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
  if (!sorted.length) return '?';
  return (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number).toFixed(0);
}

function printMemory(rows: MemoryRow[]): void {
  const lines = rows.map((r) => {
    if (!r.held) return `  ${r.name}`;
    const each = r.perSite ? `; each site +${r.perSite.rssMb} MB RSS, +${r.perSite.heapMb} MB heap, +${r.perSite.externalMb} MB external` : '';
    return `  ${r.name}: RSS ${r.held.rssMb} MB, heap ${r.held.heapMb} MB + ${r.held.externalMb} MB external${each}`;
  });
  process.stdout.write(`\nnetwork memory after full collections\n\n${lines.join('\n')}\n`);
}
