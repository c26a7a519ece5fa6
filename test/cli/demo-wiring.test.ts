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
