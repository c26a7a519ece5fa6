/**
 * The tools on a WordPress network (SQLite and MariaDB; the network tables as WordPress writes them,
 * test/harness/network-tables.ts): `--url=<site address>` on any command picks the blog the command
 * opens, and `understudy network sites` lists the network's sites.
 */
import assert from 'node:assert/strict';
import { runCli } from '../../lib/cli';
import { connect } from '../../lib/wp/db/database';
import { Tables } from '../../lib/wp/db/tables';
import { ScratchDatabase, dialect, scratchDatabase } from '../harness/db';
import { createNetworkTables, insertBlog, insertNetwork } from '../harness/network-tables';
import { capture, cli, envFor, scratchDir } from './cli-harness';

describe('the CLI on a WordPress network', function () {
  let scratch: ScratchDatabase;
  let single: Record<string, string>;
  let env: Record<string, string>;

  /** A blog's stored option, read straight from its own table (`wp_2_options` for blog 2). */
  async function blogOption(blogId: number, name: string): Promise<string | undefined> {
    const db = connect({ target: scratch.target, tables: new Tables({ prefix: 'wp_', blogId, multisite: true }) });
    try {
      const row = await db.knex(db.tables.options).where({ option_name: name }).first('option_value');
      return row ? String(row.option_value) : undefined;
    } finally {
      await db.close();
    }
  }

  before(async () => {
    scratch = await scratchDatabase();
    single = envFor(scratch.target);
    env = envFor(scratch.target, { MULTISITE: '1', DOMAIN_CURRENT_SITE: 'example.test', PATH_CURRENT_SITE: '/' });
    // The main site's tables (Understudy creates them on an empty database), then the network's.
    assert.equal((await cli(['option', 'update', 'blogname', 'Main'], single)).status, 0);
    const db = connect({ target: scratch.target, tables: new Tables({ prefix: 'wp_' }) });
    try {
      await createNetworkTables(db.knex, 'wp_', dialect);
      await insertNetwork(db.knex, 'wp_', { id: 1, domain: 'example.test', path: '/' });
      await insertBlog(db.knex, 'wp_', { blogId: 1, domain: 'example.test', path: '/' });
      await insertBlog(db.knex, 'wp_', { blogId: 2, domain: 'example.test', path: '/two/' });
      await insertBlog(db.knex, 'wp_', { blogId: 3, domain: 'mapped.test', path: '/', archived: true });
    } finally {
      await db.close();
    }
  });
  after(async () => { await scratch?.drop(); });

  describe('--url=<site address>', () => {
    it('opens the site at that address: a write lands in its own tables, the main site keeps its value', async () => {
      const run = await cli(['option', 'update', 'blogname', 'Two', '--url=example.test/two/'], env);
      assert.deepEqual(run, { status: 0, stdout: "Success: Updated 'blogname' option.\n", stderr: '' });
      assert.equal(await blogOption(2, 'blogname'), 'Two');
      assert.equal(await blogOption(1, 'blogname'), 'Main');
      assert.equal((await cli(['option', 'get', 'blogname'], env)).stdout, 'Main\n');
    });

    it('reads the address as WP-CLI does: before or after the command, with or without scheme and slash, any case', async () => {
      for (const argv of [
        ['--url=http://example.test/two', 'option', 'get', 'blogname'],
        ['--url', 'https://EXAMPLE.test/Two/', 'option', 'get', 'blogname'],
        ['option', 'get', 'blogname', '--url', 'example.test/two'],
      ]) assert.deepEqual(await cli(argv, env), { status: 0, stdout: 'Two\n', stderr: '' }, argv.join(' '));
      assert.equal((await cli(['option', 'get', 'blogname', '--url=example.test/'], env)).stdout, 'Main\n');
    });

    it('reaches a site on a domain of its own, archived or not (a tool may act on any site, as WP-CLI may)', async () => {
      assert.equal((await cli(['option', 'update', 'blogname', 'Mapped', '--url=https://mapped.test'], env)).status, 0);
      assert.equal(await blogOption(3, 'blogname'), 'Mapped');
    });

    it('wins over WP_BLOG_ID', async () => {
      const run = await cli(['option', 'get', 'blogname', '--url=example.test/two/'], { ...env, WP_BLOG_ID: '3' });
      assert.deepEqual(run, { status: 0, stdout: 'Two\n', stderr: '' });
    });

    it('refuses an address that names no site, changing nothing', async () => {
      const cases: Array<[string, string]> = [
        ['example.test/nosuch/', "Error: --url=example.test/nosuch/: no site of the network is at example.test/nosuch/ (WordPress would serve it as a page of blog 1, example.test/). See 'understudy network sites'.\n"],
        ['elsewhere.test', "Error: --url=elsewhere.test: no site of the network is at elsewhere.test/ (WordPress redirects it to http://example.test/). See 'understudy network sites'.\n"],
        ['ftp://example.test/two/', "Error: --url=ftp://example.test/two/: 'ftp://example.test/two/' is not a site address (example.com/path/ or https://example.com/path/). See 'understudy network sites'.\n"],
      ];
      for (const [address, error] of cases) {
        const run = await cli(['option', 'update', 'blogname', 'Lost', `--url=${address}`], env);
        assert.deepEqual(run, { status: 1, stdout: '', stderr: error }, address);
      }
      assert.deepEqual([await blogOption(1, 'blogname'), await blogOption(2, 'blogname')], ['Main', 'Two']);
      assert.deepEqual(await cli(['option', 'get', 'blogname', '--url'], env), { status: 1, stdout: '', stderr: 'Error: --url needs a value (--url=<site address>)\n' });
    });

    it('is an error on a single site (MULTISITE off), rather than acting on the only site', async () => {
      const run = await cli(['option', 'update', 'blogname', 'Lost', '--url=example.test/two/'], single);
      assert.equal(run.status, 1);
      assert.match(run.stderr, /^Error: --url=example\.test\/two\/ needs a network, but .* is a single site \(MULTISITE is off\)\n$/);
      assert.equal(await blogOption(1, 'blogname'), 'Main');
    });

    it('leaves `changelog`\'s own --url (the product page) to it: the site\'s goes before the command name', async () => {
      const run = await cli(['--url=example.test/two/', 'changelog', 'create', '--name=App', '--url=https://app.example/', '--format=json'], env);
      assert.equal(run.status, 0, run.stderr);
      assert.equal(JSON.parse(run.stdout).url, 'https://app.example/');
      const onTwo = await cli(['--url=example.test/two/', 'changelog', 'list', '--format=json'], env);
      assert.deepEqual(JSON.parse(onTwo.stdout).map((p: { name: string }) => p.name), ['App']);
      assert.deepEqual(JSON.parse((await cli(['changelog', 'list', '--format=json'], env)).stdout), []);
    });

    it('serve --url serves that site', async () => {
      const stderr = capture();
      const controller = new AbortController();
      const done = runCli(['serve', '--port=0', '--url=example.test/two/'], { env, cwd: scratchDir(), stdout: capture(), stderr, signal: controller.signal });
      try {
        let url: string | undefined;
        for (let waited = 0; !url && waited < 20_000; waited += 20) {
          url = / at (http:\/\/[^\s"]+)/.exec(stderr.text())?.[1];
          if (!url) await new Promise((resolve) => setTimeout(resolve, 20));
        }
        assert.ok(url, stderr.text());
        const index = await (await fetch(`${url}/wp-json/`)).json() as { name: string };
        assert.equal(index.name, 'Two');
      } finally {
        controller.abort();
        assert.equal(await done, 0, stderr.text());
      }
    });

    it('says so when MULTISITE is on but the database holds no network', async () => {
      const run = await cli(['option', 'get', 'blogname', '--url=example.test/two/'], { ...env, TABLE_PREFIX: 'none_' });
      assert.equal(run.status, 1);
      assert.match(run.stderr, /^Error: --url=example\.test\/two\/ needs a network, but .* has no none_blogs table \(MULTISITE is on: is it the network's database and table prefix\?\)\n$/);
    });

    it('is refused by a command that opens no site', async () => {
      assert.deepEqual(await cli(['nginx', '--url=example.test/two/'], env), { status: 1, stdout: '', stderr: 'Error: understudy nginx opens no site: --url has nothing to choose\n' });
    });
  });

  describe('understudy nginx --network', () => {
    it('reads the network\'s sites: server_name for a subdomain install and its mapped domain, routes under no site path', async () => {
      const db = connect({ target: scratch.target, tables: new Tables({ prefix: 'sub_' }) });
      try {
        await createNetworkTables(db.knex, 'sub_', dialect);
        await insertNetwork(db.knex, 'sub_', { id: 1, domain: 'example.test', path: '/' });
        await insertBlog(db.knex, 'sub_', { blogId: 1, domain: 'example.test', path: '/' });
        await insertBlog(db.knex, 'sub_', { blogId: 2, domain: 'two.example.test', path: '/' });
        await insertBlog(db.knex, 'sub_', { blogId: 3, domain: 'shop.test', path: '/' });
      } finally {
        await db.close();
      }
      const run = await cli(['nginx', '--network', '--part=server'], { ...env, TABLE_PREFIX: 'sub_', SUBDOMAIN_INSTALL: '1' });
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stdout, /\nserver_name example\.test \*\.example\.test two\.example\.test shop\.test;\n/);
      const http = await cli(['nginx', '--network', '--part=http'], { ...env, TABLE_PREFIX: 'sub_', SUBDOMAIN_INSTALL: '1' });
      assert.match(http.stdout, /\n {4}"~\^\/wp-admin\/admin-ajax\\\.php\$" 1;\n/);
    });

    it('says a single site is no network', async () => {
      const run = await cli(['nginx', '--network'], single);
      assert.equal(run.status, 1);
      assert.match(run.stderr, /^Error: understudy nginx --network needs a network, but .* is a single site \(MULTISITE is off\)\n$/);
      assert.equal(run.stdout, '');
    });
  });

  describe('understudy network sites', () => {
    it('lists the sites with the address --url takes and their flags', async () => {
      const run = await cli(['network', 'sites'], env);
      assert.equal(run.status, 0, run.stderr);
      assert.equal(run.stdout, [
        '+---------+-------------------+------------+--------+----------+------+---------+',
        '| blog_id | address           | network_id | public | archived | spam | deleted |',
        '+---------+-------------------+------------+--------+----------+------+---------+',
        '| 1       | example.test/     | 1          | 1      | 0        | 0    | 0       |',
        '| 2       | example.test/two/ | 1          | 1      | 0        | 0    | 0       |',
        '| 3       | mapped.test/      | 1          | 1      | 1        | 0    | 0       |',
        '+---------+-------------------+------------+--------+----------+------+---------+',
        '',
      ].join('\n'));
      const json = await cli(['network', 'sites', '--format=json'], env);
      assert.deepEqual(JSON.parse(json.stdout)[1], { blog_id: 2, address: 'example.test/two/', network_id: 1, public: 1, archived: 0, spam: 0, deleted: 0 });
    });

    it('says a single site is no network, and prints its help apart from the connected sites\'', async () => {
      const run = await cli(['network', 'sites'], single);
      assert.equal(run.status, 1);
      assert.match(run.stderr, /^Error: understudy network sites needs a network, but .* is a single site \(MULTISITE is off\)\n$/);
      const help = await cli(['network'], env);
      assert.match(help.stdout, /^usage: understudy network <subcommand>[\s\S]*Not to be confused with 'understudy site'/);
      assert.match((await cli(['help'], env)).stdout, /\n {2}network {3}The WordPress network's own sites/);
    });
  });
});
