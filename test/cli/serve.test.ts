/**
 * `understudy serve` really listens: started in-process on port 0, asked for users/me over HTTP with an
 * application password, then stopped through its abort signal (standing in for SIGINT).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { runCli } from '../../lib/cli';
import { demoFixture, seedDemoSite } from '../../lib/demo/seed';
import { ScratchDatabase, scratchDatabase } from '../harness/db';
import { capture, cli, envFor, openFor, rawOption, scratchDir } from './cli-harness';

const demoUser = (login: string) => demoFixture.users.find((u) => u.login === login)!;

interface Started {
  url: string;
  stdout: ReturnType<typeof capture>;
  stderr: ReturnType<typeof capture>;
  stop(): Promise<number>;
}

/** Starts `serve` and waits for its start-up line; fails if the command ends first. */
async function startServe(argv: string[], env: Record<string, string>, cwd = scratchDir()): Promise<Started> {
  const stdout = capture();
  const stderr = capture();
  const controller = new AbortController();
  const done = runCli(['serve', ...argv], { env, cwd, stdout, stderr, signal: controller.signal });
  let finished = false;
  void done.finally(() => { finished = true; });
  for (let waited = 0; waited < 20_000; waited += 20) {
    const match = / at (http:\/\/[^\s"]+)/.exec(stderr.text());
    if (match) return { url: match[1] as string, stdout, stderr, stop: () => { controller.abort(); return done; } };
    if (finished) throw new Error(`serve ended before listening (status ${await done}): ${stderr.text()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  controller.abort();
  await done;
  throw new Error(`serve did not start: ${stderr.text()}`);
}

const basic = (login: string) => `Basic ${Buffer.from(`${login}:${demoUser(login).application_password.password}`).toString('base64')}`;

describe('understudy serve', function () {
  it('creates and seeds the embedded demo site on first start, prints the sign-ins, answers users/me and shuts down', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-serve-'));
    try {
      const server = await startServe(['--port=0'], {}, dir);
      assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.match(server.stderr.text(), new RegExp(`serving embedded SQLite database ${escape(path.join(dir, 'data', 'site.sqlite'))} at `));
      assert.ok(server.stdout.text().includes(`curl -u agent:${demoUser('agent').application_password.password} ${server.url}/wp-json/wp/v2/users/me`), server.stdout.text());

      const res = await request(server.url).get('/wp-json/wp/v2/users/me').set('Authorization', basic('agent'));
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.slug, 'agent');

      assert.equal(await server.stop(), 0);
      assert.match(server.stderr.text(), /stop requested: shutting down/);
      // LOG_FORMAT=json (stderr is no terminal): every line is JSON, start-up and shutdown included.
      const lines = server.stderr.text().trim().split('\n').map((text) => JSON.parse(text) as { level: number; msg: string });
      assert.ok(lines.some((l) => l.level === 30 && l.msg.startsWith('Understudy is serving embedded SQLite database')));
      assert.ok(lines.some((l) => l.level === 30 && l.msg === 'stop requested: shutting down'));
      await assert.rejects(fetch(`${server.url}/wp-json/`), 'the port is closed after shutdown');
      // The site was created with the address it was served at (the real port, not 0).
      assert.equal(await rawOption({ client: 'sqlite', filename: path.join(dir, 'data', 'site.sqlite') }, 'siteurl'), server.url);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('over a configured database', () => {
    let db: ScratchDatabase;
    let env: Record<string, string>;

    before(async () => {
      db = await scratchDatabase();
      env = envFor(db.target, { WP_ENVIRONMENT_TYPE: 'local' });
      const { site } = await openFor(env);
      try {
        await seedDemoSite(site);
      } finally {
        await site.close();
      }
    });
    after(async () => { await db?.drop(); });

    it('answers users/me for an application password, and prints no demo sign-ins', async () => {
      const server = await startServe(['--host', '127.0.0.1', '--port', '0'], env);
      try {
        const res = await request(server.url).get('/wp-json/wp/v2/users/me').set('Authorization', basic('manager'));
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.slug, 'manager');
        const anonymous = await request(server.url).get('/wp-json/wp/v2/users/me');
        assert.equal(anonymous.status, 401);
        assert.equal(server.stdout.text(), '');
      } finally {
        assert.equal(await server.stop(), 0);
      }
    });

    it('exits 1 with an Error line when the port is taken', async () => {
      const blocker = net.createServer();
      await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = blocker.address() as net.AddressInfo;
        const run = await cli(['serve', `--port=${port}`], env);
        assert.equal(run.status, 1);
        assert.match(run.stderr, /^Error: listen EADDRINUSE/m);
        assert.equal(run.stdout, '');
      } finally {
        await new Promise((resolve) => blocker.close(resolve));
      }
    });

    it('refuses a port that is not a number', async () => {
      const run = await cli(['serve', '--port=eighty'], env);
      assert.deepEqual(run, { status: 1, stdout: '', stderr: 'Error: PORT must be a port number, got "eighty"\n' });
    });

    it('refuses a heap growth that is not a whole percentage', async () => {
      const run = await cli(['serve'], { ...env, HEAP_GROWTH_PERCENT: '20%' });
      assert.deepEqual(run, { status: 1, stdout: '', stderr: 'Error: HEAP_GROWTH_PERCENT must be a whole number from 0 to 1000, got "20%"\n' });
    });
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
