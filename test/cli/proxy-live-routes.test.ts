/**
 * Live route switches on a real `understudy proxy` process: a route moves from pass to serve when the
 * routing file is edited, without a restart; a broken file, announced by SIGHUP, keeps the routes in
 * force and the log says why; SIGHUP applies a good file at once.
 */
import assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ScratchDatabase, scratchDatabase } from '../harness/db';
import { eventually } from '../harness/eventually';
import { Listening, listen, rawRequest } from '../harness/http';
import { recordedSite } from '../harness/recorded-site';
import { envFor, scratchDir } from './cli-harness';

const ROOT = path.resolve(__dirname, '../..');

describe('understudy proxy: live route switches', () => {
  let db: ScratchDatabase;
  let upstream: Listening;
  let dir: string;
  let child: ChildProcess | undefined;

  before(async () => {
    db = await scratchDatabase();
    upstream = await listen(recordedSite([]));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-live-routes-'));
  });
  after(async () => {
    child?.kill('SIGKILL');
    await upstream.close();
    await db.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('switches a route on an edit and on SIGHUP, and keeps the routes when the file is broken', async function () {
    this.timeout(60_000);
    const routes = path.join(dir, 'routes.json');
    fs.writeFileSync(routes, JSON.stringify({ routes: { '/support/v1/tickets': 'pass' } }));
    const proc = spawn(process.execPath, ['--require', require.resolve('tsx/cjs'), path.join(ROOT, 'bin/understudy.ts'), 'proxy', `--upstream=${upstream.url}`, '--port=0', `--routes=${routes}`], {
      cwd: scratchDir(), env: { PATH: process.env.PATH ?? '', ...envFor(db.target) }, stdio: ['ignore', 'ignore', 'pipe'],
    });
    child = proc;
    let stderr = '';
    proc.stderr?.on('data', (c: Buffer) => { stderr += c.toString(); });
    await eventually(async () => / at http:\/\/\S+\n/.test(stderr), 30_000);
    const url = (/ at (http:\/\/[^\s"]+)/.exec(stderr) as RegExpExecArray)[1] as string;
    const whoAnswers = async () => (JSON.parse((await rawRequest(url, { path: '/wp-json/support/v1/tickets' })).body.toString()).from === 'upstream' ? 'php' : 'understudy');
    assert.equal(await whoAnswers(), 'php');

    fs.writeFileSync(routes, JSON.stringify({ routes: { '/support/v1/tickets': 'serve' } }));
    await eventually(async () => (await whoAnswers()) === 'understudy', 15_000);
    assert.match(stderr, /routing file routes\.json re-read \(file changed[^)]*\): routes \/support\/v1\/tickets: pass -> serve/);

    fs.writeFileSync(routes, '{"routes": {"/support/v1/tickets": "pass"');
    proc.kill('SIGHUP');
    await eventually(async () => /routes\.json not applied \(SIGHUP\); the previous routes stay in force/.test(stderr), 15_000);
    assert.equal(await whoAnswers(), 'understudy');

    fs.writeFileSync(routes, JSON.stringify({ routes: { '/support/v1/tickets': 'pass' } }));
    proc.kill('SIGHUP');
    await eventually(async () => (await whoAnswers()) === 'php', 15_000);
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill('SIGTERM');
    assert.equal(await exited, 0);
  });
});
