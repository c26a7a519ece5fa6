/**
 * The benchmark's site: a MariaDB database with many tickets and an agent who signs in with an
 * application password, made once and reused by later runs.
 */
import { randomUUID } from 'node:crypto';
import mysql from 'mysql2/promise';
import { openSite } from '../lib/boot';
import { memoryLogger } from '../lib/logger';
import { seedTickets } from '../lib/support/seed/bulk-tickets';
import { SiteConfig } from '../lib/wp/config';
import { DbTarget } from '../lib/wp/db/database';
import { hashPasswordForSite } from '../lib/wp/password-format';
import { wpFastHash } from '../lib/wp/passwords';
import { Site } from '../lib/wp/site';

export const AGENT_LOGIN = 'bench-agent';
export const AGENT_APP_PASSWORD = 'BenchAgentAppPassw0rd123';
export const SALTS = Object.fromEntries(['AUTH_KEY', 'SECURE_AUTH_KEY', 'LOGGED_IN_KEY', 'NONCE_KEY', 'AUTH_SALT', 'SECURE_AUTH_SALT', 'LOGGED_IN_SALT', 'NONCE_SALT'].map((k) => [k, `bench-${k}`]));

export function benchTarget(url: string): Extract<DbTarget, { client: 'mysql' }> {
  const u = new URL(url);
  return { client: 'mysql', host: u.hostname, port: Number(u.port || 3306), user: decodeURIComponent(u.username) || 'root', password: decodeURIComponent(u.password), database: u.pathname.slice(1), charset: 'utf8mb4' };
}

export function benchConfig(target: DbTarget): SiteConfig {
  return { source: 'env', description: 'benchmark', db: target, tablePrefix: 'wp_', multisite: false, blogId: 1, salts: SALTS, environmentType: 'local', dataDir: '/tmp/understudy-bench', seedDemo: false };
}

/** The benchmark's database URL (BENCH_MYSQL_URL), or a sibling database named `<database>_<suffix>`. */
export function benchDatabaseUrl(suffix?: string): string {
  const url = new URL(process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/understudy_bench');
  if (suffix) url.pathname = `${url.pathname.replace(/\/$/, '')}_${suffix}`;
  return url.toString();
}

/** Creates the database if missing (`fresh`: drops it first), with WordPress's character set and collation. */
export async function createBenchDatabase(target: Extract<DbTarget, { client: 'mysql' }>, { fresh = false } = {}): Promise<void> {
  if (fresh) await adminQuery(target, `DROP DATABASE IF EXISTS \`${target.database}\``);
  await adminQuery(target, `CREATE DATABASE IF NOT EXISTS \`${target.database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_520_ci`);
}

/** Runs `sql` on the benchmark's server, outside any database; the first value of its first row, if any. */
export async function adminQuery(target: Extract<DbTarget, { client: 'mysql' }>, sql: string): Promise<unknown> {
  const admin = await mysql.createConnection({ host: target.host, port: target.port, user: target.user, password: target.password, rowsAsArray: true });
  try {
    const [rows] = await admin.query(sql);
    return Array.isArray(rows) ? (rows[0] as unknown[] | undefined)?.[0] : undefined;
  } finally {
    await admin.end();
  }
}

/** Creates the database, the agent and the tickets that are missing; returns the ticket count. */
export async function prepareSite(url: string, tickets: number, log: (line: string) => void): Promise<number> {
  const target = benchTarget(url);
  await createBenchDatabase(target);
  const { site } = await openSite(benchConfig(target), { logger: memoryLogger() });
  try {
    await ensureAgent(site);
    const existing = await ticketCount(site);
    if (existing < tickets) {
      log(`seeding ${tickets - existing} tickets (once; later runs reuse them)…`);
      await seedTickets(site, { tickets: tickets - existing, messagesPerTicket: 2, progress: (n) => n % 20_000 === 0 && log(`  ${n}`) });
    }
    return await ticketCount(site);
  } finally {
    await site.close();
  }
}

async function ticketCount(site: Site): Promise<number> {
  const row = await site.db.knex(site.db.tables.posts).where({ post_type: 'svc_ticket' }).count({ n: '*' }).first();
  return Number((row as { n: number }).n);
}

async function ensureAgent(site: Site): Promise<void> {
  const { knex, tables } = site.db;
  if (await site.users.byLogin(AGENT_LOGIN)) return;
  const [id] = await knex(tables.users).insert({
    user_login: AGENT_LOGIN, user_pass: await hashPasswordForSite(site.options, randomUUID()), user_nicename: AGENT_LOGIN,
    user_email: 'bench-agent@example.test', user_url: '', user_registered: '2026-01-01 00:00:00', user_activation_key: '', user_status: 0, display_name: 'Bench Agent',
  });
  const passwords = [{ uuid: randomUUID(), app_id: '', name: 'bench', password: wpFastHash(AGENT_APP_PASSWORD), created: 0, last_used: null, last_ip: null }];
  await site.users.updateMeta(Number(id), tables.capabilitiesKey, { support_agent: true });
  await site.users.updateMeta(Number(id), '_application_passwords', passwords);
  await site.options.update('using_application_passwords', '1', 'no');
}
