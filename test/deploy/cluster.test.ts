/**
 * `serve --workers=2`: the real process forks two workers on one port. Requests on new connections
 * are answered by both (the request log names each process), the metrics port and the token path add
 * up every worker's counts, and SIGTERM to the primary stops both workers and exits 0.
 */
import assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { demoFixture, seedDemoSite } from '../../lib/demo/seed';
import { envFor, openFor, scratchDir } from '../cli/cli-harness';
import { ScratchDatabase, scratchDatabase } from '../harness/db';
import { freePort } from './nginx-harness';
import { requestRecords } from './serve-harness';

const ROOT = path.resolve(__dirname, '../..');
const agent = demoFixture.users.find((u) => u.login === 'agent')!;
const AUTH = `Basic ${Buffer.from(`agent:${agent.application_password.password}`).toString('base64')}`;

function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    http.get(url, { agent: false, headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => { text += c.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    }).on('error', reject);
  });
}

describe('serve --workers=2', function () {
  this.timeout(60_000);
  let db: ScratchDatabase;
  let child: ChildProcess | null = null;

  before(async () => {
    db = await scratchDatabase();
    const { site } = await openFor(envFor(db.target));
    try {
      await seedDemoSite(site);
    } finally {
      await site.close();
    }
  });
  after(async () => {
    if (child?.exitCode === null) child.kill('SIGKILL');
    await db?.drop();
  });

  it('answers from two processes on one port, sums their metrics, and stops both on SIGTERM', async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    const token = 'cluster-metrics-token-0123456789';
    const env = envFor(db.target, { WP_ENVIRONMENT_TYPE: 'local', LOG_FORMAT: 'json', PATH: process.env.PATH ?? '', METRICS_TOKEN: token });
    child = spawn(process.execPath, ['--require', require.resolve('tsx/cjs'), path.join(ROOT, 'bin/understudy.ts'), 'serve', `--port=${port}`, '--workers=2', `--metrics-port=${metricsPort}`], {
      cwd: scratchDir(), env, stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => { stderr += c.toString(); });
    const exit = new Promise<number | null>((resolve) => child?.once('exit', (code) => resolve(code)));
    const url = `http://127.0.0.1:${port}`;
    while ((stderr.match(/Understudy is serving .* at http:\/\/127\.0\.0\.1:\d+(?![\d ])/g) ?? []).length < 2) {
      if (child.exitCode !== null) throw new Error(stderr);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.match(stderr, /with 2 workers/);

    for (let i = 0; i < 24; i++) assert.equal((await get(`${url}/wp-json/support/v1/tickets?per_page=1`, { Authorization: AUTH })).status, 200);
    const pids = new Set(requestRecords(stderr).map((r) => r.pid));
    assert.equal(pids.size, 2, `answered by ${[...pids].join(', ')}`);
    assert.ok(!pids.has(child.pid), 'the primary answers no request itself');

    const metrics = await get(`http://127.0.0.1:${metricsPort}/metrics`);
    assert.equal(metrics.status, 200, metrics.text);
    assert.match(metrics.text, /understudy_http_requests_total\{route="\/support\/v1\/tickets",method="GET",status="200"\} 24/);
    // With METRICS_TOKEN, whichever worker takes /-/metrics answers the whole server's figures too.
    for (let i = 0; i < 2; i++) {
      const byToken = await get(`${url}/-/metrics`, { Authorization: `Bearer ${token}` });
      assert.equal(byToken.status, 200, byToken.text);
      assert.match(byToken.text, /understudy_http_requests_total\{route="\/support\/v1\/tickets",method="GET",status="200"\} 24/);
    }

    child.kill('SIGTERM');
    assert.equal(await exit, 0, stderr);
    assert.match(stderr, /SIGTERM: shutting down 2 workers/);
    await assert.rejects(get(`${url}/-/health/live`));
  });
});
