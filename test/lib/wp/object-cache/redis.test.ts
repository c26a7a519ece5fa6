/**
 * The Redis adapter against real Redis (WP_TEST_REDIS_URL, default 127.0.0.1:6379): keys seeded as
 * the Redis Object Cache drop-in writes them for a site (docs: object-caches.md), then exactly the
 * ones WordPress would have deleted are gone. Each test has its own WP_REDIS_PREFIX.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createClient } from '@redis/client';
import { WordPressChanges } from '../../../../lib/wp/changes';
import { ObjectCacheInvalidator } from '../../../../lib/wp/object-cache/invalidator';
import { RedisCacheConfig, redisInvalidator } from '../../../../lib/wp/object-cache/redis';
import { freePort, startSilentServer } from '../../../harness/memcached';
import { startTcpForwarder } from '../../../harness/tcp-forwarder';

const url = new URL(process.env.WP_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
const host = url.hostname;
const port = Number(url.port || 6379);

/** What a single site with table prefix `wp_` holds after a ticket list and a users/me. */
const SINGLE_SITE = [
  'wp:posts:158', 'wp:posts:159', 'wp:post_meta:158', 'wp:post_meta:159', 'wp:posts:last_changed',
  'wp:posts:wp_query-0d6f1f3bd1a4c4b4e5b0f0e4a6c2e1d7-0.85640000 1795849341',
  'wp:terms:last_changed', 'wp:options:alloptions', 'wp:options:notoptions', 'wp:options:svc_settings',
  'wp:options:using_application_passwords', 'wp:site-options:1-notoptions', 'wp:default:is_blog_installed',
  'wp:users:7', 'wp:users:8', 'wp:userlogins:agent', 'wp:useremail:old@example.com', 'wp:useremail:new@example.com',
  'wp:userslugs:agent', 'wp:user_meta:7', 'wp:user_meta:8', 'wp:general:wp_get_archives',
  'wp:timeinfo:lastpostmodified-gmt', 'wp:timeinfo:lastpostdate-blog-svc_ticket',
];

describe('redisInvalidator (real Redis)', () => {
  const seeder = createClient({ socket: { host, port } });
  let prefix = '';
  const opened: ObjectCacheInvalidator[] = [];

  before(async () => { await seeder.connect(); });
  after(async () => { await seeder.close(); });
  beforeEach(() => { prefix = `understudy-test-${randomBytes(6).toString('hex')}:`; });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((i) => i.close()));
    const left = await seeder.keys(`${prefix}*`);
    if (left.length) await seeder.del(left);
  });

  const invalidator = (config: Partial<RedisCacheConfig> = {}) => {
    const made = redisInvalidator({ host, port, prefix, tablePrefix: 'wp_', ...config });
    opened.push(made);
    return made;
  };
  const seed = async (keys: string[], client = seeder) => {
    for (const key of keys) await client.set(prefix + key, key.endsWith('last_changed') ? '0.85640000 1795849341' : 's:1:"x";');
  };
  const gone = async (keys: string[], client = seeder) => {
    const present = await Promise.all(keys.map((k) => client.exists(prefix + k)));
    return keys.filter((_, i) => present[i] === 0);
  };

  it('a ticket and its meta: the post row, its meta, posts/terms last_changed and the last post dates (timeinfo) go; another ticket and cached queries stay', async () => {
    await seed(SINGLE_SITE);
    await invalidator().invalidate(new WordPressChanges().post(158, 'svc_ticket').postMetaKey(158, '_svc_version'));
    assert.deepEqual(await gone(SINGLE_SITE), [
      'wp:posts:158', 'wp:post_meta:158', 'wp:posts:last_changed', 'wp:terms:last_changed', 'wp:general:wp_get_archives',
      'wp:timeinfo:lastpostmodified-gmt', 'wp:timeinfo:lastpostdate-blog-svc_ticket',
    ]);
  });

  it('an option: alloptions, notoptions and its own key go; other options and site options stay', async () => {
    await seed(SINGLE_SITE);
    await invalidator().invalidate(new WordPressChanges().option('svc_settings'));
    assert.deepEqual(await gone(SINGLE_SITE), ['wp:options:alloptions', 'wp:options:notoptions', 'wp:options:svc_settings']);
  });

  it('a user whose email changed: the five user keys (old and new email); another user stays', async () => {
    await seed(SINGLE_SITE);
    const changes = new WordPressChanges()
      .user(7, { login: 'agent', email: 'new@example.com', nicename: 'agent' }).user(7, { email: 'old@example.com' })
      .userMetaKey(7, 'display_name');
    await invalidator().invalidate(changes);
    assert.deepEqual(await gone(SINGLE_SITE), [
      'wp:users:7', 'wp:userlogins:agent', 'wp:useremail:old@example.com', 'wp:useremail:new@example.com', 'wp:userslugs:agent', 'wp:user_meta:7',
    ]);
  });

  it('multisite: site groups under the blog ID, global groups under no prefix; another blog stays', async () => {
    const keys = ['3:posts:158', '3:post_meta:158', '3:posts:last_changed', '1:posts:158', '1:post_meta:158', '1:posts:last_changed', ':users:7', ':user_meta:7', '3:users:7'];
    await seed(keys);
    await invalidator({ multisite: true, blogId: 3 })
      .invalidate(new WordPressChanges().post(158, 'svc_ticket').user(7, {}).userMetaKey(7, 'nickname'));
    assert.deepEqual(await gone(keys), ['3:posts:158', '3:post_meta:158', '3:posts:last_changed', ':users:7', ':user_meta:7']);
  });

  it('the key scheme: table prefix trimmed of _-:$, `:` in a key becomes `-`, ignored groups are never sent, unflushable ones take the blog prefix', async () => {
    const keys = ['my:options:a-b', 'my:options:alloptions', 'my:users:7', 'my:posts:158'];
    await seed(keys);
    await invalidator({ tablePrefix: '$my_', ignoredGroups: ['posts'], unflushableGroups: ['users'] })
      .invalidate(new WordPressChanges().option('a:b').user(7, {}).post(158, 'svc_ticket'));
    assert.deepEqual(await gone(keys), ['my:options:a-b', 'my:options:alloptions', 'my:users:7']);
  });

  it('uses the configured database index', async () => {
    const db5 = createClient({ socket: { host, port }, database: 5 });
    await db5.connect();
    try {
      await seed(['wp:posts:158'], db5);
      await seed(['wp:posts:158']);
      await invalidator({ database: 5 }).invalidate(new WordPressChanges().post(158, 'post'));
      assert.deepEqual(await gone(['wp:posts:158'], db5), ['wp:posts:158']);
      assert.deepEqual(await gone(['wp:posts:158']), [], 'database 0 untouched');
      await db5.del(prefix + 'wp:posts:158');
    } finally {
      await db5.close();
    }
  });

  it('concurrent invalidations on a new invalidator share one connection and all succeed', async () => {
    const keys = ['wp:posts:1', 'wp:posts:2', 'wp:posts:3'];
    await seed(keys);
    // The test is about sharing, not the deadline: on a loaded machine connecting can take over the default 1 s.
    const cache = invalidator({ timeoutMs: 10_000 });
    await Promise.all([1, 2, 3].map((id) => cache.invalidate(new WordPressChanges().post(id, 'post'))));
    assert.deepEqual(await gone(keys), keys);
  });

  it('sends one command per invalidation, however many keys', async () => {
    const cache = invalidator();
    const changes = new WordPressChanges().post(158, 'svc_ticket').post(159, 'svc_ticket').option('svc_settings').user(7, { login: 'agent' });
    await cache.invalidate(changes); // connected
    // INFO counts every client's commands; other processes may share this Redis, so the least of three is kept.
    const counts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const before = await totalCommands();
      await cache.invalidate(changes);
      counts.push(await totalCommands() - before - 1); // the first INFO itself is counted
    }
    assert.equal(Math.min(...counts), 1);
  });

  it('an unreachable or silent Redis: invalidate rejects within its deadline', async () => {
    await assert.rejects(invalidator({ port: await freePort(), timeoutMs: 300 }).invalidate(new WordPressChanges().post(1, 'post')));
    const silent = await startSilentServer();
    try {
      await assert.rejects(invalidator({ port: silent.port, timeoutMs: 300 }).invalidate(new WordPressChanges().post(1, 'post')), /within 300 ms/);
    } finally {
      await silent.close();
    }
  });

  it('Redis gone and back: the same invalidator rejects while it is gone, then connects again', async () => {
    const forwarder = await startTcpForwarder(port);
    try {
      const cache = invalidator({ port: forwarder.port, timeoutMs: 500 });
      await cache.invalidate(new WordPressChanges().post(1, 'post'));
      forwarder.cut();
      await assert.rejects(cache.invalidate(new WordPressChanges().post(1, 'post')));
      forwarder.restore();
      await seed(['wp:posts:1']);
      await cache.invalidate(new WordPressChanges().post(1, 'post'));
      assert.deepEqual(await gone(['wp:posts:1']), ['wp:posts:1']);
    } finally {
      await forwarder.close();
    }
  });

  async function totalCommands(): Promise<number> {
    const info = await seeder.info('commandstats');
    return [...info.matchAll(/calls=(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
  }
});
