/**
 * Exact counting in one statement: each hit returns its bucket's own count, whatever other buckets
 * counted before it on the same pooled connection (MySQL reports the count as the statement's
 * insert ID, which a new row leaves at 0), and concurrent hits are each counted once.
 */
import assert from 'node:assert/strict';
import { OracleSite, openOracle } from '../../harness/oracle';

describe('RateLimiter.hit', function () {
  let oracle: OracleSite;
  before(async () => { oracle = await openOracle(); });
  after(async () => { await oracle.close(); });

  const remaining = async (bucket: string) => (await oracle.site.rateLimiter.hit(bucket, 100, 3600)).remaining;

  it("counts each bucket on its own, a new bucket's first hit being its first after another bucket's tenth", async () => {
    const busy = `test.busy.${Date.now()}`;
    for (let n = 1; n <= 10; n++) assert.equal(await remaining(busy), 100 - n);
    // One after another, so that the pool hands the same connection back: a new row reports no count of its own.
    for (let n = 0; n < 5; n++) {
      assert.equal(await remaining(`test.fresh.${Date.now()}.${n}`), 99, `fresh bucket ${n}`);
      assert.equal(await remaining(busy), 100 - 11 - n);
    }
  });

  it('counts concurrent hits on one bucket once each', async () => {
    const bucket = `test.burst.${Date.now()}`;
    const left = await Promise.all(Array.from({ length: 20 }, () => remaining(bucket)));
    assert.deepEqual(left.sort((a, b) => a - b), Array.from({ length: 20 }, (_, i) => 80 + i));
  });

  it('refuses past the limit with the seconds left in the window', async () => {
    const bucket = `test.limit.${Date.now()}`;
    const decisions = [];
    for (let n = 0; n < 4; n++) decisions.push(await oracle.site.rateLimiter.hit(bucket, 3, 3600));
    assert.deepEqual(decisions.map((d) => d.allowed), [true, true, true, false]);
    assert.ok(decisions[3]!.retryAfter > 0 && decisions[3]!.retryAfter <= 3600);
  });
});
