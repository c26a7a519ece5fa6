/**
 * Each site of a network has its plugin tables with their unique keys, on either engine: SQLite's
 * index names are global to the database file, so the keys of `wp_2_…` and `wp_3_…` carry their
 * table's name (indexNameFor(), lib/wp/db/migrate.ts). Without them a second site's receipts had no
 * unique key, and a relay delivery there failed with 500 instead of being stored once.
 */
import assert from 'node:assert/strict';
import { claimReceipt } from '../../lib/support/inbound/store';
import { TestNetwork, buildNetwork } from '../harness/network';

describe('plugin tables of every site of a network', function () {
  this.timeout(60_000);
  let net: TestNetwork;

  before(async () => {
    net = await buildNetwork({
      domain: 'example.test',
      install: { subdomainInstall: false },
      blogs: [{ blogId: 1, domain: 'example.test', path: '/' }, { blogId: 2, domain: 'example.test', path: '/two/' }, { blogId: 3, domain: 'example.test', path: '/three/' }],
      users: [],
      superAdmins: [],
    });
  });

  after(async () => {
    await net?.close();
  });

  it('stores a retried delivery once on each site: the receipt key is unique in every site\'s table', async () => {
    for (const blogId of [1, 2, 3]) {
      const site = await net.site(blogId);
      const key = { mailbox: 'support', dedupeKey: 'delivery:dlv-0123456789abcdef' };
      const claim = () => site.db.knex.transaction((trx) => claimReceipt(trx, site.db.tables, key, 1_800_000_000));
      assert.match(String(await claim()), /^[0-9a-f]{32}$/, `blog ${blogId}: the first delivery is claimed`);
      assert.equal(await claim(), null, `blog ${blogId}: the retry finds the key taken`);
    }
  });
});
