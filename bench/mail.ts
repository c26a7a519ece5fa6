/**
 * The mail-intake part of `npm run bench`: signed relay messages of about 20 KB (a real MIME message:
 * a text part, an HTML part and a small PNG attachment) posted to POST /support/v1/webhooks/relay/<key>
 * at 16 connections, then a check that every message answered 202 is stored (its ticket, message and
 * file, and the original message, which intake keeps). A fresh MariaDB database each run (`<database>_mail`), so the count is exact.
 * Also logged: the server's CPU time a message (Linux), steadier than messages a second on a shared machine.
 * Each round runs the real server, then the stripped-down intake server (bench/mail-stripped.ts: the
 * same intake behind bare node:http), each into a fresh database; the suite ends with the real
 * server's CPU a message as a multiple of the stripped-down one's, over all rounds.
 * The svc_* indexes are added first unless `--indexes=off`: without svc_key_value each message's
 * Message-ID lookup (duplicates, threading) reads every stored Message-ID, so the run would measure how
 * many messages it had already stored (docs/performance.md).
 *
 *   npm run bench -- --suite=mail [--connections=16] [--duration=10] [--indexes=on|off] [--rounds=2]
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { openSite } from '../lib/boot';
import { memoryLogger } from '../lib/logger';
import { addIndexes } from '../lib/support/db-indexes';
import { addMailbox } from '../lib/support/mailboxes/admin';
import { relaySignature } from '../lib/support/inbound/signature';
import { SALTS, benchConfig, benchDatabaseUrl, benchTarget, createBenchDatabase } from './fixture';
import { BenchRequest, Result, cpuTimeMs, cpuTimeSince, freePort, log, measure, startScript, startServer, stop } from './harness';

/**
 * Each run's files in a folder of its own, and folders of earlier runs removed only once they are ten
 * minutes old: ext4 passes over the inodes of files deleted in the last few minutes when it allocates
 * new ones, so removing the last run's thousands of files just before this one made file writes cost
 * up to five times as much and the figures swing by half (docs/performance.md, "Mail intake").
 */
const RUNS_DIR = '/tmp/understudy-bench-mail';
const KEEP_RUNS_MS = 10 * 60 * 1000;
/** A small attachment: 12 KB of bytes behind a PNG signature (typed by its bytes on the way in). */
const ATTACHMENT = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(12 * 1024)]).toString('base64').replace(/.{76}/g, '$&\r\n');
const TEXT = 'Hello support,\r\n\r\nMy order has not arrived and the tracking page shows nothing since Monday. '.repeat(12);

export async function mailSuite(args: Record<string, string>, connections: number, duration: number): Promise<Result[]> {
  const indexes = args.indexes !== 'off';
  const rounds = Number(args.rounds ?? 2);
  const results: Result[] = [];
  const cpu = { full: [] as number[], stripped: [] as number[] };
  // Alternating, so that the other load on a shared machine falls on both alike.
  for (let round = 0; round < rounds; round++) {
    for (const server of ['full', 'stripped'] as const) {
      const run = await measureIntake(server, indexes, connections, duration);
      results.push(run.result);
      if (run.cpuMsPerMessage !== undefined) cpu[server].push(run.cpuMsPerMessage);
    }
  }
  const total = (values: number[]) => values.reduce((sum, v) => sum + v, 0);
  if (cpu.full.length && cpu.stripped.length) {
    const ratio = total(cpu.full) / total(cpu.stripped);
    log(`  the full server's CPU a message: ${ratio.toFixed(2)}× the stripped-down intake server's (${cpu.full.map((c) => c.toFixed(2)).join(', ')} against ${cpu.stripped.map((c) => c.toFixed(2)).join(', ')} ms)`);
    const last = results[results.length - 1] as Result;
    last.note = `${last.note}; full/stripped CPU a message ${ratio.toFixed(2)}×`;
  }
  return results;
}

/** One run into a fresh database: the real server (`serve`) or the stripped-down one (bench/mail-stripped.ts). */
async function measureIntake(kind: 'full' | 'stripped', indexes: boolean, connections: number, duration: number): Promise<{ result: Result; cpuMsPerMessage?: number }> {
  const url = benchDatabaseUrl('mail');
  const indexesLabel = `svc_* indexes ${indexes ? 'on' : 'off'}`;
  const dataDir = path.join(RUNS_DIR, `run-${Date.now()}`);
  const { routeKey, secret } = await freshMailSite(url, indexes, dataDir);
  const port = await freePort();
  const env = { DATABASE_URL: url, ...SALTS, WP_ENVIRONMENT_TYPE: 'local', PORT: String(port), UNDERSTUDY_DATA_DIR: dataDir };
  const server = kind === 'full' ? await startServer(['serve'], env) : await startScript('stripped-down intake server', 'bench/mail-stripped.ts', env, { asServer: true });
  const name = kind === 'full' ? 'Understudy POST /webhooks/relay' : 'stripped-down intake server (node:http + acceptEmail)';
  let result: Result;
  let cpuMs: number | undefined;
  let loadCpuMs = 0;
  let databaseCpuMs: number | undefined;
  const database = localMariadbPid();
  try {
    const sample = message(0);
    log(`mail intake, ${kind}: messages of ${(sample.length / 1024).toFixed(1)} KB; ${connections} connections, ${duration} s; ${indexesLabel}`);
    const cpuBefore = cpuTimeMs(server.pid);
    const loadBefore = process.cpuUsage();
    const databaseBefore = cpuTimeMs(database);
    result = await measure(`${name} (${(sample.length / 1024).toFixed(0)} KB MIME, ${indexesLabel})`, {
      url: `http://127.0.0.1:${port}`, requests: [relayRequest(routeKey, secret)], connections, duration, server, cold: true,
    });
    cpuMs = cpuTimeSince(server.pid, cpuBefore);
    const load = process.cpuUsage(loadBefore);
    loadCpuMs = (load.user + load.system) / 1000;
    databaseCpuMs = cpuTimeSince(database, databaseBefore);
  } finally {
    await stop(server);
  }
  // Every 202 must be stored; requests still in flight when the run ended are stored without being counted.
  const stored = await storedCounts(url, dataDir);
  log(`  answered 202: ${result.ok}; stored: ${stored.receipts} receipts, ${stored.messages} messages, ${stored.files} files (each message's PNG and original)`);
  // On a shared machine messages a second follow the other load; CPU a message much less so.
  const perMessage = (ms: number) => ms / Math.max(result.ok, 1);
  if (cpuMs !== undefined) log(`  server CPU: ${perMessage(cpuMs).toFixed(2)} ms a message answered 202 (user + system of the server's processes, the job worker's share included)`);
  // The rest of the two cores' budget: the load generator (this process) and a MariaDB on this machine.
  log(`  load generator CPU: ${perMessage(loadCpuMs).toFixed(2)} ms a message${databaseCpuMs === undefined ? '' : `; MariaDB CPU: ${perMessage(databaseCpuMs).toFixed(2)} ms a message`}`);
  if (stored.receipts < result.ok || stored.messages < result.ok || stored.files < 2 * result.ok || stored.receipts > result.ok + connections) {
    throw new Error(`mail intake lost messages: ${result.ok} answered 202, ${JSON.stringify(stored)} stored`);
  }
  const cpuMsPerMessage = cpuMs === undefined ? undefined : perMessage(cpuMs);
  result.note = `${cpuMsPerMessage === undefined ? '' : `server CPU ${cpuMsPerMessage.toFixed(2)} ms a message`}${databaseCpuMs === undefined ? '' : `, MariaDB ${perMessage(databaseCpuMs).toFixed(2)} ms`}`;
  return { result, cpuMsPerMessage };
}

function removeOldRuns(): void {
  fs.mkdirSync(RUNS_DIR, { recursive: true });
  for (const entry of fs.readdirSync(RUNS_DIR)) {
    const folder = path.join(RUNS_DIR, entry);
    if (Date.now() - fs.statSync(folder).mtimeMs > KEEP_RUNS_MS) fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** The pid of a MariaDB server running on this machine (Linux), if there is one. */
function localMariadbPid(): number | undefined {
  try {
    const pid = fs.readdirSync('/proc').find((entry) => /^\d+$/.test(entry) && fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'mariadbd');
    return pid === undefined ? undefined : Number(pid);
  } catch {
    return undefined;
  }
}

/** A new database with one mailbox (and the svc_* indexes, if asked): its route key and relay secret. */
async function freshMailSite(url: string, indexes: boolean, dataDir: string): Promise<{ routeKey: string; secret: string }> {
  const target = benchTarget(url);
  await createBenchDatabase(target, { fresh: true });
  removeOldRuns();
  const { site } = await openSite({ ...benchConfig(target), dataDir }, { logger: memoryLogger() });
  try {
    if (indexes) await addIndexes(site.db);
    const issued = await addMailbox(site, 'bench', { address: 'support@bench.example' });
    return { routeKey: issued.routeKey, secret: issued.relaySecret };
  } finally {
    await site.close();
  }
}

/** Each request a new message, signed as a relay signs it. */
function relayRequest(routeKey: string, secret: string): BenchRequest {
  let serial = 0;
  return {
    method: 'POST',
    path: `/wp-json/support/v1/webhooks/relay/${routeKey}`,
    setupRequest(req) {
      const body = message(++serial);
      const timestamp = String(Math.floor(Date.now() / 1000));
      const delivery = randomUUID();
      return {
        ...req, body,
        headers: {
          ...req.headers, 'content-type': 'message/rfc822', 'x-svc-timestamp': timestamp, 'x-svc-delivery': delivery,
          'x-svc-signature': relaySignature(secret, routeKey, timestamp, delivery, body),
        },
      };
    },
  };
}

function message(serial: number): Buffer {
  const boundary = `bench-${serial}-mixed`;
  const alternative = `bench-${serial}-alt`;
  return Buffer.from([
    `From: Customer ${serial % 500} <customer${serial % 500}@example.net>`, 'To: support@bench.example', `Subject: Order ${serial} has not arrived`,
    `Message-ID: <bench-${serial}-${randomUUID()}@example.net>`, `Date: ${new Date().toUTCString()}`, 'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`, '',
    `--${boundary}`, `Content-Type: multipart/alternative; boundary="${alternative}"`, '',
    `--${alternative}`, 'Content-Type: text/plain; charset=utf-8', '', TEXT, '',
    `--${alternative}`, 'Content-Type: text/html; charset=utf-8', '', `<p>${TEXT.replace(/\r\n/g, '<br>')}</p>`, '',
    `--${alternative}--`, '',
    `--${boundary}`, 'Content-Type: image/png; name="tracking.png"', 'Content-Disposition: attachment; filename="tracking.png"',
    'Content-Transfer-Encoding: base64', '', ATTACHMENT, '', `--${boundary}--`, '',
  ].join('\r\n'));
}

async function storedCounts(url: string, dataDir: string): Promise<{ receipts: number; messages: number; files: number }> {
  const { site } = await openSite({ ...benchConfig(benchTarget(url)), dataDir }, { logger: memoryLogger() });
  try {
    const { knex, tables } = site.db;
    const count = async (query: ReturnType<typeof knex>) => Number(((await query.count({ n: '*' }).first()) as { n: number }).n);
    return {
      receipts: await count(knex(tables.plugin('svc', 'mail_receipts')).whereNotNull('ticket_id')),
      messages: await count(knex(tables.posts).where({ post_type: 'svc_message' })),
      files: await count(knex(tables.posts).where({ post_type: 'attachment' })),
    };
  } finally {
    await site.close();
  }
}
