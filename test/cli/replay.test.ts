/**
 * `understudy replay` run in-process against a running Understudy over the oracle site: exit status
 * for CI, the text, JSON and HTML reports, credentials swapped from the command line and never
 * printed anywhere.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseCapture } from '../../lib/replay/capture';
import { secretsOf } from '../../lib/replay/credentials';
import { ORACLE_DIR } from '../harness/oracle';
import { RunningOracle, startOracleServer } from '../harness/running-oracle';
import { cli } from './cli-harness';

const CORPUS = path.resolve(__dirname, '../../fixtures/captures');
const USERS_ME = path.join(CORPUS, 'users-me.har');
const SWAP = 'basic:agent1:PRODUCTION-ONLY-APP-PASSWORD=>agent1:GS8yDnovSbhrktQHv65RwbuD';

/** Every credential the corpus's users/me capture carries, plus the swap's. */
const SECRETS = [
  ...parseCapture(fs.readFileSync(USERS_ME, 'utf8')).flatMap((e) => secretsOf(e.request)).filter((s) => s.length >= 8),
  'PRODUCTION-ONLY-APP-PASSWORD', 'GS8yDnovSbhrktQHv65RwbuD', Buffer.from('agent1:GS8yDnovSbhrktQHv65RwbuD').toString('base64'),
];

describe('understudy replay', () => {
  let running: RunningOracle;
  let dir: string;

  before(async () => {
    running = await startOracleServer();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-replay-'));
  });
  after(async () => {
    await running.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('replays a HAR capture, prints the summary and the route table, and exits 0 when all match', async () => {
    // Relative paths, as a user types them in the repository.
    const run = await cli(['replay', 'fixtures/captures/users-me.har', `--target=${running.url}`, '--rules=fixtures/captures/corpus-rules.json'], {}, { cwd: path.resolve(__dirname, '../..') });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    const lines = run.stdout.split('\n');
    assert.equal(lines[0], `Replayed 10 exchanges against ${running.url}: 10 matched, 0 differed, 0 failed, 0 excluded`);
    assert.match(run.stdout, /^\/wp\/v2\/users\/me\s+10\s+0\s+0\s+0$/m);
    assert.match(run.stderr, /^replay: 10\/10 sent, 0 not matching$/m, 'progress as counter lines off a terminal');
  });

  it('replays the oracle capture (Understudy\'s JSON format) with a rules file excluding WordPress content', async () => {
    const rules = path.join(dir, 'rules.json');
    fs.writeFileSync(rules, JSON.stringify({ exclude: ['/wp/v2/posts', '/wp/v2/types/*'] }));
    const run = await cli(['replay', path.join(ORACLE_DIR, 'wp-core-traffic.json'), '--target', running.url, `--rules=${rules}`], {});
    assert.equal(run.status, 0, run.stdout);
    assert.match(run.stdout, /: 34 matched, 0 differed, 0 failed, 8 excluded/);
  });

  it('exits 1 on a difference, shows it as -/+ lines, and prints no credential in any report', async () => {
    const html = path.join(dir, 'report.html');
    const run = await cli(['replay', USERS_ME, `--target=${running.url}`, `--html=${html}`], {});
    assert.equal(run.status, 1);
    assert.match(run.stdout, /9 matched, 1 differed/);
    assert.ok(run.stdout.includes('✗ users/me with a production-only app password (swapped by corpus-rules.json)  [/wp/v2/users/me]'));
    assert.ok(run.stdout.includes('  status\n    - 200\n    + 401\n'));
    const report = fs.readFileSync(html, 'utf8');
    assert.match(report, /^<!DOCTYPE html>/);
    assert.match(run.stderr, /HTML report written to /);
    const json = await cli(['replay', USERS_ME, `--target=${running.url}`, '--json'], {});
    for (const secret of SECRETS) {
      for (const [where, text] of [['stdout', run.stdout], ['stderr', run.stderr], ['html', report], ['json', json.stdout]]) {
        assert.ok(!text?.includes(secret), `${secret.slice(0, 12)}… printed in ${where}`);
      }
    }
  });

  it('swaps a captured credential given on the command line, as the rules file would', async () => {
    const run = await cli(['replay', USERS_ME, `--target=${running.url}`, '--credential', SWAP], {});
    assert.equal(run.status, 0, run.stdout);
  });

  it('prints the JSON report alone on stdout with --format=json (or --json)', async () => {
    const run = await cli(['replay', USERS_ME, `--target=${running.url}`, '--format=json', `--credential=${SWAP}`], {});
    const report = JSON.parse(run.stdout);
    assert.equal(report.format, 'understudy-replay/1');
    assert.deepEqual(report.totals, { exchanges: 10, matched: 10, differed: 0, failed: 0, excluded: 0 });
    assert.equal(report.results[0].name, 'users/me cookie+nonce (manager1)');
  });

  it('counts an unreachable target as failures, and exits 1', async () => {
    const run = await cli(['replay', path.join(CORPUS, 'plugin-routes.har'), '--target=http://127.0.0.1:1', '--timeout=2000'], {});
    assert.equal(run.status, 1);
    assert.match(run.stdout, /0 matched, 0 differed, 4 failed/);
    assert.match(run.stdout, /failed: connect ECONNREFUSED/);
  });

  it('refuses bad command lines without echoing secrets', async () => {
    assert.match((await cli(['replay', USERS_ME], {})).stderr, /^Error: --target must be the URL/);
    assert.match((await cli(['replay', '--target=http://x.test'], {})).stderr, /^Error: Usage: understudy replay <capture>/);
    assert.match((await cli(['replay', 'nope.har', '--target=http://x.test'], {})).stderr, /^Error: cannot read the capture file nope\.har/);
    const bad = await cli(['replay', USERS_ME, '--target=http://x.test', '--credential=agent1:SECRET-VALUE'], {});
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /--credential must look like <type>:<captured>=><replacement>/);
    assert.ok(!bad.stderr.includes('SECRET-VALUE'));
    const rules = path.join(dir, 'bad-rules.json');
    fs.writeFileSync(rules, JSON.stringify({ volatile: [{ header: 'x', pattern: '(' }] }));
    assert.match((await cli(['replay', USERS_ME, '--target=http://x.test', `--rules=${rules}`], {})).stderr, /^Error: bad-rules\.json: Invalid regular expression/);
  });
});
