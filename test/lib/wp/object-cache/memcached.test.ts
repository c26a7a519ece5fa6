/**
 * The memcached adapter against real memcached servers started for this file: items seeded as
 * Automattic's drop-in (4.0.0, PECL memcache) stores them for a site (docs: object-caches.md), then
 * exactly the ones WordPress would have deleted are gone, under the flush numbers read fresh.
 */
import assert from 'node:assert/strict';
import { WordPressChanges } from '../../../../lib/wp/changes';
import { memcachedConfigOf } from '../../../../lib/wp/object-cache/adapter';
import { ObjectCacheInvalidator } from '../../../../lib/wp/object-cache/invalidator';
import { MemcachedCacheConfig, memcachedInvalidator } from '../../../../lib/wp/object-cache/memcached';
import { MemcacheConnection } from '../../../../lib/wp/object-cache/memcache-text';
import { MemcachedCacheSetting } from '../../../../lib/wp/object-cache/setting';
import { objectCacheFromSetting } from '../../../../lib/wp/object-cache/url';
import { RunningMemcached, freePort, startMemcached, startSilentServer } from '../../../harness/memcached';
import { startTcpForwarder } from '../../../harness/tcp-forwarder';

const SALT = 'wp-oracle-cache-memcached';
const SITE_FLUSH = '1795849344423585';
const GLOBAL_FLUSH = '1795849344000001';
const SITE_FLUSH_KEY = `${SALT}:_:wp_:WP_Object_Cache:flush_number_v4`;
const GLOBAL_FLUSH_KEY = `${SALT}:_:wp_:WP_Object_Cache_global:flush_number_v4`;

const site = (rest: string, flush = SITE_FLUSH) => `${SALT}:${flush}:wp_:${rest}`;
const global = (rest: string, flush = GLOBAL_FLUSH) => `${SALT}:${flush}:wp_:${rest}`;

/** What a single site holds after a ticket list and a users/me. */
const SINGLE_SITE = [
  site('posts:158'), site('posts:159'), site('post_meta:158'), site('post_meta:159'), site('posts:last_changed'),
  site('posts:wp_query:0d6f1f3bd1a4c4b4e5b0f0e4a6c2e1d7:0.856400001795849341'), site('terms:last_changed'),
  site('options:alloptions'), site('options:notoptions'), site('options:svc_settings'), site('general:wp_get_archives'),
  global('users:7'), global('users:8'), global('userlogins:agent'), global('useremail:old@example.com'),
  global('useremail:new@example.com'), global('userslugs:agent'), global('user_meta:7'), global('site-options:1-notoptions'),
];

describe('memcachedInvalidator (real memcached)', () => {
  let a: RunningMemcached;
  let b: RunningMemcached;
  const opened: ObjectCacheInvalidator[] = [];

  before(async () => { [a, b] = await Promise.all([startMemcached(), startMemcached()]); });
  after(async () => { await Promise.all([a.stop(), b.stop()]); });
  afterEach(async () => { await Promise.all(opened.splice(0).map((i) => i.close())); });

  const invalidator = (config: Partial<MemcachedCacheConfig> = {}) => {
    const made = memcachedInvalidator({ servers: [a.server], salt: SALT, tablePrefix: 'wp_', ...config });
    opened.push(made);
    return made;
  };
  const seed = async (keys: string[], server = a) => {
    await server.set(SITE_FLUSH_KEY, SITE_FLUSH, 768);
    await server.set(GLOBAL_FLUSH_KEY, GLOBAL_FLUSH, 768);
    for (const key of keys) await server.set(key, 'a:1:{i:0;i:1;}', 1);
  };
  const gone = async (keys: string[], server = a) => {
    const connection = new MemcacheConnection(server.server, 2000);
    try {
      const found = await connection.get(keys);
      return keys.filter((k) => !found.has(k));
    } finally {
      connection.close();
    }
  };

  it('a ticket and its meta: the post row, its meta and posts/terms last_changed go, under the site flush number', async () => {
    await seed(SINGLE_SITE);
    await invalidator().invalidate(new WordPressChanges().post(158, 'svc_ticket').postMetaKey(158, '_svc_version'));
    assert.deepEqual(await gone(SINGLE_SITE), [
      site('posts:158'), site('post_meta:158'), site('posts:last_changed'), site('terms:last_changed'), site('general:wp_get_archives'),
    ]);
  });

  it('an option and a user: options keys under the site number, user keys under the global one', async () => {
    await seed(SINGLE_SITE);
    const changes = new WordPressChanges().option('svc_settings')
      .user(7, { login: 'agent', email: 'new@example.com', nicename: 'agent' }).user(7, { email: 'old@example.com' }).userMetaKey(7, 'nickname');
    await invalidator().invalidate(changes);
    assert.deepEqual(await gone(SINGLE_SITE), [
      site('options:alloptions'), site('options:notoptions'), site('options:svc_settings'),
      global('users:7'), global('userlogins:agent'), global('useremail:old@example.com'), global('useremail:new@example.com'),
      global('userslugs:agent'), global('user_meta:7'),
    ]);
  });

  it('reads the flush number fresh: after PHP flushes (a new number), the keys under the new number go', async () => {
    const cache = invalidator();
    await seed([site('posts:158')]);
    await cache.invalidate(new WordPressChanges().post(158, 'post'));
    const flushed = '1795849999000000';
    await a.set(SITE_FLUSH_KEY, flushed, 768);
    await a.set(site('posts:158', flushed), 'x', 1);
    await cache.invalidate(new WordPressChanges().post(158, 'post'));
    assert.deepEqual(await gone([site('posts:158', flushed)]), [site('posts:158', flushed)]);
  });

  it('no flush number anywhere: nothing is deleted (PHP will start a new one); the old v3 number is still honoured', async () => {
    const v3 = '1700000000000000';
    const keys = [site('posts:158'), site('posts:158', v3)];
    for (const key of keys) await b.set(key, 'x', 1);
    await b.set(`${SALT}:_:wp_:WP_Object_Cache:flush_number_v4`, '0', 768);
    const cache = invalidator({ servers: [b.server] });
    await cache.invalidate(new WordPressChanges().post(158, 'post'));
    assert.deepEqual(await gone(keys, b), []);
    await b.set(`${SALT}:_:wp_:WP_Object_Cache:flush_number`, v3, 768);
    await cache.invalidate(new WordPressChanges().post(158, 'post'));
    assert.deepEqual(await gone(keys, b), [site('posts:158', v3)]);
  });

  it('several servers: the largest flush number wins and each delete reaches every server of the bucket', async () => {
    const older = '1795849344000000';
    await seed([site('posts:158')], a);
    await b.set(SITE_FLUSH_KEY, older, 768);
    await b.set(GLOBAL_FLUSH_KEY, GLOBAL_FLUSH, 768);
    await b.set(site('posts:158'), 'x', 1);
    await b.set(site('posts:158', older), 'x', 1);
    await invalidator({ servers: [b.server, a.server] }).invalidate(new WordPressChanges().post(158, 'post'));
    assert.deepEqual(await gone([site('posts:158')], a), [site('posts:158')]);
    assert.deepEqual(await gone([site('posts:158'), site('posts:158', older)], b), [site('posts:158')], 'the smaller number is not used');
  });

  it('a group with its own bucket is deleted there only', async () => {
    await seed([site('posts:158'), site('post_meta:158')], a);
    await seed([site('posts:158'), site('post_meta:158')], b);
    await invalidator({ servers: { default: [a.server], posts: [b.server] } }).invalidate(new WordPressChanges().post(158, 'post'));
    assert.deepEqual(await gone([site('posts:158'), site('post_meta:158')], a), [site('post_meta:158')]);
    assert.deepEqual(await gone([site('posts:158'), site('post_meta:158')], b), [site('posts:158')]);
  });

  it('multisite: site groups under the blog ID, global groups under no prefix; no salt means no salt part', async () => {
    await a.set('_:3:WP_Object_Cache:flush_number_v4', SITE_FLUSH, 768);
    await a.set('_::WP_Object_Cache_global:flush_number_v4', GLOBAL_FLUSH, 768);
    const keys = [`${SITE_FLUSH}:3:posts:158`, `${SITE_FLUSH}:1:posts:158`, `${GLOBAL_FLUSH}::users:7`, `${GLOBAL_FLUSH}:wp_:users:7`];
    for (const key of keys) await a.set(key, 'x', 1);
    await invalidator({ salt: '', multisite: true, blogId: 3 }).invalidate(new WordPressChanges().post(158, 'post').user(7, {}));
    assert.deepEqual(await gone(keys), [`${SITE_FLUSH}:3:posts:158`, `${GLOBAL_FLUSH}::users:7`]);
  });

  it('keys as PECL memcache sends them: whitespace removed, other control bytes as _, cut at 250 bytes', async () => {
    const long = 'o'.repeat(300);
    const keys = [site('options:myoption'), site(`options:a_b`), site(`options:${long}`).slice(0, 250)];
    await seed(keys);
    await invalidator().invalidate(new WordPressChanges().option('my option').option('a\u0001b').option(long));
    assert.deepEqual(await gone(keys), keys);
  });

  it('an unreachable or silent server: invalidate rejects within its deadline', async () => {
    await assert.rejects(invalidator({ servers: [`127.0.0.1:${await freePort()}`], timeoutMs: 300 }).invalidate(new WordPressChanges().post(1, 'post')));
    const silent = await startSilentServer();
    try {
      await assert.rejects(invalidator({ servers: [`127.0.0.1:${silent.port}`], timeoutMs: 300 }).invalidate(new WordPressChanges().post(1, 'post')), /within 300 ms/);
    } finally {
      await silent.close();
    }
  });

  it('concurrent invalidations pipeline on the same connections and all succeed', async () => {
    const keys = [site('posts:1'), site('posts:2'), site('posts:3')];
    await seed(keys);
    const cache = invalidator();
    await Promise.all([1, 2, 3].map((id) => cache.invalidate(new WordPressChanges().post(id, 'post'))));
    assert.deepEqual(await gone(keys), keys);
  });

  it('memcached gone and back: the same invalidator rejects while it is gone, then connects again', async () => {
    const forwarder = await startTcpForwarder(a.port);
    try {
      const cache = invalidator({ servers: [`127.0.0.1:${forwarder.port}`], timeoutMs: 500 });
      await cache.invalidate(new WordPressChanges().post(1, 'post'));
      forwarder.cut();
      await assert.rejects(cache.invalidate(new WordPressChanges().post(1, 'post')));
      forwarder.restore();
      await seed([site('posts:1')]);
      await cache.invalidate(new WordPressChanges().post(1, 'post'));
      assert.deepEqual(await gone([site('posts:1')]), [site('posts:1')]);
    } finally {
      await forwarder.close();
    }
  });

  it('one get of the four flush number keys, then the deletes pipelined on the same connection', async () => {
    await seed([], b);
    const cache = invalidator({ servers: [b.server] });
    await cache.invalidate(new WordPressChanges().option('x'));
    const before = await b.stats();
    await cache.invalidate(new WordPressChanges().post(158, 'post').option('svc_settings'));
    const after = await b.stats();
    const delta = (name: string) => after[name] - before[name];
    assert.equal(delta('cmd_get'), 4, 'v4 and v3 flush numbers of site and global groups, once');
    // posts, post_meta, wp_get_archives, 3 relationships, 9 timeinfo dates, alloptions, notoptions, the option, 2 last_changed.
    assert.equal(delta('delete_hits') + delta('delete_misses'), 20);
    assert.equal(delta('total_connections'), 1, 'only the stats connection is new');
  });
});

describe('memcachedInvalidator: a server on an IPv6 address', () => {
  let server: RunningMemcached | undefined;
  let cache: ObjectCacheInvalidator | undefined;

  before(async function () {
    try {
      await freePort('::1');
    } catch (error) {
      console.log(`      skipped: ::1 is not an address of this machine (${(error as Error).message})`);
      this.skip();
    }
    server = await startMemcached('::1');
  });
  after(async () => {
    await cache?.close();
    await server?.stop();
  });

  it('memcached://[::1]:<port>, as OBJECT_CACHE names it: the keys go on the IPv6 server', async () => {
    const running = server as RunningMemcached;
    const setting = objectCacheFromSetting(`memcached://${running.server}?salt=${SALT}`, { tablePrefix: 'wp_', blogId: 1, multisite: false });
    cache = memcachedInvalidator(memcachedConfigOf(setting as MemcachedCacheSetting));
    await running.set(SITE_FLUSH_KEY, SITE_FLUSH, 768);
    await running.set(site('posts:158'), 'a:1:{i:0;i:1;}', 1);
    await running.set(site('posts:159'), 'a:1:{i:0;i:1;}', 1);
    await cache.invalidate(new WordPressChanges().post(158, 'svc_ticket'));
    const connection = new MemcacheConnection(running.server, 2000);
    try {
      assert.deepEqual([...(await connection.get([site('posts:158'), site('posts:159')])).keys()], [site('posts:159')]);
    } finally {
      connection.close();
    }
  });
});

describe('MemcacheConnection', () => {
  let server: RunningMemcached;
  before(async () => { server = await startMemcached(); });
  after(async () => { await server.stop(); });

  it('reads values holding CRLF, several keys in one get, and reports which deletes found their key', async () => {
    await server.set('k1', 'line\r\nEND\r\nmore', 1);
    await server.set('k2', '42', 768);
    const connection = new MemcacheConnection(server.server, 2000);
    try {
      const [values, deleted] = await Promise.all([connection.get(['k1', 'missing', 'k2']), connection.delete(['k2', 'missing'])]);
      assert.equal(values.get('k1')?.data.toString(), 'line\r\nEND\r\nmore');
      assert.equal(values.get('k2')?.flags, 768);
      assert.equal(values.has('missing'), false);
      assert.deepEqual(deleted, [true, false]);
    } finally {
      connection.close();
    }
  });

  it('rejects on an error reply, then serves the next request on a new socket', async () => {
    const connection = new MemcacheConnection(server.server, 2000);
    try {
      await assert.rejects(connection.get(['x'.repeat(300)]), /CLIENT_ERROR/);
      await server.set('k3', 'v');
      assert.equal((await connection.get(['k3'])).get('k3')?.data.toString(), 'v');
    } finally {
      connection.close();
    }
  });
});
