/**
 * `understudy option …` against a scratch database: what it prints, the exit status, and the raw
 * `option_value` it leaves behind (PHP-serialized exactly as WordPress stores arrays).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createClient } from '@redis/client';
import { ScratchDatabase, scratchDatabase } from '../harness/db';
import { cli, envFor, rawOption } from './cli-harness';

describe('understudy option', function () {
  let db: ScratchDatabase;
  let env: Record<string, string>;

  before(async () => {
    db = await scratchDatabase();
    env = envFor(db.target);
  });
  after(async () => { await db?.drop(); });

  describe('get', () => {
    it('prints a scalar option as it is stored', async () => {
      const run = await cli(['option', 'get', 'blogname'], env);
      assert.deepEqual(run, { status: 0, stdout: 'Understudy\n', stderr: '' });
    });

    it('refuses a missing option with WP-CLI\'s error and status 1', async () => {
      const run = await cli(['option', 'get', 'no_such_option'], env);
      assert.deepEqual(run, { status: 1, stdout: '', stderr: "Error: Could not get 'no_such_option' option. Does it exist?\n" });
    });

    it('prints an array as indented JSON, and with --format=json as PHP json_encode writes it', async () => {
      await cli(['option', 'update', 'cli_get_array', '{"url":"https://a.test/x","on":true,"list":[1,2]}', '--format=json'], env);
      const plain = await cli(['option', 'get', 'cli_get_array'], env);
      assert.equal(plain.stdout, '{\n    "url": "https://a.test/x",\n    "on": true,\n    "list": [\n        1,\n        2\n    ]\n}\n');
      const json = await cli(['option', 'get', 'cli_get_array', '--format', 'json'], env);
      assert.equal(json.stdout, '{"url":"https:\\/\\/a.test\\/x","on":true,"list":[1,2]}\n');
    });
  });

  describe('update, add and delete', () => {
    it('creates, reports an unchanged value, changes and deletes a plain option', async () => {
      assert.equal((await cli(['option', 'update', 'cli_plain', 'hello'], env)).stdout, "Success: Updated 'cli_plain' option.\n");
      assert.equal(await rawOption(db.target, 'cli_plain'), 'hello');
      assert.equal((await cli(['option', 'update', 'cli_plain', 'hello'], env)).stdout, "Success: Value passed for 'cli_plain' option is unchanged.\n");
      await cli(['option', 'update', 'cli_plain', 'bye'], env);
      assert.equal(await rawOption(db.target, 'cli_plain'), 'bye');
      assert.deepEqual(await cli(['option', 'delete', 'cli_plain'], env), { status: 0, stdout: "Success: Deleted 'cli_plain' option.\n", stderr: '' });
      assert.equal(await rawOption(db.target, 'cli_plain'), undefined);
    });

    it('refuses to delete a missing option with status 1', async () => {
      const run = await cli(['option', 'delete', 'cli_never_there'], env);
      assert.deepEqual(run, { status: 1, stdout: '', stderr: "Error: Could not delete 'cli_never_there' option. Does it exist?\n" });
    });

    it('stores a JSON object as a PHP array, keeping key order, int keys, types and UTF-8 byte lengths', async () => {
      const json = '{"alerts_url":"https://example.test/hook","alerts_preview":true,"n":3,"ratio":1.5,"whole":2.0,"list":[1,"two"],"5":"five","name":"Zoë","none":null}';
      const run = await cli(['option', 'update', 'cli_json', json, '--format=json'], env);
      assert.equal(run.status, 0, run.stderr);
      assert.equal(await rawOption(db.target, 'cli_json'),
        'a:9:{s:10:"alerts_url";s:25:"https://example.test/hook";s:14:"alerts_preview";b:1;s:1:"n";i:3;s:5:"ratio";d:1.5;' +
        's:5:"whole";d:2;s:4:"list";a:2:{i:0;i:1;i:1;s:3:"two";}i:5;s:4:"five";s:4:"name";s:4:"Zoë";s:4:"none";N;}');
    });

    it('refuses invalid JSON, and JSON null, without writing anything', async () => {
      for (const value of ['{nope', 'null']) {
        const run = await cli(['option', 'update', 'cli_bad_json', value, '--format=json'], env);
        assert.deepEqual(run, { status: 1, stdout: '', stderr: `Error: Invalid JSON: ${value}\n` });
      }
      assert.equal(await rawOption(db.target, 'cli_bad_json'), undefined);
    });

    it('reads the value from stdin when it is left off the command line', async () => {
      const run = await cli(['option', 'update', 'cli_stdin', '--format=json'], env, { stdin: '["a","b"]' });
      assert.equal(run.status, 0, run.stderr);
      assert.equal(await rawOption(db.target, 'cli_stdin'), 'a:2:{i:0;s:1:"a";i:1;s:1:"b";}');
    });

    it('adds an option once and refuses to add it again', async () => {
      assert.equal((await cli(['option', 'add', 'cli_added', 'first', '--autoload=no'], env)).stdout, "Success: Added 'cli_added' option.\n");
      const again = await cli(['option', 'add', 'cli_added', 'second'], env);
      assert.deepEqual(again, { status: 1, stdout: '', stderr: "Error: Could not add option 'cli_added'. Does it already exist?\n" });
      assert.equal(await rawOption(db.target, 'cli_added'), 'first');
    });
  });

  describe('patch', () => {
    it('insert creates a missing option as an array holding the key (svc_settings on a new site)', async () => {
      const run = await cli(['option', 'patch', 'insert', 'svc_settings', 'alerts_url', 'https://example.test/hook'], env);
      assert.deepEqual(run, { status: 0, stdout: "Success: Updated 'svc_settings' option.\n", stderr: '' });
      assert.equal(await rawOption(db.target, 'svc_settings'), 'a:1:{s:10:"alerts_url";s:25:"https://example.test/hook";}');
    });

    it('update changes an existing key and keeps the others in place', async () => {
      await cli(['option', 'patch', 'insert', 'svc_settings', 'alerts_preview', 'false', '--format=json'], env);
      const run = await cli(['option', 'patch', 'update', 'svc_settings', 'alerts_url', 'https://example.test/new'], env);
      assert.equal(run.status, 0, run.stderr);
      assert.equal(await rawOption(db.target, 'svc_settings'), 'a:2:{s:10:"alerts_url";s:24:"https://example.test/new";s:14:"alerts_preview";b:0;}');
      const same = await cli(['option', 'patch', 'update', 'svc_settings', 'alerts_url', 'https://example.test/new'], env);
      assert.equal(same.stdout, "Success: Value passed for 'svc_settings' option is unchanged.\n");
    });

    it('update refuses a key that is not there and leaves the row unchanged', async () => {
      const before = await rawOption(db.target, 'svc_settings');
      const run = await cli(['option', 'patch', 'update', 'svc_settings', 'alerts_secret', 's3cret'], env);
      assert.deepEqual(run, { status: 1, stdout: '', stderr: 'Error: No data exists for key "alerts_secret"\n' });
      assert.equal(await rawOption(db.target, 'svc_settings'), before);
    });

    it('reaches nested keys, inserting intermediate arrays, and deletes a nested key', async () => {
      await cli(['option', 'update', 'cli_nested', '{"a":{"b":{"c":1}},"keep":"x"}', '--format=json'], env);
      await cli(['option', 'patch', 'update', 'cli_nested', 'a', 'b', 'c', '{"d":[true,2]}', '--format=json'], env);
      assert.equal(await rawOption(db.target, 'cli_nested'), 'a:2:{s:1:"a";a:1:{s:1:"b";a:1:{s:1:"c";a:1:{s:1:"d";a:2:{i:0;b:1;i:1;i:2;}}}}s:4:"keep";s:1:"x";}');
      await cli(['option', 'patch', 'insert', 'cli_nested', 'x', 'y', 'z'], env);
      await cli(['option', 'patch', 'delete', 'cli_nested', 'a', 'b'], env);
      assert.equal(await rawOption(db.target, 'cli_nested'), 'a:3:{s:1:"a";a:0:{}s:4:"keep";s:1:"x";s:1:"x";a:1:{s:1:"y";s:1:"z";}}');
      const missing = await cli(['option', 'patch', 'delete', 'cli_nested', 'a', 'b'], env);
      assert.deepEqual(missing, { status: 1, stdout: '', stderr: 'Error: No data exists for key "b"\n' });
    });

    it('addresses list items by index and appends at the next index', async () => {
      await cli(['option', 'update', 'cli_list', '["zero","one"]', '--format=json'], env);
      await cli(['option', 'patch', 'update', 'cli_list', '1', 'ONE'], env);
      await cli(['option', 'patch', 'insert', 'cli_list', '2', 'two'], env);
      assert.equal(await rawOption(db.target, 'cli_list'), 'a:3:{i:0;s:4:"zero";i:1;s:3:"ONE";i:2;s:3:"two";}');
    });

    it('refuses to patch an option that is not an array, and update or delete on a missing option', async () => {
      const onString = await cli(['option', 'patch', 'insert', 'blogname', 'key', 'value'], env);
      assert.deepEqual(onString, { status: 1, stdout: '', stderr: 'Error: Cannot create key "key" on data type string\n' });
      const missing = await cli(['option', 'patch', 'update', 'cli_not_there', 'key', 'value'], env);
      assert.deepEqual(missing, { status: 1, stdout: '', stderr: "Error: Could not get 'cli_not_there' option. Does it exist?\n" });
      assert.equal(await rawOption(db.target, 'cli_not_there'), undefined);
    });

    it('asks for a value when only the key path is given', async () => {
      const run = await cli(['option', 'patch', 'update', 'svc_settings', 'alerts_url'], env);
      assert.deepEqual(run, { status: 1, stdout: '', stderr: 'Error: Please provide value to update.\n' });
    });
  });

  describe('mistakes on the command line', () => {
    it('refuses unknown flags, subcommands, patch actions and missing arguments with status 1', async () => {
      const cases: Array<[string[], string]> = [
        [['option', 'get', 'blogname', '--colour=red'], 'Error: unknown --colour parameter\n'],
        [['option', 'get', 'blogname', '--format=yaml'], "Error: Invalid value for --format: 'yaml' (expected 'plaintext', 'json')\n"],
        [['option', 'list'], "Error: 'list' is not a registered subcommand of 'option'. See 'understudy option --help' for available subcommands.\n"],
        [['option', 'get'], 'Error: Too few arguments. Usage: understudy option get <name> [--format=json]\n'],
        [['option', 'patch', 'upsert', 'x', 'k', 'v'], "Error: Invalid patch action 'upsert'. Usage: understudy option patch insert|update|delete <name> <key-path>... [<value>]\n"],
      ];
      for (const [argv, stderr] of cases) assert.deepEqual(await cli(argv, env), { status: 1, stdout: '', stderr }, argv.join(' '));
    });
  });

  describe('beside the Redis drop-in (OBJECT_CACHE)', () => {
    const redisUrl = new URL(process.env.WP_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
    const prefix = `understudy-cli-${randomBytes(6).toString('hex')}:`;
    const seeder = createClient({ socket: { host: redisUrl.hostname, port: Number(redisUrl.port || 6379) } });
    const keys = ['wp:options:alloptions', 'wp:options:notoptions', 'wp:options:cli_cached', 'wp:posts:1'];

    before(async () => { await seeder.connect(); });
    after(async () => {
      const left = await seeder.keys(`${prefix}*`);
      if (left.length) await seeder.del(left);
      await seeder.close();
    });

    it('removes what PHP cached of the option it changed, and nothing else, before it exits', async () => {
      for (const key of keys) await seeder.set(prefix + key, 's:1:"x";');
      const cached = { ...env, OBJECT_CACHE: `redis://${redisUrl.hostname}:${redisUrl.port || 6379}/0?prefix=${encodeURIComponent(prefix)}` };
      const run = await cli(['option', 'update', 'cli_cached', 'seen by PHP'], cached);
      assert.equal(run.status, 0, run.stderr);
      const present = await Promise.all(keys.map((k) => seeder.exists(prefix + k)));
      assert.deepEqual(present, [0, 0, 0, 1]);
    });
  });
});
