/**
 * What the desk's in-memory indexes hold (docs/performance.md, "Memory of a serving process"): the
 * databases of the docs and tickets suites opened in this process, each part built in turn, the
 * heap measured after a full collection before and after it (V8's heap, and the typed arrays'
 * memory outside it); then a heap snapshot of each, summarised by bench/heap-summary.ts.
 *
 *   npx tsx bench/heap.ts [--suite=docs,tickets] [--docs=10000] [--tickets=100000] [--distinct=3000] [--snapshots=/tmp]
 *   (BENCH_MYSQL_URL as for `npm run bench`; the suites' databases are made if missing)
 *
 * docs: the docs search index; its kept answers after the bench's 33 queries and --distinct other
 * ones (a search box sees many queries); the chat assistant's passages.
 * tickets: the ticket list index, then its kept filter results and pages after the bench's rotation.
 */
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { openSite } from '../lib/boot';
import { memoryLogger } from '../lib/logger';
import { retrieveSources } from '../lib/support/chat/retrieval';
import { deskOf } from '../lib/support/desk';
import { rankDocs } from '../lib/support/docs/search';
import { DocIndex, docSearchIndex } from '../lib/support/docs/search-index';
import { LiveTicketList } from '../lib/support/tickets/list-live';
import { TicketFilter } from '../lib/support/tickets/list-query';
import { BENCH_QUERIES, prepareDocs } from './docs';
import { benchArgs, log } from './harness';
import { benchConfig, benchDatabaseUrl, benchTarget, prepareSite } from './fixture';
import { summarise } from './heap-summary';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

interface Held {
  heap: number;
  external: number;
}

/** Live memory after full collections: V8's heap, and ArrayBuffers' memory outside it. */
function held(): Held {
  for (let i = 0; i < 3; i++) gc();
  return { heap: v8.getHeapStatistics().used_heap_size, external: process.memoryUsage().arrayBuffers };
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** Runs `build`, and logs what it added to the heap. */
async function part(name: string, build: () => Promise<unknown>): Promise<void> {
  const before = held();
  await build();
  const after = held();
  log(`  ${name}: +${mb(after.heap - before.heap)} MB heap, +${mb(after.external - before.external)} MB outside it (RSS now ${mb(process.memoryUsage().rss)} MB)`);
}

function snapshot(dir: string | undefined, name: string, classes: string[]): void {
  if (!dir) return;
  const file = path.join(dir, `understudy-${name}-${process.pid}.heapsnapshot`);
  v8.writeHeapSnapshot(file);
  log(summarise(file, classes));
  fs.rmSync(file);
}

async function docsParts(args: Record<string, string>): Promise<void> {
  const url = benchDatabaseUrl('docs');
  const { count } = await prepareDocs(url, Number(args.docs ?? 10_000));
  const { site } = await openSite(benchConfig(benchTarget(url)), { logger: memoryLogger() });
  try {
    log(`docs: ${count} published docs`);
    const index = deskOf(site).get(docSearchIndex);
    await part('docs search index', () => index.ready());
    await part(`kept answers of the ${BENCH_QUERIES.length} bench queries`, async () => {
      for (const q of BENCH_QUERIES) await rankDocs(index, new URLSearchParams(q).get('q') ?? '', null);
    });
    const distinct = Number(args.distinct ?? 3000);
    await part(`kept answers of ${distinct} distinct two-word queries`, async () => {
      const words = distinctWords(index, 200);
      for (let i = 0; i < distinct; i++) await rankDocs(index, `${words[i % words.length]} ${words[Math.floor(i / words.length) % words.length]}`, null);
    });
    await part('chat passages', () => retrieveSources(site, 'how do I reset my password'));
    snapshot(args.snapshots, 'docs', ['DocIndex', 'DocEngine', 'PassageIndex', 'MiniSearch']);
  } finally {
    await site.close();
  }
}

/** Some words of the docs' titles (any will do: the answers are what is measured). */
function distinctWords(index: DocIndex, n: number): string[] {
  const words = new Set<string>();
  for (const doc of index.allDocs()) {
    for (const word of doc.title.toLowerCase().split(' ')) if (word.length > 3) words.add(word);
    if (words.size >= n) break;
  }
  return [...words];
}

async function ticketParts(args: Record<string, string>): Promise<void> {
  const url = benchDatabaseUrl();
  const count = await prepareSite(url, Number(args.tickets ?? 100_000), log);
  const { site } = await openSite(benchConfig(benchTarget(url)), { logger: memoryLogger() });
  try {
    log(`tickets: ${count} tickets`);
    const live = new LiveTicketList(site);
    await part('ticket list index', () => live.fresh());
    await part('kept filter results and pages of the bench rotation', () => rotation(live));
    snapshot(args.snapshots, 'tickets', ['TicketListIndex', 'LiveTicketList', 'Columns']);
  } finally {
    await site.close();
  }
}

/** The tickets suite's rotation, as an agent (bench/tickets.ts): statuses and priority=high, pages 1-5. */
async function rotation(live: LiveTicketList): Promise<void> {
  const viewer = { userId: 1, email: 'bench-agent@example.test', agent: true };
  const base = { viewer, searchInternalNotes: true };
  const filters: TicketFilter[] = [
    { ...base, status: 'open' }, { ...base, status: 'waiting' }, { ...base, status: 'resolved' }, { ...base, priority: 'high' },
  ];
  for (const filter of filters) {
    const matches = (await live.fresh()).matches(filter);
    for (let page = 0; page < 5; page++) await live.ticketsOf(Array.from(matches.subarray(page * 20, page * 20 + 20)));
  }
}

async function main(): Promise<void> {
  const args = benchArgs();
  const suites = (args.suite ?? 'docs,tickets').split(',');
  log(`start: RSS ${mb(process.memoryUsage().rss)} MB`);
  if (suites.includes('docs')) await docsParts(args);
  if (suites.includes('tickets')) await ticketParts(args);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
