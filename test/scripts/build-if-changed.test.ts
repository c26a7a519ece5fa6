/**
 * `npm start` builds dist/ only when the sources changed (scripts/build-if-changed.mjs), in a copy
 * of the project so that this repository's dist/ is left alone.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const COPIED = ['scripts', 'bin', 'lib', 'routes', 'schema', 'fixtures/demo', 'fixtures/replay', 'fixtures/site', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

function buildIfChanged(project: string): { status: number | null; stderr: string } {
  const run = spawnSync(process.execPath, [path.join(project, 'scripts', 'build-if-changed.mjs')], { cwd: project, encoding: 'utf8', timeout: 300_000 });
  return { status: run.status, stderr: `${run.stderr}${run.stdout}` };
}

describe('npm start builds only what changed', function () {
  this.timeout(300_000);
  let project: string;

  before(() => {
    project = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-build-'));
    for (const name of COPIED) fs.cpSync(path.join(ROOT, name), path.join(project, name), { recursive: true });
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(project, 'node_modules'));
  });

  after(() => {
    if (project) fs.rmSync(project, { recursive: true, force: true });
  });

  it('is what npm start and npm install run before starting', () => {
    const scripts = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
    assert.equal(scripts.prestart, 'node scripts/build-if-changed.mjs');
    assert.equal(scripts.prepare, 'node scripts/build-if-changed.mjs');
  });

  it('builds a fresh copy, skips the build when nothing changed, and builds again after a change', () => {
    const entry = path.join(project, 'dist', 'bin', 'understudy.js');
    const first = buildIfChanged(project);
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stderr, /Building dist\//);
    assert.ok(fs.existsSync(entry));

    fs.rmSync(path.join(project, 'dist', 'lib', 'logger.js'));
    const second = buildIfChanged(project);
    assert.equal(second.status, 0, second.stderr);
    assert.equal(second.stderr, '');
    assert.ok(!fs.existsSync(path.join(project, 'dist', 'lib', 'logger.js')), 'nothing was built');

    fs.appendFileSync(path.join(project, 'lib', 'logger.ts'), '\n// changed\n');
    const third = buildIfChanged(project);
    assert.equal(third.status, 0, third.stderr);
    assert.match(third.stderr, /Building dist\//);
    assert.match(fs.readFileSync(path.join(project, 'dist', 'lib', 'logger.js'), 'utf8'), /consoleLogger/);
  });
});
