/** A site's object cache while served: its state, readiness's reason code, the counts, the write refusal. */
import assert from 'node:assert/strict';
import { ObjectCacheChoice } from '../../../../lib/wp/object-cache/setting';
import { ObjectCacheStatus, assertWritesAllowed } from '../../../../lib/wp/object-cache/status';
import { WpError } from '../../../../lib/wp/errors';

const SITE = { tablePrefix: 'wp_', blogId: 1, multisite: false };
const memcached: ObjectCacheChoice = {
  setting: { kind: 'memcached', servers: ['127.0.0.1:11211'], salt: '', customUserTables: false, ...SITE }, foundBy: 'named by OBJECT_CACHE', onUncovered: 'refuse-writes',
};
const unknown = (onUncovered: 'degrade' | 'refuse-writes'): ObjectCacheChoice => ({ setting: { kind: 'unknown', reason: 'Object Cache Pro' }, foundBy: 'x', onUncovered });

describe('lib/wp/object-cache/status', () => {
  it('is off without a cache, and never degraded or refusing then', () => {
    const status = new ObjectCacheStatus(undefined);
    assert.deepEqual([status.setting, status.state, status.degradation(), status.writesRefused()], [{ kind: 'none' }, 'off', null, null]);
  });

  it('turns unreachable when an invalidation fails and ok when one succeeds, counting each result', () => {
    const status = new ObjectCacheStatus(memcached);
    assert.equal(status.state, 'ok');
    status.countInvalidation('failed');
    assert.deepEqual([status.state, status.degradation()], ['unreachable', 'object_cache_unreachable']);
    assert.equal(status.writesRefused(), null, 'an unreachable cache never refuses writes: their invalidations are retried');
    status.countInvalidation('ok');
    status.countInvalidation('ok');
    assert.deepEqual([status.state, status.degradation()], ['ok', null]);
    assert.deepEqual([...status.invalidations()], [['failed', 1], ['ok', 2]]);
  });

  it('beside an uncovered cache: degraded, and writes refused only with refuse-writes', () => {
    const degrading = new ObjectCacheStatus(unknown('degrade'));
    assert.deepEqual([degrading.state, degrading.degradation(), degrading.writesRefused()], ['uncovered', 'object_cache_uncovered', null]);
    assert.doesNotThrow(() => assertWritesAllowed(degrading));
    const refusing = new ObjectCacheStatus(unknown('refuse-writes'));
    assert.throws(() => assertWritesAllowed(refusing), (err: unknown) => err instanceof WpError && err.status === 503 && err.code === 'understudy_writes_refused');
  });
});
