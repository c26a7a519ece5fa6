/** One small replay report for the report tests: a match, a difference, a failure, an exclusion. */
import { ReplayReport } from '../../../../lib/replay/runner';

export function sampleReport(): ReplayReport {
  const base = { method: 'GET', expectedStatus: 200, ms: 3 };
  return {
    target: 'http://127.0.0.1:8080',
    startedAt: '2026-11-22T13:00:00.000Z',
    finishedAt: '2026-11-22T13:00:01.000Z',
    totals: { exchanges: 4, matched: 1, differed: 1, failed: 1, excluded: 1 },
    routes: [
      { route: '/wp/v2/users/me', matched: 1, differed: 1, failed: 0, excluded: 0 },
      { route: 'admin-ajax:rest-nonce', matched: 0, differed: 0, failed: 1, excluded: 0 },
      { route: '/wp/v2/posts', matched: 0, differed: 0, failed: 0, excluded: 1 },
    ],
    results: [
      { ...base, index: 0, name: 'me', route: '/wp/v2/users/me', url: 'http://x/wp-json/wp/v2/users/me', outcome: 'matched', actualStatus: 200, diffs: [] },
      {
        ...base, index: 1, name: '<script>alert(1)</script> me', route: '/wp/v2/users/me', url: 'http://x/wp-json/wp/v2/users/me?a=<b>',
        outcome: 'differed', actualStatus: 403,
        diffs: [{ where: 'status', expected: '200', actual: '403' }, { where: 'body.name', expected: '</pre><img src=x onerror=alert(1)>', actual: 'line1\nline2' }],
      },
      { ...base, index: 2, name: 'nonce', route: 'admin-ajax:rest-nonce', url: 'http://x/wp-admin/admin-ajax.php?action=rest-nonce', outcome: 'failed', diffs: [], error: 'socket hang up' },
      { ...base, index: 3, name: 'posts', route: '/wp/v2/posts', url: 'http://x/wp-json/wp/v2/posts', outcome: 'excluded', diffs: [], ms: 0 },
    ],
  };
}
