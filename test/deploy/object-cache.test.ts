/**
 * `understudy serve` beside a site with a persistent object cache (docs/deploy.md): the start-up line
 * names what was found; a drop-in nothing covers leaves the server serving but degraded on
 * /-/health/ready and in the metrics, or, with OBJECT_CACHE_UNKNOWN=refuse-writes, refusing writes
 * with a WordPress-shaped 503 that changes nothing; a cache that does not answer at start is reported,
 * not fatal. Sites configured from wp-config.php are MySQL sites: MariaDB only.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { demoFixture, seedDemoSite } from '../../lib/demo/seed';
import { TEST_SALTS, envFor, openFor } from '../cli/cli-harness';
import { MYSQL_URL, ScratchDatabase, scratchDatabase } from '../harness/db';
import { StartedServe, logMessages, startServe } from './serve-harness';

const agent = demoFixture.users.find((u) => u.login === 'agent')!;
const basic = `Basic ${Buffer.from(`agent:${agent.application_password.password}`).toString('base64')}`;

const HEADERS = {
  pro: '<?php\n/*\n * Plugin Name: Object Cache Pro (Drop-in)\n * Plugin URI: https://objectcache.pro\n */\n',
  redis: '<?php\n/**\n * Plugin Name: Redis Object Cache Drop-In\n * Plugin URI: https://wordpress.org/plugins/redis-cache/\n * Version: 2.6.3\n */\n',
};

/** A port nothing listens on (bound, read, released). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('serve beside a persistent object cache (MariaDB)', function () {
  let db: ScratchDatabase;
  let dir: string;
  let config: string;
  let env: Record<string, string>;

  /** wp-config.php for the scratch database, with `extra` PHP, and `dropIn` as wp-content/object-cache.php. */
  function wordpress(dropIn: string, extra = ''): void {
    const target = db.target as { host: string; port: number; user: string; password: string; database: string };
    const keys = Object.entries(TEST_SALTS).map(([name, value]) => `define( '${name}', '${value}' );`).join('\n');
    fs.writeFileSync(config, `<?php
define( 'DB_NAME', '${target.database}' );
define( 'DB_USER', '${target.user}' );
define( 'DB_PASSWORD', '${target.password}' );
define( 'DB_HOST', '${target.host}:${target.port}' );
${keys}
$table_prefix = 'wp_';
${extra}
if ( ! defined( 'ABSPATH' ) ) {
  define( 'ABSPATH', __DIR__ . '/' );
}
`);
    fs.writeFileSync(path.join(dir, 'wp-content', 'object-cache.php'), dropIn);
  }

  async function ticketCount(): Promise<number> {
    const { site } = await openFor(env);
    try {
      return Number((await site.db.knex(site.db.tables.posts).where({ post_type: 'svc_ticket' }).count({ n: '*' }))[0].n);
    } finally {
      await site.close();
    }
  }

  const newTicket = (url: string) => request(url).post('/wp-json/support/v1/tickets').set('Authorization', basic)
    .send({ subject: 'Printer on fire', body: 'It is still on fire.' });

  before(async function () {
    if (!MYSQL_URL) return this.skip();
    db = await scratchDatabase();
    env = envFor(db.target, { WP_ENVIRONMENT_TYPE: 'local' });
    const { site } = await openFor(env);
    try {
      await seedDemoSite(site);
    } finally {
      await site.close();
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-wordpress-'));
    fs.mkdirSync(path.join(dir, 'wp-content'));
    config = path.join(dir, 'wp-config.php');
  });
  after(async () => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    await db?.drop();
  });

  describe('an object-cache.php drop-in nothing covers', () => {
    let server: StartedServe;
    before(async () => {
      wordpress(HEADERS.pro);
      server = await startServe(['serve', '--port=0', '--metrics-port=0'], { WP_CONFIG_PATH: config, WP_ENVIRONMENT_TYPE: 'local' });
    });
    after(async () => { assert.equal(await server.stop(), 0); });

    it('says so at start, serves, and is ready but degraded, with the reason code, in health and metrics', async () => {
      assert.match(logMessages(server.stderr.text()), /Object cache: the object-cache\.php drop-in "Object Cache Pro \(Drop-in\)" is neither the Redis Object Cache nor Automattic's memcached drop-in .*readiness reports degraded/);
      const ready = await request(server.url).get('/-/health/ready');
      assert.equal(ready.status, 200, ready.text);
      assert.deepEqual(ready.body, {
        status: 'degraded', checks: { database: 'ok', storage: 'ok', jobs: 'ok' }, degraded: { object_cache: 'object_cache_uncovered' },
      });
      const metricsUrl = /Metrics for Prometheus at ([^\s"]+)/.exec(server.stderr.text())?.[1] as string;
      const text = (await request(metricsUrl.replace(/\/metrics$/, '')).get('/metrics')).text;
      assert.match(text, /understudy_object_cache_info\{kind="unknown",state="uncovered"\} 1/);
    });

    it('still takes writes when told to degrade (the default)', async () => {
      const before = await ticketCount();
      const res = await newTicket(server.url);
      assert.equal(res.status, 201, res.text);
      assert.equal(await ticketCount(), before + 1);
    });
  });

  describe('with OBJECT_CACHE_UNKNOWN=refuse-writes', () => {
    let server: StartedServe;
    before(async () => {
      wordpress(HEADERS.pro);
      server = await startServe(['serve', '--port=0'], { WP_CONFIG_PATH: config, WP_ENVIRONMENT_TYPE: 'local', OBJECT_CACHE_UNKNOWN: 'refuse-writes' });
    });
    after(async () => { assert.equal(await server.stop(), 0); });

    it('answers a write with a WordPress-shaped 503 and changes nothing, while reads go on', async () => {
      assert.match(logMessages(server.stderr.text()), /Object cache: .*writes are refused \(OBJECT_CACHE_UNKNOWN=refuse-writes\)/);
      const before = await ticketCount();
      const res = await newTicket(server.url);
      assert.equal(res.status, 503, res.text);
      assert.equal(res.body.code, 'understudy_writes_refused');
      assert.match(res.body.message, /persistent object cache that Understudy cannot keep up to date/);
      assert.deepEqual(res.body.data, { status: 503 });
      assert.equal(await ticketCount(), before);
      assert.equal((await request(server.url).get('/wp-json/support/v1/tickets?per_page=1').set('Authorization', basic)).status, 200);
      assert.equal((await request(server.url).get('/-/health/ready')).body.degraded.object_cache, 'object_cache_uncovered');
    });
  });

  describe('the Redis Object Cache drop-in', () => {
    it('names the cache and how it was found at start, and is ready when Redis answers', async () => {
      wordpress(HEADERS.redis, "define( 'WP_REDIS_HOST', '127.0.0.1' ); define( 'WP_REDIS_PREFIX', 'shop:' );");
      const server = await startServe(['serve', '--port=0'], { WP_CONFIG_PATH: config, WP_ENVIRONMENT_TYPE: 'local' });
      try {
        assert.match(logMessages(server.stderr.text()), /Object cache: Redis Object Cache at tcp:\/\/127\.0\.0\.1:6379 db 0, prefix "shop:" \(read from the drop-in .*wp-content\/object-cache\.php \(Plugin Name: Redis Object Cache Drop-In, Version: 2\.6\.3\)\)/);
        assert.doesNotMatch(server.stderr.text(), /cannot reach/);
        const ready = await request(server.url).get('/-/health/ready');
        assert.deepEqual([ready.status, ready.body.status], [200, 'ready']);
      } finally {
        assert.equal(await server.stop(), 0);
      }
    });

    it('reports a cache that does not answer at start, and starts anyway, degraded', async () => {
      wordpress(HEADERS.redis, `define( 'WP_REDIS_PORT', ${await closedPort()} );`);
      const server = await startServe(['serve', '--port=0'], { WP_CONFIG_PATH: config, WP_ENVIRONMENT_TYPE: 'local' });
      try {
        assert.match(logMessages(server.stderr.text()), /Object cache: cannot reach it at start \(.*ECONNREFUSED.*\); writes go on/);
        const ready = await request(server.url).get('/-/health/ready');
        assert.equal(ready.status, 200);
        assert.deepEqual(ready.body.degraded, { object_cache: 'object_cache_unreachable' });
        assert.equal((await newTicket(server.url)).status, 201);
      } finally {
        assert.equal(await server.stop(), 0);
      }
    });
  });
});
