/**
 * The browser suites on a machine without Chromium: skipped with a message that says what to
 * install, unless CI is set (CI installs Chromium, so there a missing one fails the run).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

function runFormsSuite(env: Record<string, string>): { status: number | null; output: string } {
  const child = spawnSync(process.execPath, [
    path.join(ROOT, 'node_modules/mocha/bin/mocha.js'), '--no-config', '-r', 'tsx/cjs', '--extension', 'ts', '--timeout', '60000', '--exit',
    'test/browser/forms.test.ts',
  ], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: '', ...env, CHROMIUM_PATH: '/nonexistent/chromium' }, timeout: 120_000 });
  return { status: child.status, output: `${child.stdout}${child.stderr}` };
}

describe('browser suites without Chromium', function () {
  this.timeout(120_000);

  it('skip, saying what to install', () => {
    const { status, output } = runFormsSuite({});
    assert.equal(status, 0, output);
    assert.match(output, /skipped: no Chromium at \/nonexistent\/chromium; install it \(Debian: apt-get install chromium\)/);
    assert.match(output, /0 passing/);
    assert.match(output, /\d+ pending/);
  });

  it('fail under CI, which must run them', () => {
    const { status, output } = runFormsSuite({ CI: 'true' });
    assert.notEqual(status, 0, output);
    assert.match(output, /The browser tests must run in CI, but there is no Chromium at \/nonexistent\/chromium/);
  });
});
