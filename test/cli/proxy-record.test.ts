/**
 * `understudy proxy --record` from the command line: recording options need --record and sound
 * values; a proxy started with --record writes HAR files of what passed, prints its progress line at
 * shutdown, and `understudy replay <dir>` reads the folder.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../../lib/cli';
import { parseCapture } from '../../lib/replay/capture';
import { ScratchDatabase, scratchDatabase } from '../harness/db';
import { Listening, listen, rawRequest } from '../harness/http';
import { recordedSite } from '../harness/recorded-site';
import { capture, cli, envFor, scratchDir } from './cli-harness';

describe('understudy proxy --record', () => {
  let db: ScratchDatabase;
  let env: Record<string, string>;
  let upstream: Listening;
  let dir: string;

  before(async () => {
    db = await scratchDatabase();
    env = envFor(db.target);
    upstream = await listen(recordedSite([]));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-proxy-record-'));
  });
  after(async () => {
    await upstream.close();
    await db.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses recording options without --record, and unsound values', async () => {
    const base = [`--upstream=${upstream.url}`, '--port=0'];
    assert.equal((await cli(['proxy', ...base, '--record-sample=0.5'], env)).stderr, 'Error: --record-sample needs --record=<dir>\n');
    assert.match((await cli(['proxy', ...base, `--record=${dir}`, '--record-sample=2'], env)).stderr, /^Error: --record-sample must be a share above 0 and at most 1/);
    assert.match((await cli(['proxy', ...base, `--record=${dir}`, '--record-files=0'], env)).stderr, /^Error: --record-files must be a whole number of 1 or more/);
    assert.match((await cli(['proxy', ...base, '--upstream-timeout=soon'], env)).stderr, /^Error: --upstream-timeout must be a duration such as 30 \(seconds\), 500ms or 2m/);
  });

  it('records what passes, only on the routes asked for, and says how much at shutdown', async () => {
    const recording = path.join(dir, 'rec');
    const stderr = capture();
    const controller = new AbortController();
    const done = runCli(['proxy', `--upstream=${upstream.url}`, '--port=0', `--record=${recording}`, '--record-routes=page:/blog/**'], {
      env, cwd: scratchDir(), stdout: capture(), stderr, signal: controller.signal,
    });
    let url = '';
    for (let waited = 0; !url && waited < 20_000; waited += 20) {
      url = / at (http:\/\/[^\s"]+)/.exec(stderr.text())?.[1] ?? '';
      if (!url) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await rawRequest(url, { path: '/blog/hello/', headers: ['Cookie', 'wordpress_logged_in_abc=agent1%7C1796%7Csecret-session-token%7Chmac'] });
    await rawRequest(url, { path: '/shop/' });
    controller.abort();
    assert.equal(await done, 0);
    assert.match(stderr.text(), /"msg":"recording: 1 exchanges, [\d.]+ MiB in 1 file, 0 dropped, 0 cut"\}\n/, 'a JSON log line (LOG_FORMAT=json off a terminal)');
    const [file] = fs.readdirSync(recording);
    const text = fs.readFileSync(path.join(recording, file as string), 'utf8');
    assert.ok(!text.includes('secret-session-token'));
    const exchanges = parseCapture(text);
    assert.deepEqual(exchanges.map((e) => new URL(e.request.url).pathname), ['/blog/hello/']);
    assert.deepEqual(exchanges[0]?.request.headers.find(([n]) => n === 'Cookie'), ['Cookie', 'wordpress_logged_in_abc=<cookie:user agent1>']);
  });
});
