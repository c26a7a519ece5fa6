/** RevalidatingCache: fresh-enough values without waiting, never older than the bound, one reload at a time. */
import assert from 'node:assert/strict';
import { RevalidatingCache } from '../../../lib/wp/fresh-cache';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('RevalidatingCache', () => {
  it('serves a value while fresh, serves it while one background reload runs, then the new value', async () => {
    const cache = new RevalidatingCache<string, number>({ softMs: 30, hardMs: 400 });
    let loads = 0;
    const load = async () => { loads += 1; await sleep(60); return loads; };
    assert.equal(await cache.get('k', load), 1);
    assert.equal(await cache.get('k', load), 1, 'fresh: no reload');
    await sleep(40);
    const [a, b] = await Promise.all([cache.get('k', load), cache.get('k', load)]);
    assert.deepEqual([a, b], [1, 1], 'stale but within the bound: answered at once');
    await sleep(80);
    assert.equal(loads, 2, 'one background reload for both');
    assert.equal(await cache.get('k', load), 2);
  });

  it('makes callers wait for a reload once a value is past the bound', async () => {
    const cache = new RevalidatingCache<string, number>({ softMs: 10, hardMs: 50 });
    let n = 0;
    await cache.get('k', async () => ++n);
    await sleep(70);
    assert.equal(await cache.get('k', async () => ++n), 2);
  });

  it('does not keep a reload that began before an invalidation', async () => {
    const cache = new RevalidatingCache<string, string>({ softMs: 10, hardMs: 1000 });
    let release: (v: string) => void = () => undefined;
    let began: () => void = () => undefined;
    const loadBegan = new Promise<void>((resolve) => { began = resolve; });
    const slow = cache.get('k', () => { began(); return new Promise<string>((resolve) => { release = resolve; }); });
    await loadBegan;
    cache.invalidate();
    release('old');
    assert.equal(await slow, 'old');
    assert.equal(await cache.get('k', async () => 'new'), 'new');
  });

  it('confirms a value with an unchanged change token instead of loading it again, and reloads when the token moves', async () => {
    let token: string | null = 't1';
    const cache = new RevalidatingCache<string, number>({ softMs: 10, hardMs: 60, token: async () => token });
    let loads = 0;
    const load = async () => ++loads;
    assert.equal(await cache.get('k', load), 1);
    await sleep(80);
    assert.equal(await cache.get('k', load), 1, 'past the bound, but the tables did not change: confirmed, not reloaded');
    assert.equal(loads, 1);
    token = 't2';
    await sleep(80);
    assert.equal(await cache.get('k', load), 2, 'the token moved: loaded again');
    token = null;
    await sleep(80);
    assert.equal(await cache.get('k', load), 3, 'an unknown token never confirms');
    await sleep(80);
    assert.equal(await cache.get('k', load), 4);
  });
});
