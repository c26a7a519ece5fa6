/** The demo site's docs (lib/demo/docs.ts): seeded with the demo, in two collections, found by a search with a typo. */
import assert from 'node:assert/strict';
import request from 'supertest';
import { createApp } from '../../../../lib/app';
import { DEMO_DOCS } from '../../../../lib/demo/docs';
import { seedDemoSite } from '../../../../lib/demo/seed';
import { fixedClock } from '../../../../lib/wp/clock';
import { Site } from '../../../../lib/wp/site';
import { envFor, openFor } from '../../../cli/cli-harness';
import { ScratchDatabase, scratchDatabase } from '../../../harness/db';
import { loadDocsIndex } from '../../../harness/desk';

describe('the demo docs', function () {
  let db: ScratchDatabase;
  let site: Site;

  before(async () => {
    db = await scratchDatabase();
    ({ site } = await openFor(envFor(db.target), fixedClock(Date.UTC(2026, 10, 25, 12))));
    assert.ok(await seedDemoSite(site));
    await loadDocsIndex(site);
  });
  after(async () => {
    await site?.close();
    await db?.drop();
  });

  it('are seeded with the demo in two collections, and a search with a typo finds the password doc', async () => {
    assert.deepEqual(new Set(DEMO_DOCS.flatMap((d) => d.collections)), new Set(['getting-started', 'account']));
    const app = createApp(site);
    const res = await request(app).get('/wp-json/support/v1/docs/search').query({ q: 'pasword' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body[0].title, 'Password reset');
    assert.equal(res.body[0].excerpt, 'Forgot your password? Reset it from the sign-in page.');
    assert.equal(res.body[0].collection, 'account');
    const started = await request(app).get('/wp-json/support/v1/docs/search').query({ q: 'mailbox', collection: 'getting-started' });
    assert.deepEqual(started.body.map((r: { title: string }) => r.title), ['Connecting a mailbox']);
  });
});
