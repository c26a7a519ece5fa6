/**
 * `serve --workers=2` on a network: the real process forks two workers, each serving the whole
 * network, and SIGTERM stops both.
 */
import assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { scratchDir } from '../cli/cli-harness';
import { freePort } from '../deploy/nginx-harness';
import { requestRecords } from '../deploy/serve-harness';
import { TestNetwork, buildNetwork, requestAt } from '../harness/network';

const ROOT = path.resolve(__dirname, '../..');
const HOST = 'example.test';

describe('serve --workers=2 on a network', function () {
  this.timeout(60_000);
  let net: TestNetwork;
  let child: ChildProcess | null = null;

  before(async () => {
    net = await buildNetwork({
      domain: HOST,
      install: { subdomainInstall: false, current: { domain: HOST, path: '/', networkId: 1 } },
      blogs: [{ blogId: 1, domain: HOST, path: '/' }, { blogId: 2, domain: HOST, path: '/two/' }, { blogId: 3, domain: HOST, path: '/three/' }],
      users: [],
      superAdmins: [],
    });
  });

  after(async () => {
    child?.kill('SIGKILL');
    await net?.close();
  });

  it('answers every site from both workers, and stops both on SIGTERM', async () => {
    const port = await freePort();
    const env = net.serveEnv({ LOG_FORMAT: 'json', PATH: process.env.PATH ?? '' });
    child = spawn(process.execPath, ['--require', require.resolve('tsx/cjs'), path.join(ROOT, 'bin/understudy.ts'), 'serve', `--port=${port}`, '--workers=2'], {
      cwd: scratchDir(), env, stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => { stderr += c.toString(); });
    const exit = new Promise<number | null>((resolve) => child?.once('exit', (code) => resolve(code)));
    while (!/with 2 workers/.test(stderr)) {
      if (child.exitCode !== null) throw new Error(stderr);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 12; i++) {
      for (const [path, home] of [['/two/wp-json/', `http://${HOST}/two`], ['/three/wp-json/', `http://${HOST}/three`]]) {
        const index = await requestAt(url, HOST, { path: path as string });
        assert.equal(index.status, 200, index.text);
        assert.equal((JSON.parse(index.text) as { home: string }).home, home);
      }
    }
    const pids = new Set(requestRecords(stderr).map((r) => r.pid));
    assert.equal(pids.size, 2, `answered by ${[...pids].join(', ')}`);
    child.kill('SIGTERM');
    assert.equal(await exit, 0, stderr);
    child = null;
  });
});
