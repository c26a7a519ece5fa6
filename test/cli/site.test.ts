/**
 * `understudy site create|list|get|update|delete|rotate-key` over a scratch database: the key printed
 * once (one JSON object with site_id and site_key), never listed or shown again, stored only as a
 * hash; a rotated key replaces the old one for the ticket route at once; refused input.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import request from 'supertest';
import { createApp } from '../../lib/app';
import { insertDocs } from '../../lib/support/docs/store';
import { connect } from '../../lib/wp/db/database';
import { Tables } from '../../lib/wp/db/tables';
import { ScratchDatabase, scratchDatabase } from '../harness/db';
import { cli, envFor, openFor } from './cli-harness';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('understudy site', function () {
  let db: ScratchDatabase;
  let env: Record<string, string>;
  let siteId = '';
  let key = '';

  before(async () => {
    db = await scratchDatabase();
    env = envFor(db.target);
  });
  after(async () => { await db?.drop(); });

  /** The site post and its meta, read straight from the tables, and everything stored, as text. */
  async function stored(id: string): Promise<{ post: Record<string, unknown> | undefined; meta: Record<string, string>; everything: string }> {
    const conn = connect({ target: db.target, tables: new Tables({ prefix: 'wp_' }) });
    try {
      const post = await conn.knex('wp_posts').where({ post_type: 'svc_site', post_name: id }).first();
      const rows = post ? await conn.knex('wp_postmeta').where({ post_id: post.ID }).select('meta_key', 'meta_value') : [];
      const all = [...(await conn.knex('wp_postmeta').select('meta_value')), ...(await conn.knex('wp_options').select('option_value')), ...(await conn.knex('wp_posts').select('post_title', 'post_name', 'post_content'))];
      return { post, meta: Object.fromEntries(rows.map((r: { meta_key: string; meta_value: string }) => [r.meta_key, r.meta_value])), everything: JSON.stringify(all) };
    } finally {
      await conn.close();
    }
  }

  async function json(argv: string[]): Promise<Record<string, unknown>> {
    const run = await cli(argv, env);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim().split('\n').length, 1, 'one JSON object, nothing else');
    return JSON.parse(run.stdout);
  }

  /** Opens a ticket through the real route of a server opened over the same database. */
  async function openTicketWith(id: string, siteKey: string): Promise<number> {
    const { site } = await openFor(env);
    try {
      const res = await request(createApp(site)).post(`/wp-json/support/v1/sites/${id}/tickets`).set('Authorization', `Bearer ${siteKey}`)
        .send({ email: 'someone@example.net', name: 'Someone', subject: 'Hello', message: 'From the CLI test.' });
      return res.status;
    } finally {
      await site.close();
    }
  }

  it('creates a site and prints it with its key once, as one JSON object; only the key\'s hash is stored', async () => {
    const out = await json([
      'site', 'create', '--name=Shop', '--origins=https://Shop.Example/,http://localhost:3000', '--portal=on', '--new-tickets=off',
      '--message-limit=2000', '--message-hint=Include your order number.', '--customers-resolve=off', '--customers-reopen=on', '--format=json',
    ]);
    assert.deepEqual(Object.keys(out), [
      'site_id', 'site_key', 'name', 'origins', 'portal', 'new_tickets', 'message_limit', 'message_hint', 'customer_can_resolve',
      'customer_can_reopen', 'doc_collections', 'created_at', 'updated_at',
    ]);
    assert.match(out.site_id as string, /^[a-z0-9]{12}$/);
    assert.match(out.site_key as string, /^[0-9a-f]{64}$/);
    assert.deepEqual([out.name, out.origins, out.portal, out.new_tickets, out.message_limit, out.message_hint, out.customer_can_resolve, out.customer_can_reopen, out.doc_collections],
      ['Shop', ['https://shop.example', 'http://localhost:3000'], true, false, 2000, 'Include your order number.', false, true, []]);
    siteId = out.site_id as string;
    key = out.site_key as string;
    const { post, meta, everything } = await stored(siteId);
    assert.deepEqual([post?.post_type, post?.post_status, post?.post_title], ['svc_site', 'publish', 'Shop']);
    assert.equal(meta._svc_key_hash, sha256(key));
    assert.ok(!everything.includes(key), 'the key itself is stored nowhere');
  });

  it('lists and shows sites without their key or its hash, as a table or JSON', async () => {
    const hash = sha256(key);
    const table = await cli(['site', 'list'], env);
    assert.equal(table.status, 0, table.stderr);
    assert.deepEqual(table.stdout.split('\n').slice(0, 4), [
      '+--------------+------+--------------------------------------------+--------+-------------+---------------+',
      '| site_id      | name | origins                                    | portal | new_tickets | message_limit |',
      '+--------------+------+--------------------------------------------+--------+-------------+---------------+',
      `| ${siteId} | Shop | https://shop.example,http://localhost:3000 | on     | off         | 2000          |`,
    ]);
    const list = JSON.parse((await cli(['site', 'list', '--format=json'], env)).stdout);
    assert.equal(list.length, 1);
    assert.equal(list[0].site_id, siteId);
    assert.ok(!('site_key' in list[0]));
    const get = await json(['site', 'get', siteId, '--format=json']);
    assert.deepEqual(get, list[0]);
    const getTable = await cli(['site', 'get', siteId], env);
    assert.equal(getTable.status, 0, getTable.stderr);
    assert.match(getTable.stdout, new RegExp(`\\| site_id {14}\\| ${siteId} `));
    assert.match(getTable.stdout, /\| portal {15}\| on /);
    for (const run of [table, getTable, { stdout: JSON.stringify(list) }, { stdout: JSON.stringify(get) }]) {
      assert.ok(!run.stdout.includes(key) && !run.stdout.includes(hash) && !run.stdout.includes('site_key'));
    }
  });

  it('prints the key in a table with the tickets URL and a warning without --format=json', async () => {
    const run = await cli(['site', 'create', '--name', 'Blog'], env);
    assert.equal(run.status, 0, run.stderr);
    const lines = run.stdout.split('\n');
    assert.match(lines[0] as string, /^Success: Created site '[a-z0-9]{12}'\.$/);
    assert.match(run.stdout, /\| site_key {13}\| [0-9a-f]{64} \|/);
    assert.match(run.stdout, /\| portal {15}\| off /);
    assert.match(run.stdout, /\| message_limit {8}\| 5000 /);
    assert.match(run.stdout, /^Tickets URL: http:\/\/\S+\/wp-json\/support\/v1\/sites\/[a-z0-9]{12}\/tickets$/m);
    assert.match(run.stdout, /cannot be shown again/);
  });

  it('updates settings', async () => {
    const run = await cli(['site', 'update', siteId, '--name=Shop Two', '--origins=https://shop.example', '--new-tickets=on', '--doc-collections=billing,faq', '--message-hint='], env);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, `Success: Updated site '${siteId}'.\n`);
    assert.equal(run.stderr, "Warning: No doc collection is named 'billing', 'faq' (there are none yet); the site shows no docs from them until one is.\n");
    const site = await json(['site', 'get', siteId, '--format=json']);
    assert.deepEqual([site.name, site.origins, site.new_tickets, site.doc_collections, site.message_hint, site.message_limit],
      ['Shop Two', ['https://shop.example'], true, ['billing', 'faq'], '', 2000]);
  });

  it('warns about a --doc-collections slug that names no collection, and only about that one', async () => {
    const { site } = await openFor(env);
    try {
      await insertDocs(site, [{ slug: 'refunds', title: 'Refunds', content: 'x', collections: ['billing'] }]);
    } finally {
      await site.close();
    }
    const run = await cli(['site', 'update', siteId, '--doc-collections=billing,fqa'], env);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stderr, "Warning: No doc collection is named 'fqa' (known: billing); the site shows no docs from it until one is.\n");
    assert.equal((await cli(['site', 'update', siteId, '--doc-collections=billing'], env)).stderr, '');
  });

  it('rotate-key prints a new key once; the ticket route takes the new key and refuses the old one at once', async () => {
    assert.equal(await openTicketWith(siteId, key), 201);
    const out = await json(['site', 'rotate-key', siteId, '--format=json']);
    assert.equal(out.site_id, siteId);
    assert.match(out.site_key as string, /^[0-9a-f]{64}$/);
    assert.notEqual(out.site_key, key);
    assert.equal((await stored(siteId)).meta._svc_key_hash, sha256(out.site_key as string));
    assert.equal(await openTicketWith(siteId, key), 401);
    assert.equal(await openTicketWith(siteId, out.site_key as string), 201);
    key = out.site_key as string;
  });

  it('deletes a site: its key stops working, and it is gone from the list', async () => {
    const run = await cli(['site', 'delete', siteId], env);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, `Success: Deleted site '${siteId}'.\n`);
    assert.equal((await stored(siteId)).post, undefined);
    assert.equal(await openTicketWith(siteId, key), 404);
    const list = JSON.parse((await cli(['site', 'list', '--format=json'], env)).stdout);
    assert.ok(!list.some((s: { site_id: string }) => s.site_id === siteId));
  });

  it('refuses bad input with an error and exit status 1, changing nothing', async () => {
    const before = (await cli(['site', 'list', '--format=json'], env)).stdout;
    const cases: Array<[string[], RegExp]> = [
      [['site', 'create'], /Missing --name/],
      [['site', 'create', '--name=X', '--origins=null'], /never a listed address/],
      [['site', 'create', '--name=X', '--origins=https://x.example/path'], /without a path/],
      [['site', 'create', '--name=X', '--origins=x.example'], /Invalid address/],
      [['site', 'create', '--name=X', '--portal=yes'], /Invalid value for --portal/],
      [['site', 'create', '--name=X', '--message-limit=lots'], /Invalid value for --message-limit/],
      [['site', 'create', '--name=X', '--message-limit=0'], /Invalid message limit/],
      [['site', 'create', '--name=X', '--format=csv'], /Invalid value for --format/],
      [['site', 'create', '--name=X', '--key=abc'], /unknown --key parameter/],
      [['site', 'get', 'nosuchsite00'], /No site has the site-id 'nosuchsite00'/],
      [['site', 'get'], /Too few arguments/],
      [['site', 'update', 'nosuchsite00'], /Nothing to change/],
      [['site', 'update', 'nosuchsite00', '--portal=on'], /No site has the site-id/],
      [['site', 'rotate-key', 'nosuchsite00'], /No site has the site-id/],
      [['site', 'delete', 'nosuchsite00'], /No site has the site-id/],
      [['site', 'frobnicate'], /not a registered subcommand/],
    ];
    for (const [argv, message] of cases) {
      const run = await cli(argv, env);
      assert.equal(run.status, 1, argv.join(' '));
      assert.match(run.stderr, message, argv.join(' '));
    }
    assert.equal((await cli(['site', 'list', '--format=json'], env)).stdout, before);
  });

  it('shows its help', async () => {
    const run = await cli(['help', 'site'], env);
    assert.equal(run.status, 0);
    assert.match(run.stdout, /rotate-key <site-id>/);
    assert.match((await cli(['help'], env)).stdout, /^ {2}site {6}Create, list, show, change, delete connected sites/m);
  });
});
