/**
 * `understudy proxy` and `understudy shadow status`, run in-process: the proxy listens on port 0 in
 * front of a real upstream on loopback, serves the plugins' routes, passes the rest, shadows what the
 * routing file says, reports match rates to `shadow status`, and prints them when it stops.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../../lib/cli';
import { ScratchDatabase, scratchDatabase } from '../harness/db';
import { eventually } from '../harness/eventually';
import { Listening, listen, rawRequest } from '../harness/http';
import { SeenRequest, recordedSite } from '../harness/recorded-site';
import { capture, cli, envFor, scratchDir } from './cli-harness';

interface StartedProxy {
  url: string;
  stderr: ReturnType<typeof capture>;
  stop(): Promise<number>;
}

/** Starts `proxy` and waits for its start-up line; fails if the command ends first. */
async function startProxy(argv: string[], env: Record<string, string>): Promise<StartedProxy> {
  const stdout = capture();
  const stderr = capture();
  const controller = new AbortController();
  const done = runCli(['proxy', ...argv], { env, cwd: scratchDir(), stdout, stderr, signal: controller.signal });
  let finished = false;
  void done.finally(() => { finished = true; });
  for (let waited = 0; waited < 20_000; waited += 20) {
    const match = / at (http:\/\/[^\s"]+)/.exec(stderr.text());
    if (match) return { url: match[1] as string, stderr, stop: () => { controller.abort(); return done; } };
    if (finished) throw new Error(`proxy ended before listening (status ${await done}): ${stderr.text()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  controller.abort();
  await done;
  throw new Error(`proxy did not start: ${stderr.text()}`);
}

describe('understudy proxy', () => {
  let db: ScratchDatabase;
  let env: Record<string, string>;
  let upstream: Listening;
  let dir: string;
  const seen: SeenRequest[] = [];

  before(async () => {
    db = await scratchDatabase();
    env = envFor(db.target);
    upstream = await listen(recordedSite([], seen));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-proxy-'));
  });
  after(async () => {
    await upstream.close();
    await db.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves, passes and shadows as routed, reports match rates, and prints them when it stops', async () => {
    const routes = path.join(dir, 'routes.json');
    fs.writeFileSync(routes, JSON.stringify({ routes: { '/wp/v2/users/me': 'shadow' } }));
    const proxy = await startProxy([`--upstream=${upstream.url}`, '--port=0', `--routes=${routes}`], env);
    try {
      assert.match(proxy.stderr.text(), new RegExp(`Understudy proxy for ${upstream.url} is serving`));
      const served = await rawRequest(proxy.url, { path: '/wp-json/support/v1/tickets' });
      assert.equal(JSON.parse(served.body.toString()).code, 'rest_forbidden');
      const page = await rawRequest(proxy.url, { path: '/blog/hello/' });
      assert.equal(JSON.parse(page.body.toString()).from, 'upstream');
      const shadowed = await rawRequest(proxy.url, { path: '/wp-json/wp/v2/users/me' });
      assert.equal(JSON.parse(shadowed.body.toString()).from, 'upstream', 'the client gets the upstream\'s answer');
      assert.deepEqual(seen.slice(0, 2).map((s) => s.url), ['/blog/hello/', '/wp-json/wp/v2/users/me']);

      let status = '';
      await eventually(async () => {
        status = (await cli(['shadow', 'status', `--proxy=${proxy.url}`], env)).stdout;
        return /\| \/wp\/v2\/users\/me\s+\| 1\s+\| 0\.0%/.test(status);
      }, 5000);
      assert.match(status, /^Shadow traffic since \S+ \(0 comparisons pending\)$/m);
      assert.match(status, /\| route\s+\| compared \| match rate \| matched \| differed \| noise \| failed \| dropped \| skipped \|/);
      const json = JSON.parse((await cli(['shadow', 'status', `--proxy=${proxy.url}`, '--format=json'], env)).stdout);
      assert.equal(json.routes[0].differed, 1, 'Understudy says 401 where the upstream said 200');
    } finally {
      assert.equal(await proxy.stop(), 0);
    }
    // LOG_FORMAT=json (stderr is no terminal): every line is JSON, the shutdown summary too.
    const lines = proxy.stderr.text().trim().split('\n').map((text) => JSON.parse(text) as { msg: string; shadow?: { totals: { compared: number } } });
    const stopped = lines.findIndex((l) => l.msg === 'stop requested: shutting down');
    assert.equal(lines[stopped + 1]?.msg, 'shadow traffic since the start');
    assert.equal(lines[stopped + 1]?.shadow?.totals.compared, 1);
  });

  it('refuses a routing file that serves what Understudy lacks, before listening', async () => {
    const routes = path.join(dir, 'bad-routes.json');
    fs.writeFileSync(routes, JSON.stringify({ namespaces: { 'shop/v1': 'serve' } }));
    const run = await cli(['proxy', `--upstream=${upstream.url}`, '--port=0', `--routes=${routes}`], env);
    assert.deepEqual(run, { status: 1, stdout: '', stderr: 'Error: bad-routes.json: Understudy has no namespace "shop/v1" to serve\n' });
  });

  it('needs an upstream URL', async () => {
    assert.match((await cli(['proxy', '--port=0'], env)).stderr, /^Error: --upstream must be the URL of the PHP site/);
  });

  it('shadow status says clearly when nothing answers it', async () => {
    const run = await cli(['shadow', 'status', '--proxy=http://127.0.0.1:1'], env);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /^Error: no answer from the proxy at http:\/\/127\.0\.0\.1:1/);
    const notProxy = await cli(['shadow', 'status', `--proxy=${upstream.url}`], env);
    assert.match(notProxy.stderr, /did not answer shadow counters/);
  });
});
