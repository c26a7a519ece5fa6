/**
 * The capture corpus (fixtures/captures/) replayed against a running Understudy over the oracle site
 * with the corpus rules: HAR and JSON captures alike, every exchange matching.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { buildSurface } from '../../lib/app';
import { parseCapture } from '../../lib/replay/capture';
import { textReport } from '../../lib/replay/report/text';
import { routeKeyOf } from '../../lib/replay/route-key';
import { loadRules } from '../../lib/replay/rules';
import { runReplay } from '../../lib/replay/runner';
import { RunningOracle, startOracleServer } from '../harness/running-oracle';

const CORPUS = path.resolve(__dirname, '../../fixtures/captures');
const captures = fs.readdirSync(CORPUS).filter((f) => /\.(har|json)$/.test(f) && f !== 'corpus-rules.json').sort();

describe('the capture corpus replayed against a running Understudy', () => {
  let running: RunningOracle;
  const rules = loadRules(path.join(CORPUS, 'corpus-rules.json'));
  const { rest } = buildSurface();

  before(async () => {
    running = await startOracleServer();
  });
  after(() => running.close());

  it('holds both capture formats and a fair number of exchanges', () => {
    assert.ok(captures.some((f) => f.endsWith('.har')) && captures.some((f) => f.endsWith('.json')), captures.join(', '));
    const total = captures.reduce((n, f) => n + parseCapture(fs.readFileSync(path.join(CORPUS, f), 'utf8')).length, 0);
    assert.ok(total >= 20, `${total} exchanges`);
  });

  it('needs the corpus rules\' credential swap: the captured "production" password alone is refused', async () => {
    const exchanges = parseCapture(fs.readFileSync(path.join(CORPUS, 'users-me.har'), 'utf8'));
    const report = await runReplay(exchanges, { target: running.url, rules: loadRules(), routeOf: (t) => routeKeyOf(t, rest) });
    const refused = report.results.filter((r) => r.outcome !== 'matched');
    assert.deepEqual(refused.map((r) => [r.name, r.actualStatus]), [['users/me with a production-only app password (swapped by corpus-rules.json)', 401]]);
  });

  for (const file of captures) {
    it(`matches every exchange of ${file}`, async () => {
      const exchanges = parseCapture(fs.readFileSync(path.join(CORPUS, file), 'utf8'));
      const report = await runReplay(exchanges, { target: running.url, rules, routeOf: (t) => routeKeyOf(t, rest) });
      assert.equal(report.totals.matched, exchanges.length, textReport(report));
    });
  }
});
