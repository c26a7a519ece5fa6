/**
 * `npm run bench`: builds the server, then measures each suite against the bare Express route on the
 * same machine in the same run (docs/performance.md records the figures), each with the server's
 * resident memory after the run and at its highest, its heap, and the machine's load average.
 *
 *   npm run bench -- [--suite=docs,tickets,mail,record,writes,chat,network] [--connections=16] [--duration=10] [suite options]
 *   docs:    10,000 published docs, a rotation of searches (typos, prefixes, filters)  (bench/docs.ts)
 *   tickets: --tickets=100000 --indexes=both|on|off --writes=<per second> --buffer-pool=<MB>   (bench/tickets.ts)
 *   mail:    --indexes=on|off; signed ~20 KB relay messages, every 202 checked stored   (bench/mail.ts)
 *   record:  client p99 through the proxy with --record off and on           (bench/record.ts)
 *   writes:  --tickets=5000 --caches=redis,memcached; PATCH /tickets/<id> beside no cache, Redis, memcached (bench/writes.ts)
 *   chat:    --streams=100,500,2000 --php-workers=10 --php=on|off; streamed answers through Understudy and PHP-FPM (bench/chat.ts)
 *   network: --sites=50 --site-tickets=1000; one process serving a network against one serving a site (bench/network.ts)
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { ROOT, Result, benchArgs, log, measureBareExpress, report } from './harness';
import { chatSuite } from './chat';
import { mailSuite } from './mail';
import { networkSuite } from './network';
import { docsSuite } from './docs';
import { recordSuite } from './record';
import { ticketsSuite } from './tickets';
import { writesSuite } from './writes';

const SUITES: Record<string, (args: Record<string, string>, connections: number, duration: number) => Promise<Result[]>> = {
  docs: docsSuite,
  tickets: ticketsSuite,
  mail: mailSuite,
  record: (_args, connections, duration) => recordSuite(connections, duration),
  writes: writesSuite,
  chat: (args) => chatSuite(args),
  network: networkSuite,
};

async function main(): Promise<void> {
  const args = benchArgs();
  const suites = (args.suite ?? Object.keys(SUITES).join(',')).split(',');
  const unknown = suites.filter((s) => !SUITES[s]);
  if (unknown.length) throw new Error(`unknown suite ${unknown.join(', ')}: choose from ${Object.keys(SUITES).join(', ')}`);
  const connections = Number(args.connections ?? 16);
  const duration = Number(args.duration ?? 10);
  log('building the server (npm run build)…');
  execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'inherit' });
  for (const suite of suites) {
    // The machine may be shared: its load before and after says how far the figures can be trusted.
    const loadBefore = os.loadavg()[0] as number;
    const results = [await measureBareExpress(connections, duration), ...(await (SUITES[suite] as (typeof SUITES)[string])(args, connections, duration))];
    const load = `load average ${loadBefore.toFixed(1)} before, ${(os.loadavg()[0] as number).toFixed(1)} after (one minute, ${os.cpus().length} cores)`;
    report(`${suite} (${connections} connections, ${duration} s per run; ${new Date().toISOString().slice(0, 16)} UTC, ${load})`, results);
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
