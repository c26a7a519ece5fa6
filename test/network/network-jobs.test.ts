/**
 * Jobs on a network served by one process: a site's worker runs while the site is open, so work queued
 * for a site nobody has asked for (by a CLI command, another process, a retry coming round) opens that
 * site and runs; the hourly schedules run for the sites that are not open, once each, and the sites
 * where neither plugin has ever run are left alone.
 */
import assert from 'node:assert/strict';
import { enqueueJob } from '../../lib/jobs/enqueue';
import { jobsTable } from '../../lib/jobs/queue';
import { watchNetworkQueues } from '../../lib/jobs/network-queues';
import { memoryLogger } from '../../lib/logger';
import { unixSeconds } from '../../lib/wp/clock';
import { SitePool } from '../../lib/wp/multisite/site-pool';
import { Site } from '../../lib/wp/site';
import { StartedServe, logMessages, startServe } from '../deploy/serve-harness';
import { eventually } from '../harness/eventually';
import { TestNetwork, buildNetwork } from '../harness/network';
import { insertBlog } from '../harness/network-tables';

const HOST = 'example.test';

describe('network: jobs of the sites that are not open', function () {
  this.timeout(60_000);
  let net: TestNetwork;

  before(async () => {
    net = await buildNetwork({
      domain: HOST,
      install: { subdomainInstall: false, current: { domain: HOST, path: '/', networkId: 1 } },
      blogs: [{ blogId: 1, domain: HOST, path: '/' }, { blogId: 2, domain: HOST, path: '/two/' }, { blogId: 3, domain: HOST, path: '/three/' }],
      users: [],
      superAdmins: [],
    });
    // A site PHP made where neither plugin ever ran: no queue.
    await insertBlog((await net.site(1)).db.knex, 'wp_', { blogId: 4, domain: HOST, path: '/four/' });
  });

  after(async () => {
    await net?.close();
  });

  it('opens a site whose queue holds due work and runs it, without a request for the site', async () => {
    const three = await net.site(3);
    const id = await enqueueJob(three.db.knex, three.db.tables, 'team_alert', { event: 'test' }, unixSeconds(three.clock));
    let server: StartedServe | undefined;
    try {
      server = await startServe(['serve', '--port=0'], net.serveEnv({ LOG_FORMAT: 'json', NETWORK_JOBS_EVERY_SECONDS: '1' }));
      // Claimed and run by site 3's worker (a test alert with nothing configured fails at once, for good).
      const attempts = async () => Number((await three.db.knex(jobsTable(three.db.tables)).where({ id }).first('attempts'))?.attempts);
      await eventually(async () => (await attempts()) === 1, 15_000);
      const opened = logMessages(server.stderr.text()).split('\n').filter((line) => line === 'network: a site is open');
      assert.equal(opened.length, 2, 'the main site, and site 3 for its job; site 2 has no work and stays closed');
    } finally {
      await server?.stop();
    }
  });

  it('runs the periodic schedules once for each site with a queue that is not open', async () => {
    const opened: Site[] = [];
    const pool = new SitePool<{ site: Site }>({
      idleMs: 60_000, maxOpen: 10,
      async open(blogId) {
        const site = await net.site(blogId);
        opened.push(site);
        return { site };
      },
      async close() {},
    });
    const main = await pool.lease(1);
    const watch = watchNetworkQueues({ db: main.opened.site.db, networkId: 1, pool, clock: main.opened.site.clock, logger: memoryLogger(), schedules: [], everyMs: 60_000 });
    try {
      const ran: number[] = [];
      const sites = await watch.runScheduleOfClosedSites(async (site) => { ran.push(site.db.tables.blogId); });
      assert.deepEqual(sites, [2, 3], 'site 1 is open (its own worker runs its schedules); site 4 has no queue');
      assert.deepEqual(ran, [2, 3]);
    } finally {
      main.release();
      await watch.stop();
      await pool.close();
    }
  });
});
