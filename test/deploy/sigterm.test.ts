/**
 * Restarts lose nothing (docs/deploy.md): the real `understudy serve` process gets SIGTERM in the
 * middle of a burst of ticket creations. Every ticket answered 2xx is stored; requests already being
 * received are answered, not reset (the request log shows every request the server began to read,
 * and none was cut short); the process exits 0; and the team-alert jobs it was running (stuck on a
 * receiver that never answers) are handed back to the queue, not left claimed.
 */
import assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import path from 'node:path';
import { demoFixture, seedDemoSite } from '../../lib/demo/seed';
import { jobsTable } from '../../lib/jobs/queue';
import { SETTINGS_OPTION } from '../../lib/support/settings';
import { envFor, openFor, scratchDir } from '../cli/cli-harness';
import { ScratchDatabase, scratchDatabase } from '../harness/db';
import { requestRecords } from './serve-harness';

const ROOT = path.resolve(__dirname, '../..');
// Each user may open 20 tickets an hour: the burst takes turns over the five demo users.
const AUTHS = demoFixture.users.map((u) => `Basic ${Buffer.from(`${u.login}:${u.application_password.password}`).toString('base64')}`);
let turn = 0;
const nextAuth = () => AUTHS[turn++ % AUTHS.length] as string;

interface Outcome { subject: string; status?: number; error?: string }

/** Spawns `understudy serve` as its own process and resolves once it listens. */
function spawnServe(env: Record<string, string>): Promise<{ child: ChildProcess; url: string; stderr: () => string; exit: Promise<number | null> }> {
  const child = spawn(process.execPath, ['--require', require.resolve('tsx/cjs'), path.join(ROOT, 'bin/understudy.ts'), 'serve', '--port=0'], {
    cwd: scratchDir(), env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (c: Buffer) => {
      stderr += c.toString();
      const url = / at (http:\/\/[^\s"]+)/.exec(stderr)?.[1];
      if (url) resolve({ child, url, stderr: () => stderr, exit });
    });
    void exit.then((code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
}

function ticketRequest(url: string, subject: string, length: number): http.ClientRequest {
  return http.request(`${url}/wp-json/support/v1/tickets`, {
    method: 'POST', agent: false,
    headers: { Authorization: nextAuth(), 'X-Request-Id': subject, 'Content-Type': 'application/json', 'Content-Length': length },
  });
}

function bodyOf(subject: string): Buffer {
  return Buffer.from(JSON.stringify({ subject, body: `Message of ${subject}` }));
}

function outcomeOf(req: http.ClientRequest, subject: string): Promise<Outcome> {
  return new Promise((resolve) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ subject, status: res.statusCode }));
      res.on('error', (err: NodeJS.ErrnoException) => resolve({ subject, error: err.code ?? err.message }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ subject, error: err.code ?? err.message }));
  });
}

/** POST one ticket on a connection of its own. */
function createTicket(url: string, subject: string): Promise<Outcome> {
  const body = bodyOf(subject);
  const req = ticketRequest(url, subject, body.length);
  const outcome = outcomeOf(req, subject);
  req.end(body);
  return outcome;
}

/** A ticket whose head and first bytes of body are sent now; `finish()` sends the rest and awaits the answer. */
function startSlowTicket(url: string, subject: string): { finish(): Promise<Outcome> } {
  const body = bodyOf(subject);
  const req = ticketRequest(url, subject, body.length);
  const outcome = outcomeOf(req, subject);
  req.flushHeaders();
  req.write(body.subarray(0, 10));
  return { finish: () => { req.end(body.subarray(10)); return outcome; } };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('serve: SIGTERM during a burst of ticket creations', function () {
  this.timeout(60_000);
  let db: ScratchDatabase;
  let env: Record<string, string>;
  let silentHook: http.Server;
  let running: ChildProcess | null = null;

  before(async () => {
    // Team alerts go to a receiver that takes them and never answers: their jobs are running at shutdown.
    silentHook = http.createServer(() => undefined);
    await new Promise<void>((resolve) => silentHook.listen(0, '127.0.0.1', resolve));
    db = await scratchDatabase();
    env = envFor(db.target, { WP_ENVIRONMENT_TYPE: 'local', SHUTDOWN_TIMEOUT_MS: '1500', LOG_FORMAT: 'json' });
    const { site } = await openFor(env);
    try {
      await seedDemoSite(site);
      await site.options.update(SETTINGS_OPTION, { alerts_url: `http://127.0.0.1:${(silentHook.address() as AddressInfo).port}/hook` });
    } finally {
      await site.close();
    }
  });
  afterEach(() => {
    if (running?.exitCode === null) running.kill('SIGKILL');
  });
  after(async () => {
    silentHook?.closeAllConnections();
    await new Promise((resolve) => silentHook?.close(resolve));
    await db?.drop();
  });

  it('stores every ticket answered 2xx, answers the requests in flight, exits 0 and leaves no job claimed', async () => {
    const server = await spawnServe(env);
    running = server.child;
    const outcomes: Outcome[] = [];
    let sent = 0;
    let stopped = false;
    const lane = async () => {
      while (sent < 200 && !stopped) outcomes.push(await createTicket(server.url, `burst-${sent++}`));
      // After the signal, a few more attempts: they must be refused or answered, never half-done.
      for (let i = 0; i < 3; i++) outcomes.push(await createTicket(server.url, `late-${sent++}`));
    };
    const lanes = Array.from({ length: 6 }, lane);
    while (outcomes.filter((o) => o.status === 201).length < 12) {
      if (outcomes.length > 40) throw new Error(`the burst is not being stored: ${JSON.stringify(outcomes.slice(0, 3))}`);
      await pause(10);
    }

    // Two requests whose bodies are still arriving when the signal comes.
    const slow = [startSlowTicket(server.url, 'slow-1'), startSlowTicket(server.url, 'slow-2')];
    const probe = await createTicket(server.url, 'probe-0');
    assert.equal(probe.status, 201, 'the server has read the slow requests\' heads by now');
    outcomes.push(probe);
    server.child.kill('SIGTERM');
    while (!/SIGTERM: shutting down/.test(server.stderr())) await pause(10);
    stopped = true;
    const slowOutcomes = await Promise.all(slow.map((s) => s.finish()));
    await Promise.all(lanes);
    assert.equal(await server.exit, 0, server.stderr());

    assert.deepEqual(slowOutcomes.map((o) => o.status), [201, 201], JSON.stringify(slowOutcomes));
    const all = [...outcomes, ...slowOutcomes];
    const answered = all.filter((o) => o.status !== undefined);
    assert.ok(answered.every((o) => o.status === 201), JSON.stringify(answered.filter((o) => o.status !== 201)));
    // Every request the server began to read was answered in full (its log says so); the only resets
    // are connections still in the kernel's queue when the port closed, which the server never saw.
    const seen = new Map(requestRecords(server.stderr()).map((r) => [r.request_id, r]));
    assert.deepEqual([...seen.values()].filter((r) => r.aborted), []);
    const reset = all.filter((o) => o.error && o.error !== 'ECONNREFUSED');
    assert.deepEqual(reset.filter((o) => o.error !== 'ECONNRESET' || seen.has(o.subject)), [], 'no request in flight was reset');
    assert.ok(answered.every((o) => seen.get(o.subject)?.status === 201));

    const { site } = await openFor(env);
    try {
      const stored = new Set((await site.db.knex('wp_posts').where({ post_type: 'svc_ticket' }).select('post_title')).map((r: { post_title: string }) => r.post_title));
      assert.deepEqual(answered.filter((o) => !stored.has(o.subject)), [], 'every 2xx-answered ticket is stored');
      const jobs = await site.db.knex(jobsTable(site.db.tables)).where({ kind: 'team_alert' });
      assert.ok(jobs.length >= answered.length);
      assert.deepEqual(jobs.filter((j: { status: string }) => j.status === 'running'), [], 'no job is left claimed by the stopped process');
      assert.ok(jobs.some((j: { status: string; attempts: number }) => j.status === 'queued' && j.attempts > 0), 'a job cut short went back to the queue');
      assert.ok(jobs.every((j: { locked_by: string | null; status: string }) => j.status !== 'queued' || j.locked_by === null));
    } finally {
      await site.close();
    }
    assert.match(server.stderr(), /running job\(s\) did not finish in time and were handed back to the queue/);
    assert.doesNotMatch(server.stderr(), /could not record the end of a job/);
  });
});
