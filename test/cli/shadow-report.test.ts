/**
 * Shadow evidence end to end: two `understudy proxy` processes (spawned, stopped by SIGTERM) on one
 * database shadow a route in front of an upstream that is Understudy
 * itself over the same database (so answers match) except where the test asks it to differ; one proxy
 * is restarted; `understudy shadow report` then shows exactly the exchanges sent, as text, JSON and
 * a safe HTML page.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSurface, createApp } from '../../lib/app';
import { OpenedSite } from '../../lib/boot';
import { ScratchDatabase, scratchDatabase } from '../harness/db';
import { Listening, listen, rawRequest } from '../harness/http';
import { cli, envFor, openFor, scratchDir } from './cli-harness';

const ROOT = path.resolve(__dirname, '../..');

/** Spawns `understudy proxy` as its own process; resolves once it listens. stop() sends SIGTERM. */
function startProxy(argv: string[], env: Record<string, string>): Promise<{ url: string; stop(): Promise<number | null> }> {
  const child = spawn(process.execPath, ['--require', require.resolve('tsx/cjs'), path.join(ROOT, 'bin/understudy.ts'), 'proxy', ...argv], {
    cwd: scratchDir(), env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (c: Buffer) => {
      stderr += c.toString();
      const url = / at (http:\/\/[^\s"]+)/.exec(stderr)?.[1];
      if (url) resolve({ url, stop: () => { child.kill('SIGTERM'); return exit; } });
    });
    void exit.then((code) => reject(new Error(`proxy exited with ${code}: ${stderr}`)));
  });
}

const HOSTILE = '<script>alert(1)</script>';

describe('understudy shadow report', () => {
  let db: ScratchDatabase;
  let env: Record<string, string>;
  let opened: OpenedSite;
  let upstream: Listening;
  let dir: string;
  let routes: string;

  before(async () => {
    db = await scratchDatabase();
    env = envFor(db.target);
    opened = await openFor(env);
    const understudy = createApp(opened.site, buildSurface());
    // The "PHP site": Understudy itself, except that a request asking for it answers differently.
    upstream = await listen((req, res) => {
      if (!req.url?.includes('differ=')) return void understudy(req, res);
      res.writeHead(200, { 'Content-Type': 'application/json; charset=UTF-8' }).end(JSON.stringify({ code: `<img src=x onerror=alert(1)>`, data: { status: 200 } }));
    });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-shadow-report-'));
    routes = path.join(dir, 'routes.json');
    fs.writeFileSync(routes, JSON.stringify({ routes: { '/support/v1/tickets': 'shadow' } }));
  });
  after(async () => {
    await upstream.close();
    await opened.site.close();
    await db.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const send = async (proxy: string, n: number, query = '') => {
    for (let i = 0; i < n; i++) {
      const answer = await rawRequest(proxy, { path: `/wp-json/support/v1/tickets${query}` });
      assert.ok(answer.status === 401 || query, `the client gets the upstream's answer (${answer.status})`);
    }
  };

  it('sums two proxy processes and a restart, and reports exactly the exchanges sent', async function () {
    this.timeout(60_000);
    const argv = [`--upstream=${upstream.url}`, '--port=0', `--routes=${routes}`];
    const [a, b] = await Promise.all([startProxy(argv, env), startProxy(argv, env)]);
    // Both at once: their counts reach the same rows concurrently.
    await Promise.all([send(a.url, 30).then(() => send(a.url, 2, `?differ=${HOSTILE}`)), send(b.url, 20)]);
    assert.equal(await a.stop(), 0);
    assert.equal(await b.stop(), 0);
    const again = await startProxy(argv, env);
    await send(again.url, 10);
    assert.equal(await again.stop(), 0);

    const json = await cli(['shadow', 'report', '--format=json', '--since=1d', '--min-compared=10'], env);
    assert.equal(json.status, 0, json.stderr);
    const report = JSON.parse(json.stdout);
    assert.equal(report.format, 'understudy-shadow-report/1');
    assert.equal(report.period, '1 day');
    const [tickets] = report.routes;
    assert.deepEqual({ ...tickets, topFields: undefined, verdict: undefined, matchRate: undefined }, {
      route: '/support/v1/tickets', compared: 62, matched: 60, differed: 2, noiseCancelled: 0, failed: 0, dropped: 0, skipped: 0,
      matchRate: undefined, ready: false, verdict: undefined, topFields: undefined, differencesKept: 2,
    });
    assert.equal(tickets.verdict, 'not ready: matched 60 of 62 over 1 day; 2 differed');
    const fields = new Map(tickets.topFields.map((f: { where: string; count: number }) => [f.where, f]));
    assert.equal((fields.get('status') as { count: number })?.count, 2);
    assert.deepEqual((fields.get('body.code') as { example: object })?.example, {
      method: 'GET', url: `/wp-json/support/v1/tickets?differ=${HOSTILE}`, seenAt: (fields.get('body.code') as { example: { seenAt: string } }).example.seenAt,
      where: 'body.code', expected: '<img src=x onerror=alert(1)>', actual: 'rest_forbidden',
    });

    const text = await cli(['shadow', 'report', '--since=1d', '--min-compared=10', '--min-rate=95'], env);
    assert.match(text.stdout, /^\/support\/v1\/tickets: ready to serve: matched 60 of 62 over 1 day$/m);
    assert.match(text.stdout, /compared 62, match rate 96\.77%, matched 60, noise cancelled 0, differed 2/);

    const html = path.join(dir, 'report.html');
    await cli(['shadow', 'report', '--since=1d', `--html=${html}`], env);
    const page = fs.readFileSync(html, 'utf8');
    assert.match(page, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">/);
    assert.ok(!/<script|<img/i.test(page), 'nothing from traffic is markup');
    assert.ok(page.includes('&#60;script&#62;alert(1)&#60;/script&#62;'), 'the hostile URL is shown, escaped');
    assert.ok(page.includes('&#60;img src=x onerror=alert(1)&#62;'), 'the hostile answer is shown, escaped');
    assert.ok(page.includes('not enough traffic yet: matched 60 of 62 over 1 day (100 comparisons wanted)'));
  });

  it('refuses a period it cannot read', async () => {
    const run = await cli(['shadow', 'report', '--since=last week'], env);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /--since must be a period such as 7d, 12h or 90m/);
  });
});
