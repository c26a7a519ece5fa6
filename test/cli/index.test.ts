/** `understudy` itself: help, dispatch, and how failures are reported (Error line, status 1). */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cli } from './cli-harness';

describe('understudy (dispatch and help)', function () {
  it('prints the list of commands with no arguments, help or --help', async () => {
    for (const argv of [[], ['help'], ['--help']]) {
      const run = await cli(argv, {});
      assert.equal(run.status, 0);
      assert.equal(run.stderr, '');
      for (const command of ['serve', 'option', 'user']) assert.match(run.stdout, new RegExp(`^  ${command} `, 'm'), argv.join(' '));
    }
  });

  it('prints a command\'s help with help <command> or --help anywhere in its arguments', async () => {
    assert.match((await cli(['help', 'option'], {})).stdout, /^usage: understudy option <subcommand>/);
    assert.match((await cli(['option', 'patch', '--help'], {})).stdout, /patch insert\|update\|delete <name> <key-path>/);
    assert.match((await cli(['user', 'list', '--help'], {})).stdout, /^usage: understudy user <subcommand>/);
    assert.match((await cli(['serve', '--help'], {})).stdout, /^usage: understudy serve \[--port=<port>\] \[--host=<host>\]/);
  });

  it('loads a command\'s modules only when it runs: a server holds none of the proxy\'s, the replay\'s or the seed\'s', () => {
    // In a process of its own: this one has loaded every command's modules for their tests.
    const script = `require('./lib/cli').runCli(['help', 'serve'], { stdout: { write() {} } }).then(() => {
      process.stdout.write(JSON.stringify(Object.keys(require.cache).map((file) => require('node:path').relative(process.cwd(), file))));
    });`;
    const loaded = JSON.parse(execFileSync(process.execPath, ['--require', require.resolve('tsx/cjs'), '-e', script], { cwd: path.resolve(__dirname, '../..'), encoding: 'utf8' })) as string[];
    assert.ok(loaded.includes(path.join('lib', 'cli', 'serve.ts')), 'the command asked for is loaded');
    const tools = loaded.filter((file) => /^lib[/\\](proxy|replay|support[/\\]seed)[/\\]|^lib[/\\]cli[/\\](proxy|replay|seed|shadow|nginx)\.ts$/.test(file));
    assert.deepEqual(tools, []);
  });

  it('prints its version with --version', async () => {
    const { version } = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as { version: string };
    assert.deepEqual(await cli(['--version'], {}), { status: 0, stdout: `Understudy ${version}\n`, stderr: '' });
  });

  it('refuses an unknown command with status 1', async () => {
    const run = await cli(['frobnicate'], {});
    assert.deepEqual(run, { status: 1, stdout: '', stderr: "Error: 'frobnicate' is not a registered understudy command. See 'understudy help' for available commands.\n" });
  });

  it('reports a configuration it cannot use as an Error line with status 1', async () => {
    const postgres = await cli(['option', 'get', 'blogname'], { DATABASE_URL: 'postgres://db/site' });
    assert.deepEqual(postgres, { status: 1, stdout: '', stderr: 'Error: DATABASE_URL must start with mysql:// or sqlite:, got "postgres:"\n' });
    const noSalts = await cli(['user', 'list'], { DATABASE_URL: 'mysql://root@127.0.0.1:3306/site' });
    assert.equal(noSalts.status, 1);
    assert.match(noSalts.stderr, /^Error: Environment: missing AUTH_KEY, /);
  });
});
