/**
 * From the setting to the keys deleted, against real Redis (WP_TEST_REDIS_URL, default
 * 127.0.0.1:6379): the OBJECT_CACHE setting is read as at start, the adapter builds the Redis
 * invalidator's config from it as lib/boot.ts does, and the keys the drop-in would have written go.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createClient } from '@redis/client';
import { WordPressChanges } from '../../../../lib/wp/changes';
import { redisConfigOf } from '../../../../lib/wp/object-cache/adapter';
import { chooseObjectCache } from '../../../../lib/wp/object-cache/detect';
import { ObjectCacheInvalidator } from '../../../../lib/wp/object-cache/invalidator';
import { redisInvalidator } from '../../../../lib/wp/object-cache/redis';
import { RedisCacheSetting } from '../../../../lib/wp/object-cache/setting';

const url = new URL(process.env.WP_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');

describe('the object cache adapter: the setting carried to the Redis keys', () => {
  const seeder = createClient({ socket: { host: url.hostname, port: Number(url.port || 6379) } });
  let prefix = '';
  const opened: ObjectCacheInvalidator[] = [];

  before(async () => { await seeder.connect(); });
  after(async () => { await seeder.close(); });
  beforeEach(() => { prefix = `understudy-adapter-${randomBytes(6).toString('hex')}:`; });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((i) => i.close()));
    const left = await seeder.keys(`${prefix}*`);
    if (left.length) await seeder.del(left);
  });

  /** The invalidator lib/boot.ts would make for OBJECT_CACHE `params` on blog 3 of a network. */
  const invalidatorFor = (params = '', options: Parameters<typeof redisConfigOf>[1] = {}) => {
    const setting = `redis://${url.host}/0?prefix=${encodeURIComponent(prefix)}&${params}`;
    const chosen = chooseObjectCache({ site: { tablePrefix: 'wp_', blogId: 3, multisite: true }, setting }).setting as RedisCacheSetting;
    const made = redisInvalidator(redisConfigOf(chosen, options));
    opened.push(made);
    return made;
  };
  const seed = async (keys: string[]) => { for (const key of keys) await seeder.set(prefix + key, 's:1:"x";'); };
  const gone = async (keys: string[]) => {
    const present = await Promise.all(keys.map((k) => seeder.exists(prefix + k)));
    return keys.filter((_, i) => present[i] === 0);
  };

  it('WP_REDIS_UNFLUSHABLE_GROUPS (unflushable_groups): a global group named there is deleted under the blog prefix', async () => {
    // The drop-in keys `userlogins` under blog 3 once it is unflushable; `users` stays global.
    const keys = ['3:userlogins:agent', ':userlogins:agent', ':users:7', '3:users:7'];
    await seed(keys);
    await invalidatorFor('unflushable_groups=userlogins').invalidate(new WordPressChanges().user(7, { login: 'agent' }));
    assert.deepEqual(await gone(keys), ['3:userlogins:agent', ':users:7']);
  });

  it('the plugins\' taxonomies lib/boot.ts passes add to core\'s: a post\'s category relationships still go', async () => {
    const keys = ['3:category_relationships:12', '3:post_tag_relationships:12', '3:svc_doc_collection_relationships:40'];
    await seed(keys);
    await invalidatorFor('', { postTypeTaxonomies: { svc_doc: ['svc_doc_collection'] } })
      .invalidate(new WordPressChanges().post(12, 'post').post(40, 'svc_doc'));
    assert.deepEqual(await gone(keys), keys);
  });
});
