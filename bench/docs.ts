/**
 * The docs-search part of `npm run bench`: requests per second and p50/p99 latency of GET
 * /support/v1/docs/search over 10,000 published docs on MariaDB, rotating over queries with typos,
 * prefixes, phrases and collection and site filters, next to a bare Express route measured in the same
 * run. Understudy and the baseline each run in their own process; autocannon runs here.
 *
 *   tsx bench/docs.ts [--docs=10000] [--connections=16] [--duration=10]
 *   (npm run bench runs it with these defaults; BENCH_DOCS, BENCH_CONNECTIONS, BENCH_DURATION change them)
 *   BENCH_MYSQL_URL=mysql://root@127.0.0.1:3306/understudy_bench (default; the docs live in <database>_docs)
 */
import { ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import autocannon from 'autocannon';
import mysql from 'mysql2/promise';
import { openSite } from '../lib/boot';
import { memoryLogger } from '../lib/logger';
import { DOC_POST_TYPE, NewDoc, insertDocs } from '../lib/support/docs/store';
import { createConnectedSite } from '../lib/support/sites/admin';
import { listSites } from '../lib/support/sites/store';
import { Site } from '../lib/wp/site';
import { SALTS, benchConfig, benchTarget } from './fixture';

const ROOT = path.resolve(__dirname, '..');
const COLLECTIONS = Array.from({ length: 20 }, (_, i) => `collection-${i + 1}`);

interface Result { name: string; rps: number; p50: number; p99: number; errors: number; non2xx: number }

async function main(): Promise<void> {
  const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
  const docs = Number(args.docs ?? process.env.BENCH_DOCS ?? 10_000);
  const connections = Number(args.connections ?? process.env.BENCH_CONNECTIONS ?? 16);
  const duration = Number(args.duration ?? process.env.BENCH_DURATION ?? 10);
  const base = new URL(process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/understudy_bench');
  base.pathname = `${base.pathname.replace(/\/$/, '')}_docs`;
  const url = base.toString();
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const { count, siteId } = await prepareDocs(url, docs, log);
  log(`${count} published docs in ${benchTarget(url).database}; ${connections} connections, ${duration} s per run`);

  const results: Result[] = [];
  const barePort = await freePort();
  const bare = await start('bare Express', [path.join(ROOT, 'bench/bare-express.ts')], { PORT: String(barePort) });
  try {
    results.push(await measure('bare Express GET /hello', `http://127.0.0.1:${barePort}`, [{ path: '/hello' }], connections, duration));
  } finally {
    bare.kill('SIGTERM');
  }
  const port = await freePort();
  const env = { DATABASE_URL: url, ...SALTS, WP_ENVIRONMENT_TYPE: 'local', PORT: String(port), UNDERSTUDY_DATA_DIR: '/tmp/understudy-bench' };
  const server = await start('Understudy', [path.join(ROOT, 'bin/understudy.ts'), 'serve'], env);
  try {
    const origin = `http://127.0.0.1:${port}`;
    const started = Date.now();
    // The first search builds the index (reads every doc once); the runs measure searches after that.
    const first = await fetch(`${origin}/wp-json/support/v1/docs/search?q=password`);
    if (!first.ok) throw new Error(`first search answered ${first.status}: ${await first.text()}`);
    log(`  index built by the first search in ${Date.now() - started} ms`);
    results.push(await measure(`Understudy GET /docs/search, ${count} docs`, origin, searchRequests(siteId), connections, duration));
  } finally {
    server.kill('SIGTERM');
  }
  report(results);
}

/** The rotation: whole words, prefixes, typos, phrases, a collection, a connected site. */
function searchRequests(siteId: string): Array<{ path: string }> {
  const queries = [
    'q=password', 'q=pasword', 'q=reset%20password', 'q=pasword%20reset', 'q=instal', 'q=installing%20the%20plugin',
    'q=invoice', 'q=invoise', 'q=refund%20policy', 'q=refnud', 'q=notif', 'q=notifications', 'q=two%20factor',
    'q=authentication', 'q=authenticaton', 'q=webhook&collection=collection-3', 'q=export%20csv', 'q=exprt',
    'q=mailbox&collection=collection-7', 'q=slack', 'q=slak', 'q=subscription%20cancel', 'q=subscripton',
    'q=billing&site=' + siteId, 'q=widget%20not%20showing', 'q=widjet', 'q=timezone', 'q=time%20zone',
    'q=api%20rate%20limits', 'q=ratelimit', 'q=integration&site=' + siteId, 'q=customer%20portal', 'q=portl',
  ];
  return queries.map((q) => ({ path: `/wp-json/support/v1/docs/search?${q}` }));
}

/** Creates the database, the docs that are missing and a connected site showing 5 collections. */
async function prepareDocs(url: string, docs: number, log: (line: string) => void): Promise<{ count: number; siteId: string }> {
  const target = benchTarget(url);
  const admin = await mysql.createConnection({ host: target.host, port: target.port, user: target.user, password: target.password });
  await admin.query(`CREATE DATABASE IF NOT EXISTS \`${target.database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_520_ci`);
  await admin.end();
  const { site } = await openSite(benchConfig(target), { logger: memoryLogger() });
  try {
    const existing = await docCount(site);
    if (existing < docs) {
      log(`writing ${docs - existing} docs (once; later runs reuse them)…`);
      for (let n = existing; n < docs; n += 500) await insertDocs(site, Array.from({ length: Math.min(500, docs - n) }, (_, i) => syntheticDoc(n + i)));
    }
    const sites = await listSites(site.db);
    const siteId = sites[0]?.siteId ?? (await createConnectedSite(site, { name: 'Bench shop', docCollections: COLLECTIONS.slice(0, 5) })).site.siteId;
    return { count: await docCount(site), siteId };
  } finally {
    await site.db.close();
  }
}

async function docCount(site: Site): Promise<number> {
  const row = await site.db.knex(site.db.tables.posts).where({ post_type: DOC_POST_TYPE, post_status: 'publish' }).count({ n: '*' }).first();
  return Number((row as { n: number }).n);
}

/** The words every text is full of; queries leave them out, as the search does. */
const FUNCTION_WORDS = (
  'the to and a of you your in is for it on that this with be can are from or as if an at by not will when ' +
  'then after before all any each more only also into out up'
).split(' ');
/** Help-center words, each used by a few percent of docs. */
const WORDS = (
  'account password reset email address invoice billing refund policy subscription cancel plan upgrade downgrade ' +
  'install installing plugin theme widget portal customer agent ticket reply mailbox notification notifications ' +
  'two factor authentication security export csv report dashboard integration slack webhook api rate limits ' +
  'timezone time zone sign in login logout profile language team invite role permission settings attachment ' +
  'upload download mobile app android iphone error update cache performance backup restore import migrate'
).split(' ');
const SYLLABLES = 'ka lo mi ne ru ta shi ven dor pel quin sar tov bri cal dun fen gor hal jis'.split(' ');

/**
 * The word of rank `n` (1 is the most used): function words first, then help-center words among
 * made-up ones, so the vocabulary is as large as a real 10,000-doc help center's (about 20,000 words).
 */
function syntheticWord(n: number): string {
  if (n <= FUNCTION_WORDS.length) return FUNCTION_WORDS[n - 1] as string;
  if (n % 5 === 0 && n < 5 * WORDS.length + 100) return WORDS[Math.floor(n / 5) % WORDS.length] as string;
  let word = '';
  for (let x = n; word.length < 4 || x > 0; x = Math.floor(x / SYLLABLES.length)) word += SYLLABLES[x % SYLLABLES.length];
  return word;
}

/** A doc of 6 title words and about 150 body words, deterministic per number (a Zipf-like mix of common and rare words). */
function syntheticDoc(n: number): NewDoc {
  let seed = (n + 1) * 2654435761;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const word = () => syntheticWord(Math.floor(30_000 ** next()));
  const title = Array.from({ length: 6 }, word).join(' ');
  const paragraphs = Array.from({ length: 5 }, () => `<!-- wp:paragraph --><p>${Array.from({ length: 30 }, word).join(' ')}.</p><!-- /wp:paragraph -->`);
  return { slug: `bench-doc-${n}`, title: title.replace(/^./, (c) => c.toUpperCase()), content: paragraphs.join('\n'), collections: [COLLECTIONS[n % COLLECTIONS.length] as string] };
}

async function measure(name: string, url: string, requests: Array<{ path: string }>, connections: number, duration: number): Promise<Result> {
  process.stderr.write(`${name}: warming up…\n`);
  await autocannon({ url, connections, duration: 2, requests });
  process.stderr.write(`${name}: measuring…\n`);
  const r = await autocannon({ url, connections, duration, requests });
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
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
