/**
 * Release views on a network served by one process: each site stores the views of its own releases.
 * Posts are numbered per site, so two sites' releases may share an ID and notes; a render of one
 * site's release under way is not another site's (it stores to its own site only).
 */
import assert from 'node:assert/strict';
import { parseChangelog } from '../../../../lib/support/changelogs/parse';
import { releaseHeads, releasesOf } from '../../../../lib/support/changelogs/store';
import { storeViews } from '../../../../lib/support/changelogs/views';
import { insertProduct, upsertReleases } from '../../../../lib/support/changelogs/writes';
import { Site } from '../../../../lib/wp/site';
import { TestNetwork, buildNetwork } from '../../../harness/network';

const NOTES = '## 1.0.0\n- The same notes on both sites\n';

describe('changelog release views on a network in one process', function () {
  this.timeout(60_000);
  let net: TestNetwork;

  before(async () => {
    net = await buildNetwork({
      domain: 'example.test',
      install: { subdomainInstall: false, current: { domain: 'example.test', path: '/', networkId: 1 } },
      blogs: [1, 2, 3].map((blogId) => ({ blogId, domain: 'example.test', path: blogId === 1 ? '/' : `/site${blogId}/` })),
      users: [],
      superAdmins: [],
    });
  });

  after(async () => {
    await net?.close();
  });

  async function releaseOf(site: Site) {
    const product = await insertProduct(site, 'app', { name: 'App', type: 'app', url: 'https://example.test/app', source: '', sourceKind: 'changelog' });
    await upsertReleases(site, product, parseChangelog(NOTES).releases);
    return releasesOf(site.db, await releaseHeads(site.db, [product], true));
  }

  it('stores the view on each site when both sites render a release of the same ID and notes at once', async () => {
    const [two, three] = [await net.site(2), await net.site(3)];
    const [onTwo, onThree] = [await releaseOf(two), await releaseOf(three)];
    assert.deepEqual(onTwo.map((r) => r.postId), onThree.map((r) => r.postId), 'the same release IDs on both sites');
    await Promise.all([storeViews(two, onTwo), storeViews(three, onThree)]);
    for (const [name, site, releases] of [['two', two, onTwo], ['three', three, onThree]] as const) {
      const stored = await releasesOf(site.db, await releaseHeads(site.db, releases.map((r) => r.productId), true));
      assert.ok(stored.length > 0 && stored.every((r) => r.rendered), `site ${name} has its release's view stored`);
    }
  });
});
