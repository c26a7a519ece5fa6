/**
 * The sites a network's process holds open: one opening per site however many requests ask at once,
 * a site in use never let go, the least recently used idle site let go first past the bound, a site
 * that failed to open tried again, and one at work (a job running) kept until it is done.
 */
import assert from 'node:assert/strict';
import { SitePool } from '../../../../lib/wp/multisite/site-pool';

interface Opened {
  blogId: number;
  working: boolean;
}

function pool(options: { maxOpen?: number; idleMs?: number; failFirst?: number } = {}) {
  const opened: number[] = [];
  const closed: number[] = [];
  let failures = options.failFirst ?? 0;
  const sites = new SitePool<Opened>({
    idleMs: options.idleMs ?? 60_000, maxOpen: options.maxOpen ?? 10,
    async open(blogId) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (failures-- > 0) throw new Error('the database is away');
      opened.push(blogId);
      return { blogId, working: false };
    },
    async close(site) { closed.push(site.blogId); },
    busy: (site) => site.working,
  });
  return { sites, opened, closed };
}

describe('multisite: the sites a process holds open', () => {
  it('opens a site once for requests that ask for it at the same time', async () => {
    const { sites, opened } = pool();
    const leases = await Promise.all([sites.lease(2), sites.lease(2), sites.lease(2)]);
    assert.deepEqual(opened, [2]);
    assert.ok(leases.every((l) => l.opened === leases[0]?.opened));
    await sites.close();
  });

  it('lets the least recently used idle site go past the bound, never one in use', async () => {
    const { sites, closed } = pool({ maxOpen: 2 });
    const held = await sites.lease(1);
    (await sites.lease(2)).release();
    (await sites.lease(3)).release();
    assert.deepEqual(closed, [2], 'site 1 is in use; site 2 is the idle one');
    (await sites.lease(4)).release();
    assert.deepEqual(closed, [2, 3]);
    assert.deepEqual(sites.openSites().map((s) => s.blogId).sort(), [1, 4]);
    held.release();
    await sites.close();
  });

  it('lets an idle site go after the idle time, but not while it is at work', async () => {
    const { sites, closed } = pool({ idleMs: 1 });
    const lease = await sites.lease(5);
    lease.opened.working = true;
    lease.release();
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    assert.deepEqual(closed, [], 'a job is running on it');
    lease.opened.working = false;
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    assert.deepEqual(closed, [5]);
    await sites.close();
  });

  it('tries a site that failed to open again on the next request', async () => {
    const { sites, opened } = pool({ failFirst: 1 });
    await assert.rejects(sites.lease(7), /the database is away/);
    const lease = await sites.lease(7);
    assert.deepEqual(opened, [7]);
    lease.release();
    await sites.close();
  });

  it('closes every site it holds when the process stops, and opens none after', async () => {
    const { sites, closed } = pool();
    (await sites.lease(1)).release();
    await sites.lease(2);
    await sites.close();
    assert.deepEqual(closed.sort(), [1, 2]);
    await assert.rejects(sites.lease(3), /closed/);
  });
});
