/**
 * `understudy replay` proves parity: the replay runner sends real WordPress's traffic
 * (fixtures/oracle/wp-core-traffic.json) to a running Understudy over the database WordPress made,
 * with the WordPress default rules, and every exchange on a route Understudy serves must match.
 * Out of scope, by the rules' `exclude`: WordPress's own content routes (posts, a post type).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { buildSurface } from '../../lib/app';
import { parseCapture } from '../../lib/replay/capture';
import { textReport } from '../../lib/replay/report/text';
import { routeKeyOf } from '../../lib/replay/route-key';
import { compileRules } from '../../lib/replay/rules';
import { ReplayReport, runReplay } from '../../lib/replay/runner';
import { ORACLE_DIR } from '../harness/oracle';
import { RunningOracle, startOracleServer } from '../harness/running-oracle';

const exchanges = parseCapture(fs.readFileSync(path.join(ORACLE_DIR, 'wp-core-traffic.json'), 'utf8'));

describe('replay of the oracle capture against a running Understudy', function () {
  let running: RunningOracle;
  let report: ReplayReport;

  before(async () => {
    running = await startOracleServer();
    const { rest } = buildSurface();
    report = await runReplay(exchanges, {
      target: running.url,
      rules: compileRules({ exclude: ['/wp/v2/posts', '/wp/v2/types/*'] }),
      routeOf: (target) => routeKeyOf(target, rest),
    });
  });
  after(() => running.close());

  it('matches every in-scope exchange: status, significant headers and body', () => {
    assert.equal(report.totals.differed + report.totals.failed, 0, textReport(report));
    assert.equal(report.totals.matched, exchanges.length - report.totals.excluded);
  });

  it('leaves out only WordPress content routes, and few of them', () => {
    const excluded = report.results.filter((r) => r.outcome === 'excluded');
    assert.ok(excluded.every((r) => /^\/wp\/v2\/(posts|types\/)/.test(r.route)), excluded.map((r) => r.route).join(', '));
    assert.ok(report.totals.matched >= 30, `${report.totals.matched} of ${exchanges.length} in scope`);
  });

  it('covers users/me, the REST index errors and admin-ajax, grouped per route', () => {
    const routes = new Map(report.routes.map((r) => [r.route, r]));
    assert.ok((routes.get('/wp/v2/users/me')?.matched ?? 0) >= 20);
    assert.equal(routes.get('admin-ajax:rest-nonce')?.matched, 2);
    assert.equal(routes.get('admin-ajax:(none)')?.matched, 1);
  });
});
