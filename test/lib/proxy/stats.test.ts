/** Shadow counters: per route, with totals and a match rate that counts cancelled noise as a match. */
import assert from 'node:assert/strict';
import { ShadowStats, matchRate } from '../../../lib/proxy/stats';

describe('shadow stats', () => {
  it('counts per route, derives compared and the match rate, and totals every route', () => {
    const stats = new ShadowStats();
    for (const counter of ['matched', 'matched', 'noiseCancelled', 'differed', 'dropped', 'failed'] as const) stats.count('/support/v1/tickets', counter);
    stats.count('admin-ajax:frm_form_submit', 'skipped');
    const status = stats.snapshot(3);
    assert.equal(status.pending, 3);
    assert.deepEqual(status.routes.map((r) => r.route), ['/support/v1/tickets', 'admin-ajax:frm_form_submit'].sort());
    const tickets = status.routes.find((r) => r.route === '/support/v1/tickets');
    assert.deepEqual(tickets, {
      route: '/support/v1/tickets', compared: 4, matched: 2, differed: 1, noiseCancelled: 1, failed: 1, dropped: 1, skipped: 0, matchRate: 0.75,
    });
    assert.equal(status.routes.find((r) => r.route === 'admin-ajax:frm_form_submit')?.matchRate, null);
    assert.deepEqual(status.totals, { compared: 4, matched: 2, differed: 1, noiseCancelled: 1, failed: 1, dropped: 1, skipped: 1 });
    assert.equal(matchRate(status.totals), 0.75);
  });

  it('counts each site of a network apart, by blog then route, with one total', () => {
    const stats = new ShadowStats();
    stats.count('/wp/v2/users/me', 'differed', 3);
    stats.count('/wp/v2/users/me', 'matched', 2);
    stats.count('/wp/v2/users/me', 'matched', 3);
    const status = stats.snapshot(0);
    assert.deepEqual(status.routes.map((r) => [r.blogId, r.route, r.compared, r.matchRate]), [[2, '/wp/v2/users/me', 1, 1], [3, '/wp/v2/users/me', 2, 0.5]]);
    assert.equal(status.totals.compared, 3);
  });
});
