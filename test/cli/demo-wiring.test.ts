/**
 * Which start seeds the demo: the first command of any kind on the embedded default site (so a CLI
 * command run before `npm start` still leaves the demo in place), never a configured database, and
 * never twice.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ScratchDatabase, scratchDatabase } from '../harness/db';
import { cli, envFor } from './cli-harness';

describe('seeding the demo site from the CLI', function () {
  let dir: string;

  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'understudy-demo-')); });
  afterEach(() => { fs.rmSync(dir, { recursive: true, force: true }); });

  it('seeds the embedded site on the first command and never again', async () => {
    assert.equal((await cli(['option', 'get', 'blogname'], {}, { cwd: dir })).stdout, 'Understudy Demo\n');
    assert.ok(fs.existsSync(path.join(dir, 'data', 'site.sqlite')));
    assert.equal((await cli(['user', 'list', '--format=count'], {}, { cwd: dir })).stdout, '5\n');
    assert.equal((await cli(['user', 'list', '--format=count'], {}, { cwd: dir })).stdout, '5\n');
  });

  it('has svc_settings, so the README\'s option get and option patch update work on the demo', async () => {
    const json = await cli(['option', 'get', 'svc_settings', '--format=json'], {}, { cwd: dir });
    assert.equal(json.status, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout), {
      alerts_url: '', alerts_secret: '', alerts_preview: false, alerts_customer_replied: false, customer_can_resolve: true, customer_can_reopen: true,
      chat_enabled: false, chat_handoff: false, chat_base_url: 'https://api.openai.com/v1', chat_model: 'gpt-4o-mini', chat_api_key: '',
    });
    assert.match((await cli(['option', 'get', 'svc_settings'], {}, { cwd: dir })).stdout, /^\{\n {4}"alerts_url": "",/);
    const patched = await cli(['option', 'patch', 'update', 'svc_settings', 'alerts_url', 'https://example.test/other'], {}, { cwd: dir });
    assert.deepEqual(patched, { status: 0, stdout: "Success: Updated 'svc_settings' option.\n", stderr: '' });
  });

  it('gives a new embedded site the serve address from PORT and HOST as its siteurl', async () => {
    const run = await cli(['option', 'get', 'siteurl'], { PORT: '9123', HOST: '0.0.0.0' }, { cwd: dir });
    assert.deepEqual(run, { status: 0, stdout: 'http://127.0.0.1:9123\n', stderr: '' });
  });

  describe('a configured database', () => {
    let db: ScratchDatabase;
    before(async () => { db = await scratchDatabase(); });
    after(async () => { await db?.drop(); });

    it('is installed without the demo', async () => {
      const env = envFor(db.target);
      assert.equal((await cli(['option', 'get', 'blogname'], env)).stdout, 'Understudy\n');
      assert.equal((await cli(['user', 'list', '--format=count'], env)).stdout, '0\n');
    });
  });
});
