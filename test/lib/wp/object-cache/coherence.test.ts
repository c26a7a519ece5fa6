/**
 * Keeping the Redis drop-in's cache coherent with Understudy's writes, against real Redis (through a
 * forwarder the test can cut): a write's keys are gone before it is answered, deleted again a moment
 * later (a PHP request racing the write may have put the old row back), and while the cache is down
 * the write is answered all the same, the failure is counted, and a durable job clears the keys once
 * the cache is back.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createClient } from '@redis/client';
import { PermanentJobError } from '../../../../lib/jobs/handler';
import { OBJECT_CACHE_JOB, objectCacheJobHandler } from '../../../../lib/jobs/object-cache-retry';
import { ClaimedJob } from '../../../../lib/jobs/queue';
import { WordPressChanges } from '../../../../lib/wp/changes';
import { ObjectCacheCoherence } from '../../../../lib/wp/object-cache/coherence';
import { redisInvalidator } from '../../../../lib/wp/object-cache/redis';
import { RedisCacheSetting } from '../../../../lib/wp/object-cache/setting';
import { eventually } from '../../../harness/eventually';
import { OracleSite, openOracle } from '../../../harness/oracle';
import { API, as } from '../../../harness/support';
import { TcpForwarder, startTcpForwarder } from '../../../harness/tcp-forwarder';

const redisUrl = new URL(process.env.WP_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
const TICKET = 158;
const TICKET_KEYS = [`wp:posts:${TICKET}`, `wp:post_meta:${TICKET}`, 'wp:posts:last_changed'];
const OTHER_KEY = 'wp:posts:4';

describe('object cache coherence: a site beside the Redis drop-in', function () {
  this.timeout(30_000);
  const seeder = createClient({ socket: { host: redisUrl.hostname, port: Number(redisUrl.port || 6379) } });
  const prefix = `understudy-coherence-${randomBytes(6).toString('hex')}:`;
  let forwarder: TcpForwarder;
  let oracle: OracleSite;

  before(async () => {
    await seeder.connect();
    forwarder = await startTcpForwarder(Number(redisUrl.port || 6379));
    const setting: RedisCacheSetting = {
      kind: 'redis', scheme: 'tcp', host: '127.0.0.1', port: forwarder.port, database: 0, timeoutSeconds: 1, readTimeoutSeconds: 1,
      prefix, selectiveFlush: false, globalGroups: [], ignoredGroups: [], unflushableGroups: [], tablePrefix: 'wp_', blogId: 1, multisite: false,
    };
    oracle = await openOracle({ objectCache: { setting, foundBy: 'the test', onUncovered: 'degrade' } });
  });
  after(async () => {
    await oracle?.close();
    await forwarder?.close();
    const left = await seeder.keys(`${prefix}*`);
    if (left.length) await seeder.del(left);
    await seeder.close();
  });

  const seed = async (keys: string[]) => { for (const key of keys) await seeder.set(prefix + key, 's:1:"x";'); };
  const present = async (keys: string[]) => (await Promise.all(keys.map((k) => seeder.exists(prefix + k)))).map(Boolean);
  const update = async (changes: Record<string, unknown>, ticket = TICKET) => {
    const { version } = (await as(oracle.app, 'agent1').get(`${API}/tickets/${ticket}`)).body;
    const res = await as(oracle.app, 'agent1').patch(`${API}/tickets/${ticket}`).send({ version, ...changes });
    assert.equal(res.status, 200, res.text);
  };

  it('deletes what the write changed before answering, and nothing else', async () => {
    await seed([...TICKET_KEYS, OTHER_KEY]);
    await update({ priority: 'urgent' });
    assert.deepEqual(await present(TICKET_KEYS), [false, false, false]);
    assert.deepEqual(await present([OTHER_KEY]), [true]);
  });

  it('deletes it again a moment later, after a racing PHP request put the old row back', async () => {
    await update({ priority: 'high' });
    await seed([`wp:posts:${TICKET}`]);
    await eventually(async () => !(await present([`wp:posts:${TICKET}`]))[0], 5_000)
      .catch(() => assert.fail('the second pass did not delete the row PHP put back'));
  });

  it('runs a pending second pass when it closes (a CLI command ends right after its write)', async () => {
    const invalidator = redisInvalidator({ host: redisUrl.hostname, port: Number(redisUrl.port || 6379), prefix, tablePrefix: 'wp_' });
    const coherence = new ObjectCacheCoherence(oracle.site, invalidator, { retry: async () => undefined, secondPassMs: 60_000 });
    await coherence.afterWrite(new WordPressChanges().post(TICKET, 'svc_ticket'));
    await seed([`wp:posts:${TICKET}`]);
    await coherence.close();
    assert.deepEqual(await present([`wp:posts:${TICKET}`]), [false], 'the row PHP put back after the first pass is gone');
  });

  it('answers a write while the cache is down, counts the failure, and a durable job clears the keys once it is back', async () => {
    const failedBefore = oracle.site.objectCache.invalidations().get('failed') ?? 0;
    forwarder.cut();
    try {
      await seed(TICKET_KEYS);
      await update({ priority: 'normal' });
      assert.equal(oracle.site.objectCache.invalidations().get('failed'), failedBefore + 1);
      assert.equal(oracle.site.objectCache.degradation(), 'object_cache_unreachable');
      assert.deepEqual(await present(TICKET_KEYS), [true, true, true], 'nothing could be deleted meanwhile');
    } finally {
      forwarder.restore();
    }
    const row = await oracle.site.db.knex('wp_svc_jobs').where({ kind: OBJECT_CACHE_JOB, status: 'queued' }).orderBy('id', 'desc').first();
    assert.ok(row, 'a retry job is queued');
    const job: ClaimedJob = { id: row.id, kind: row.kind, payload: JSON.parse(row.payload), attempts: 1, lockedBy: 'test', lockedUntil: 0 };
    assert.ok(job.payload && (job.payload as { posts: Array<{ id: number }> }).posts.some((p) => p.id === TICKET));
    await objectCacheJobHandler().run(oracle.site, job);
    assert.deepEqual(await present(TICKET_KEYS), [false, false, false]);
    assert.equal(oracle.site.objectCache.degradation(), null, 'readiness is no longer degraded');
  });

  it('fails the retry job (to be tried again) while the cache is still down', async () => {
    forwarder.cut();
    try {
      const job: ClaimedJob = { id: 0, kind: OBJECT_CACHE_JOB, payload: { posts: [{ id: TICKET, type: 'svc_ticket', parent: 0 }], postMeta: {}, options: [], users: [], userMeta: {}, terms: [], comments: [] }, attempts: 1, lockedBy: 'test', lockedUntil: 0 };
      await assert.rejects(objectCacheJobHandler().run(oracle.site, job), /did not answer/);
    } finally {
      forwarder.restore();
    }
  });

  it('keeps one queued retry job for the writes that failed while the cache was down, holding all their changes', async () => {
    const jobs = () => oracle.site.db.knex('wp_svc_jobs').where({ kind: OBJECT_CACHE_JOB, status: 'queued' });
    await jobs().del();
    const other: number = (await oracle.site.db.knex('wp_posts').first('ID').where({ post_type: 'svc_ticket' }).whereNot({ ID: TICKET })).ID;
    forwarder.cut();
    try {
      await update({ priority: 'high' });
      await update({ priority: 'high' }, other);
    } finally {
      forwarder.restore();
    }
    const rows = await jobs();
    assert.equal(rows.length, 1, 'one job for both writes');
    const posts = (JSON.parse(rows[0].payload) as { posts: Array<{ id: number }> }).posts.map((p) => p.id);
    assert.deepEqual(posts.sort((a, b) => a - b), [TICKET, Number(other)].sort((a, b) => a - b));
  });

  it('fails a retry job whose payload cannot be read for good, not to be tried again', async () => {
    const job: ClaimedJob = { id: 0, kind: OBJECT_CACHE_JOB, payload: null, attempts: 1, lockedBy: 'test', lockedUntil: 0 };
    await assert.rejects(objectCacheJobHandler().run(oracle.site, job), PermanentJobError);
  });
});
