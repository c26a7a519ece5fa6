/**
 * Outside CI (its machines cannot download the drop-ins): test/deploy/object-cache-coherence.test.ts
 * again, with real WordPress reading through the two real drop-ins instead of the test's own Redis
 * cache, and Understudy invalidating with its own key schemes (no companion), configured by detection
 * from the generated wp-config.php as `WP_CONFIG_PATH` would. For each change: what PHP showed before,
 * whether it showed the change within 1 s of Understudy's answer, and when (polled every 20 ms). Then
 * the reproduction (a process with no invalidation leaves PHP stale), what invalidation costs a write,
 * and the keys: each key Understudy deletes looked up in the cache server after PHP stored its entry.
 * Each drop-in runs under two configurations (the usual one, then its other key inputs). Figures and
 * how to re-run: docs/deploy.md, "Checked against the real drop-ins".
 *
 *   WP_TEST_MYSQL_URL=mysql://root@127.0.0.1:3306/x npx tsx bench/real-drop-ins.ts \
 *     --redis-drop-in=<redis-cache>/includes/object-cache.php --memcached-drop-in=<wp-memcached>/object-cache.php [--writes=40]
 *
 * Needs Debian's wordpress, php-cli with the redis and memcache extensions, redis-server, memcached,
 * and MariaDB at WP_TEST_MYSQL_URL (a database is created there and dropped). Starts its own
 * redis-server and memcached on free ports (the drop-ins flush them). Exits 1 if PHP missed a change,
 * a reproduction was not stale, or a key did not match.
 */
import assert from 'node:assert/strict';
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { createClient } from '@redis/client';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../lib/app';
import { openSite } from '../lib/boot';
import { memoryLogger } from '../lib/logger';
import { WordPressChanges } from '../lib/wp/changes';
import { fixedClock } from '../lib/wp/clock';
import { invalidatorFor, memcachedConfigOf, redisConfigOf } from '../lib/wp/object-cache/adapter';
import { SECOND_PASS_MS } from '../lib/wp/object-cache/coherence';
import { CacheKey, coreInvalidation } from '../lib/wp/object-cache/core-invalidation';
import { chooseObjectCache } from '../lib/wp/object-cache/detect';
import { MemcacheConnection } from '../lib/wp/object-cache/memcache-text';
import { MemcachedKeyScheme } from '../lib/wp/object-cache/memcached';
import { RedisKeyScheme } from '../lib/wp/object-cache/redis';
import { ObjectCacheChoice, describeSetting } from '../lib/wp/object-cache/setting';
import { Site } from '../lib/wp/site';
import { readWpConfig } from '../lib/wp/wp-config';
import { MYSQL_URL, scratchDatabase } from '../test/harness/db';
import { startMemcached } from '../test/harness/memcached';
import { ORACLE_SALTS, credentials, loadOracleInto, oracleConfig } from '../test/harness/oracle';
import { API, as } from '../test/harness/support';
import { RunningWordPress, startWordPressPhp, wordpressPhpSkipReason } from '../test/harness/wordpress-php';
import { benchArgs } from './harness';

const TICKET = 158;
const WITHIN_MS = 1_000;
/** How long a change missed within WITHIN_MS is still watched for, to tell late from never. */
const WATCH_MS = 3_000;
const POLL_MS = 20;
/** How long the reproduction leaves PHP after a write that nothing invalidates. */
const STALE_WAIT_MS = 2_000;

const OPEN_IDS = `(new WP_Query(array('post_type' => 'svc_ticket', 'post_status' => 'svc-open', 'posts_per_page' => -1, 'fields' => 'ids')))->posts`;
/** A PHP screen's view of a ticket: status, priority, assignee, version, and whether the open list shows it. */
const TICKET_VIEW = (id: number) => `$p = get_post(${id}); return array($p->post_status, get_post_meta(${id}, '_svc_priority', true),
  get_post_meta(${id}, '_svc_assignee', true), get_post_meta(${id}, '_svc_version', true), in_array(${id}, ${OPEN_IDS}));`;
const REPLIES = (ticket: number) => `return count(get_children(array('post_parent' => ${ticket}, 'post_type' => 'svc_message', 'post_status' => 'any')));`;

interface DropIn {
  name: string;
  file: string;
  /** Starts the drop-in's server on a free port. */
  start(): Promise<{ port: number; stop(): Promise<void> }>;
  /** wp-config.php's lines for it: as most sites set it up, then with the other key inputs the scheme reads. */
  configs: { name: string; lines(port: number): string[] }[];
}

interface Observation {
  change: string;
  before: unknown;
  expected: unknown;
  /** ms from Understudy's answer until PHP showed the change; null if not within WATCH_MS. */
  shownAfterMs: number | null;
  /** PHP's reads until then. */
  reads: number;
  last: unknown;
}

async function main(): Promise<void> {
  const args = benchArgs();
  const writes = Number(args.writes ?? 40);
  const dropIns: DropIn[] = [];
  if (args['redis-drop-in']) dropIns.push(redisDropIn(args['redis-drop-in']));
  if (args['memcached-drop-in']) dropIns.push(memcachedDropIn(args['memcached-drop-in']));
  if (!dropIns.length) throw new Error('name a drop-in: --redis-drop-in=<redis-cache>/includes/object-cache.php and/or --memcached-drop-in=<wp-memcached>/object-cache.php');
  if (!MYSQL_URL) throw new Error('set WP_TEST_MYSQL_URL=mysql://root@127.0.0.1:3306/x (a database is created and dropped there)');
  const skip = wordpressPhpSkipReason() ?? phpLacks('memcache');
  if (skip) throw new Error(skip);
  let failed = false;
  for (const dropIn of dropIns) {
    for (const config of dropIn.configs) failed = !(await checkDropIn(dropIn, config, writes)) || failed;
  }
  process.exitCode = failed ? 1 : 0;
}

async function checkDropIn(dropIn: DropIn, config: DropIn['configs'][number], writes: number): Promise<boolean> {
  console.log(`\n## ${dropIn.name} (${headerVersion(dropIn.file)}), ${config.name}: ${dropIn.file}`);
  const server = await dropIn.start();
  const configLines = config.lines(server.port);
  console.log(`wp-config.php: ${configLines.join(' ')}`);
  const scratch = await scratchDatabase();
  const opened: Site[] = [];
  let wp: RunningWordPress | undefined;
  try {
    await loadOracleInto(scratch);
    wp = await startWordPressPhp({ db: scratch.target, salts: ORACLE_SALTS, companion: false, objectCacheFile: dropIn.file, configLines });
    const objectCache = detected(wp.configFile);
    console.log(`Detected from ${wp.configFile}: ${describeSetting(objectCache.setting)} (${objectCache.foundBy})`);
    const open = async (choice: ObjectCacheChoice | undefined) => {
      const { site } = await openSite({ ...oracleConfig(scratch), objectCache: choice }, { logger: memoryLogger(), clock: fixedClock(credentials.generated_at * 1000) });
      opened.push(site);
      return site;
    };
    const site = await open(objectCache);
    const observations: Observation[] = [];
    for (const change of changesOf(createApp(site), site, TICKET, 'https://alerts.example.test/hook', 'Renamed By Understudy')) observations.push(await observe(wp, change));
    // A process that invalidates nothing writes the same rows next: after the last writes' second passes.
    await secondPassesOver();
    const unaware = await open(undefined);
    const stale = await reproduction(wp, unaware);
    const cost = await writeCost(site, unaware, writes);
    report(observations, stale, cost, writes);
    // Last, since it stores placeholder values in PHP's cache; after the second passes, which would delete some.
    await secondPassesOver();
    const audit = await keyAudit(wp, objectCache);
    reportAudit(audit);
    return observations.every((o) => o.shownAfterMs !== null && o.shownAfterMs <= WITHIN_MS) && stale.every((o) => o.shownAfterMs === null)
      && audit.missing.length === 0 && audit.notSent.length === 0;
  } finally {
    for (const site of opened) await site.close();
    await wp?.close();
    await scratch.drop();
    await server.stop();
  }
}

/** Each write is invalidated again SECOND_PASS_MS after it: wait until the last one's second pass is done. */
function secondPassesOver(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, SECOND_PASS_MS + 500));
}

/** What Understudy decides from wp-config.php and the drop-in beside it (WP_CONFIG_PATH, OBJECT_CACHE unset). */
function detected(configFile: string): ObjectCacheChoice {
  const choice = chooseObjectCache({ wpConfig: readWpConfig(configFile), site: { tablePrefix: 'wp_', blogId: 1, multisite: false } });
  const kind = choice.setting.kind;
  if (kind !== 'redis' && kind !== 'memcached') throw new Error(`detection found ${describeSetting(choice.setting)}`);
  return choice;
}

interface Change {
  change: string;
  /** PHP's view of what the change touches (`return …;`), read before the write so that PHP caches it. */
  code: string;
  /** Makes the change through `app`; what PHP should then show (read with `code` unless another is given). */
  write(before: unknown): Promise<{ code?: string; expected: unknown }>;
}

/** The changes of the end-to-end test, on `ticket`, with the given setting value and display name. */
function changesOf(app: Express, site: Site, ticket: number, alertsUrl: string, name: string): Change[] {
  const agent = as(app, 'agent1');
  const customer = credentials.users.customer1.id as number;
  return [{
    change: 'ticket status, priority, assignee, version; leaves the open list',
    code: TICKET_VIEW(ticket),
    async write() {
      const { version } = (await agent.get(`${API}/tickets/${ticket}`)).body;
      const res = await agent.patch(`${API}/tickets/${ticket}`).send({ version, status: 'resolved', priority: 'urgent', assignee: 2 });
      assert.equal(res.status, 200, res.text);
      return { expected: ['svc-resolved', 'urgent', '2', String(version + 1), false] };
    },
  }, {
    change: 'a reply among the ticket\'s messages',
    code: REPLIES(ticket),
    async write(before) {
      const { version } = (await agent.get(`${API}/tickets/${ticket}`)).body;
      const res = await agent.post(`${API}/tickets/${ticket}/messages`).send({ version, body: 'We are on it.' });
      assert.equal(res.status, 201, res.text);
      return { expected: (before as number) + 1 };
    },
  }, {
    change: 'a new ticket in the open list',
    code: `return count(${OPEN_IDS});`,
    async write() {
      const res = await as(app, 'customer1').post(`${API}/tickets`).send({ subject: 'Seen by PHP?', body: 'A new ticket.' });
      assert.equal(res.status, 201, res.text);
      return { code: `return in_array(${res.body.id}, ${OPEN_IDS});`, expected: true };
    },
  }, {
    change: 'a setting (as `understudy option patch`)',
    code: `$s = get_option('svc_settings'); return $s['alerts_url'] ?? null;`,
    async write() {
      await site.options.update('svc_settings', { ...await site.options.getPlain('svc_settings', {}) as object, alerts_url: alertsUrl });
      return { expected: alertsUrl };
    },
  }, {
    change: 'a display name (wp/v2/users/me)',
    code: `return get_userdata(${customer})->display_name;`,
    async write() {
      const res = await request(app).post('/wp-json/wp/v2/users/me').set('Authorization', credentials.application_passwords.customer1.basic_auth_header as string)
        .send({ name });
      assert.equal(res.status, 200, res.text);
      return { expected: name };
    },
  }];
}

/** PHP reads (and caches), Understudy writes, then PHP is polled until it shows the change. */
async function observe(wp: RunningWordPress, { change, code, write }: Change): Promise<Observation> {
  const before = await wp.phpEval(code);
  const after = await write(before);
  const answered = performance.now();
  let last: unknown;
  for (let reads = 1; ; reads++) {
    last = await wp.phpEval(after.code ?? code);
    const elapsed = performance.now() - answered;
    if (JSON.stringify(last) === JSON.stringify(after.expected)) return { change, before, expected: after.expected, shownAfterMs: elapsed, reads, last };
    if (elapsed > WATCH_MS) return { change, before, expected: after.expected, shownAfterMs: null, reads, last };
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The same changes by a process that invalidates nothing, on another open ticket: what PHP shows 2 s later. */
async function reproduction(wp: RunningWordPress, unaware: Site): Promise<Observation[]> {
  const ticket = (await wp.phpEval<number[]>(`return ${OPEN_IDS};`)).find((id) => id !== TICKET);
  assert.ok(ticket, 'another open ticket');
  const observations: Observation[] = [];
  for (const { change, code, write } of changesOf(createApp(unaware), unaware, ticket, 'https://unseen.example.test/hook', 'Renamed Unseen')) {
    const before = await wp.phpEval(code);
    const after = await write(before);
    await new Promise((resolve) => setTimeout(resolve, STALE_WAIT_MS));
    const last = await wp.phpEval(after.code ?? code);
    observations.push({ change, before, expected: after.expected, shownAfterMs: JSON.stringify(last) === JSON.stringify(after.expected) ? STALE_WAIT_MS : null, reads: 1, last });
  }
  return observations;
}

/**
 * A write's latency with the adapter and with `objectCache` none, on the same database (a ticket's
 * priority through PATCH, in process), in the order ABBA ABBA… so that neither gains from going first;
 * and the invalidation alone, for that write's changes.
 */
async function writeCost(site: Site, unaware: Site, writes: number) {
  const apps = [createApp(site), createApp(unaware)];
  const ticket = 4;
  let version = Number((await as(apps[0], 'agent1').get(`${API}/tickets/${ticket}`)).body.version);
  let changes: WordPressChanges | undefined;
  const unsubscribe = site.changes.subscribe((c) => { changes = c; });
  const times: number[][] = [[], []];
  for (let i = 0; i < 2 * writes; i++) {
    const which = (i + (i >> 1)) % 2;
    const started = performance.now();
    const res = await as(apps[which], 'agent1').patch(`${API}/tickets/${ticket}`).send({ version, priority: i % 2 ? 'urgent' : 'normal' });
    times[which].push(performance.now() - started);
    assert.equal(res.status, 200, res.text);
    version = Number(res.body.version);
  }
  unsubscribe();
  assert.ok(changes, 'the writes reported their changes');
  const invalidator = await invalidatorFor(site, site.objectCache.setting);
  const alone: number[] = [];
  try {
    for (let i = 0; i < writes; i++) {
      const started = performance.now();
      await invalidator!.invalidate(changes);
      alone.push(performance.now() - started);
    }
  } finally {
    await invalidator?.close();
  }
  return { withAdapter: stats(times[0]), without: stats(times[1]), invalidation: stats(alone) };
}

function stats(ms: number[]) {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { median: at(0.5), p90: at(0.9) };
}

function report(observations: Observation[], stale: Observation[], cost: Awaited<ReturnType<typeof writeCost>>, writes: number): void {
  const json = (v: unknown) => `\`${JSON.stringify(v)}\``;
  console.log('\nWith the adapter:\n\n| change | PHP before | PHP after | within 1 s | shown after the answer (PHP reads) |\n|---|---|---|---|---|');
  for (const o of observations) {
    const after = o.shownAfterMs === null ? `${json(o.last)} (expected ${json(o.expected)})` : json(o.expected);
    const when = o.shownAfterMs === null ? `not within ${WATCH_MS / 1000} s` : `${o.shownAfterMs.toFixed(0)} ms (${o.reads})`;
    console.log(`| ${o.change} | ${json(o.before)} | ${after} | ${o.shownAfterMs !== null && o.shownAfterMs <= WITHIN_MS ? 'yes' : 'NO'} | ${when} |`);
  }
  console.log(`\nWithout invalidation (objectCache none), another ticket:\n\n| change | PHP before | in the database | PHP ${STALE_WAIT_MS / 1000} s later |\n|---|---|---|---|`);
  for (const o of stale) console.log(`| ${o.change} | ${json(o.before)} | ${json(o.expected)} | ${json(o.last)}${o.shownAfterMs === null ? ' (stale)' : ' (NOT stale: the reproduction failed)'} |`);
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  console.log(`\n| ${writes} writes each (PATCH a ticket's priority, ABBA order) | median | p90 |\n|---|---|---|`);
  console.log(`| with the adapter | ${ms(cost.withAdapter.median)} | ${ms(cost.withAdapter.p90)} |`);
  console.log(`| objectCache none | ${ms(cost.without.median)} | ${ms(cost.without.p90)} |`);
  console.log(`| ratio | ${(cost.withAdapter.median / cost.without.median).toFixed(2)} | ${(cost.withAdapter.p90 / cost.without.p90).toFixed(2)} |`);
  console.log(`| the invalidation alone (${writes} times, that write's changes) | ${ms(cost.invalidation.median)} | ${ms(cost.invalidation.p90)} |`);
}

/**
 * One broad change (posts of three types, post and user meta, options, a user, a term, a comment;
 * names with a space, a `:`, a `+`, and an option name long enough for memcached's 250-byte limit):
 * PHP stores each of its entries through the drop-in, and says which the drop-in keeps and under
 * which key; then each key Understudy would delete is looked up in the cache server itself.
 */
async function keyAudit(wp: RunningWordPress, choice: ObjectCacheChoice) {
  const changes = new WordPressChanges().post(TICKET, 'svc_ticket').post(2, 'page').post(1, 'post').postMetaKey(TICKET, '_svc_priority')
    .option('svc_settings').option('understudy audit:option').option(`understudy_${'x'.repeat(190)}`)
    .user(3, { login: 'jane doe', email: 'jane+x@example.test', nicename: 'jane-doe' }).user(3, { email: 'old@example.test' })
    .userMetaKey(3, 'nickname').term(1).comment(1);
  const { keys, lastChanged } = coreInvalidation(changes);
  const entries: CacheKey[] = [...keys, ...lastChanged.map((group) => ({ group, key: 'last_changed' }))];
  const redis = choice.setting.kind === 'redis';
  const php = await wp.phpEval<{ group: string; key: string; kept: boolean }[]>(`$c = $GLOBALS['wp_object_cache']; $out = array();
    foreach (json_decode(base64_decode('${Buffer.from(JSON.stringify(entries)).toString('base64')}'), true) as $e) {
      wp_cache_set($e['key'], 'understudy-audit', $e['group']);
      $out[] = array('group' => $e['group'], ${redis
        ? `'key' => $c->build_key($e['key'], $e['group']), 'kept' => ! (function ($g) { return $this->is_ignored_group($g); })->call($c, $e['group'])`
        : `'key' => $c->key($e['key'], $e['group']), 'kept' => ! in_array($e['group'], $c->no_mc_groups, true)`});
    }
    return $out;`);
  const sent = redis ? redisKeys(choice, changes) : await memcachedKeys(choice, entries);
  const held = redis ? await inRedis(choice, sent) : await inMemcached(choice, sent);
  const kept = php.filter((e) => e.kept);
  return {
    entries: entries.length, kept: kept.length, sent: sent.length,
    /** Keys Understudy would delete under which the cache server holds nothing PHP stored. */
    missing: sent.filter((_, i) => !held[i]),
    /** Entries the drop-in keeps that Understudy sends no delete for (memcached: counted, as PECL memcache rewrites PHP's keys). */
    notSent: redis ? kept.filter((e) => !sent.includes(e.key)).map((e) => e.key)
      : kept.length > sent.length ? [`${kept.length - sent.length} of the entries PHP keeps`] : [],
    /** PHP's own key for the drop-in's entries, for reading a mismatch. */
    phpKeys: kept.map((e) => e.key),
  };
}

function redisKeys(choice: ObjectCacheChoice, changes: WordPressChanges): string[] {
  if (choice.setting.kind !== 'redis') throw new Error('not redis');
  return new RedisKeyScheme(redisConfigOf(choice.setting)).keysFor(changes);
}

async function memcachedKeys(choice: ObjectCacheChoice, entries: CacheKey[]): Promise<string[]> {
  if (choice.setting.kind !== 'memcached') throw new Error('not memcached');
  const scheme = new MemcachedKeyScheme(memcachedConfigOf(choice.setting));
  const [site, global] = ['WP_Object_Cache', 'WP_Object_Cache_global'].map((group) => scheme.flushKey(group, 'flush_number_v4'));
  const connection = new MemcacheConnection(choice.setting.servers[0], 1000);
  try {
    const numbers = await connection.get([site, global]);
    const number = (key: string) => numbers.get(key)?.data.toString('latin1') ?? 'none';
    return entries.filter((e) => scheme.persistent(e.group)).map((e) => scheme.key(e, number(scheme.isGlobal(e.group) ? global : site)));
  } finally {
    connection.close();
  }
}

async function inRedis(choice: ObjectCacheChoice, keys: string[]): Promise<boolean[]> {
  if (choice.setting.kind !== 'redis') throw new Error('not redis');
  const client = await createClient({ socket: { host: choice.setting.host, port: choice.setting.port } }).connect();
  try {
    return await Promise.all(keys.map(async (key) => (await client.exists(key)) === 1));
  } finally {
    await client.close();
  }
}

async function inMemcached(choice: ObjectCacheChoice, keys: string[]): Promise<boolean[]> {
  if (choice.setting.kind !== 'memcached') throw new Error('not memcached');
  const connection = new MemcacheConnection(choice.setting.servers[0], 1000);
  try {
    const found = await connection.get(keys);
    return keys.map((key) => found.has(key));
  } finally {
    connection.close();
  }
}

function reportAudit(audit: Awaited<ReturnType<typeof keyAudit>>): void {
  console.log(`\nKeys: ${audit.entries} cache entries of one broad change stored by PHP; the drop-in keeps ${audit.kept}; Understudy sends ${audit.sent} deletes,`
    + ` ${audit.sent - audit.missing.length} of them under a key where the server holds PHP's entry.`);
  for (const key of audit.missing) console.log(`  MISSING (nothing stored under Understudy's key): ${key}`);
  for (const key of audit.notSent) console.log(`  NOT SENT (the drop-in keeps it): ${key}`);
  if (audit.missing.length || audit.notSent.length) console.log(`  PHP's keys:\n    ${audit.phpKeys.join('\n    ')}`);
}

function redisDropIn(file: string): DropIn {
  const server = (port: number) => [`define( 'WP_REDIS_HOST', '127.0.0.1' );`, `define( 'WP_REDIS_PORT', ${port} );`];
  return {
    name: 'Redis Object Cache', file,
    async start() {
      const port = await freePort();
      const child = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      await accepting(port, child);
      return { port, stop: () => stopChild(child) };
    },
    configs: [
      { name: 'WP_REDIS_PREFIX', lines: (port) => [...server(port), `define( 'WP_REDIS_PREFIX', 'understudy-real-redis:' );`] },
      {
        name: 'WP_CACHE_KEY_SALT (with spaces), an ignored group, selective flush',
        lines: (port) => [...server(port), `define( 'WP_CACHE_KEY_SALT', ' understudy-salt: ' );`,
          `define( 'WP_REDIS_IGNORED_GROUPS', array( 'comment' ) );`, `define( 'WP_REDIS_SELECTIVE_FLUSH', true );`],
      },
    ],
  };
}

function memcachedDropIn(file: string): DropIn {
  const server = (port: number) => `$memcached_servers = array( 'default' => array( '127.0.0.1:${port}' ) );`;
  return {
    name: 'Memcached (Automattic)', file,
    async start() {
      const memcached = await startMemcached();
      return { port: memcached.port, stop: () => memcached.stop() };
    },
    configs: [
      { name: 'WP_CACHE_KEY_SALT', lines: (port) => [server(port), `define( 'WP_CACHE_KEY_SALT', 'understudy-real-memcached' );`] },
      {
        // WordPress reads its own tables under these names: the drop-in's global groups then lose the table prefix.
        name: 'no salt, CUSTOM_USER_TABLE and CUSTOM_USER_META_TABLE',
        lines: (port) => [server(port), `define( 'CUSTOM_USER_TABLE', 'wp_users' );`, `define( 'CUSTOM_USER_META_TABLE', 'wp_usermeta' );`],
      },
    ],
  };
}

function headerVersion(file: string): string {
  const header = fs.readFileSync(file, 'utf8').slice(0, 8192);
  return `Version: ${/^[ \t/*#@]*Version:(.*)$/mi.exec(header)?.[1].trim() ?? 'none'}`;
}

function phpLacks(extension: string): string | null {
  const modules = spawnSync('php', ['-m'], { encoding: 'utf8' }).stdout.toLowerCase().split('\n');
  return modules.includes(extension) ? null : `php lacks the ${extension} extension (Debian package php-${extension})`;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().on('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function accepting(port: number, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 250 && child.exitCode === null; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => { socket.destroy(); resolve(true); }).on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the server on port ${port} did not start`);
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill();
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
