/** The demo docs (lib/demo/docs.ts): written once, in two collections, found by a search with a typo. */
import assert from 'node:assert/strict';
import request from 'supertest';
import { DEMO_DOCS, seedDemoDocs } from '../../../../lib/demo/docs';
import { TestSite, openTestSite } from '../../../harness/outbound';
import { API } from '../../../harness/support';

describe('demo docs', function () {
  let t: TestSite;
  before(async () => {
    t = await openTestSite();
  });
  after(async () => {
    await t?.close();
  });

  it('are written once, and a search with a typo finds the password doc', async () => {
    assert.equal(await seedDemoDocs(t.site), DEMO_DOCS.length);
    assert.equal(await seedDemoDocs(t.site), 0);
    assert.deepEqual(new Set(DEMO_DOCS.flatMap((d) => d.collections)), new Set(['getting-started', 'account']));
    const res = await request(t.app).get(`${API}/docs/search`).query({ q: 'pasword' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body[0].title, 'Password reset');
    assert.equal(res.body[0].excerpt, 'Forgot your password? Reset it from the sign-in page.');
  });
});
