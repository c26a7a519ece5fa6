/** The demo site's product changelog (lib/demo/changelog.ts), as the public routes and its feed show it. */
import assert from 'node:assert/strict';
import request from 'supertest';
import { createApp } from '../../../../lib/app';
import { seedDemoSite } from '../../../../lib/demo/seed';
import { fixedClock } from '../../../../lib/wp/clock';
import { Site } from '../../../../lib/wp/site';
import { envFor, openFor } from '../../../cli/cli-harness';
import { ScratchDatabase, scratchDatabase } from '../../../harness/db';

describe('the demo changelog', function () {
  let db: ScratchDatabase;
  let site: Site;

  before(async () => {
    db = await scratchDatabase();
    ({ site } = await openFor(envFor(db.target), fixedClock(Date.UTC(2026, 10, 25, 12))));
    assert.ok(await seedDemoSite(site));
  });
  after(async () => {
    await site?.close();
    await db?.drop();
  });

  it('lists one product with four releases, 2.0.0 the latest, and serves its feed', async () => {
    const app = createApp(site);
    const list = await request(app).get('/wp-json/support/v1/changelogs');
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(list.body.map((p: { slug: string; latest: string; releases: number }) => [p.slug, p.latest, p.releases]), [['help-desk-widget', '2.0.0', 4]]);
    const releases = await request(app).get('/wp-json/support/v1/changelogs/help-desk-widget?stable=1');
    assert.deepEqual(releases.body.map((r: { version: string }) => r.version), ['2.0.0', '1.10.0', '1.9.0']);
    assert.deepEqual(releases.body[0].changes[0], { type: 'added', text: '<help-desk-widget> element with a site-id attribute.' });
    const feed = await request(app).get(new URL(list.body[0].feed).pathname);
    assert.equal(feed.status, 200);
    assert.match(feed.headers['content-type'], /^application\/rss\+xml/);
  });
});
