/**
 * `understudy mailbox add|list|rotate-token|rotate-secret|set` over a scratch database: the printed
 * secrets and their JSON shape, what is stored (the token only as a hash), and refused input.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { connect } from '../../lib/wp/db/database';
import { Tables } from '../../lib/wp/db/tables';
import { ScratchDatabase, scratchDatabase } from '../harness/db';
import { cli, envFor } from './cli-harness';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('understudy mailbox', function () {
  let db: ScratchDatabase;
  let env: Record<string, string>;

  before(async () => {
    db = await scratchDatabase();
    env = envFor(db.target);
  });
  after(async () => { await db?.drop(); });

  /** The mailbox post and its meta, read straight from the tables. */
  async function stored(key: string): Promise<{ post: Record<string, unknown>; meta: Record<string, string>; everything: string }> {
    const conn = connect({ target: db.target, tables: new Tables({ prefix: 'wp_' }) });
    try {
      const post = await conn.knex('wp_posts').where({ post_type: 'svc_mailbox', post_name: key }).first();
      const rows = await conn.knex('wp_postmeta').where({ post_id: post.ID }).select('meta_key', 'meta_value');
      const all = [...(await conn.knex('wp_postmeta').select('meta_value')), ...(await conn.knex('wp_options').select('option_value')), ...(await conn.knex('wp_posts').select('post_title', 'post_content'))];
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

  it('adds a mailbox and prints its secrets once as one JSON object; only a hash of the token is stored', async () => {
    const out = await json(['mailbox', 'add', 'help', '--address=help@example.test', '--max-bytes=2097152', '--automation=on', '--json']);
    assert.deepEqual(Object.keys(out), ['route_key', 'address', 'token', 'relay_secret', 'max_bytes', 'automation']);
    assert.deepEqual([out.route_key, out.address, out.max_bytes, out.automation], ['site-1-help', 'help@example.test', 2097152, true]);
    assert.match(out.token as string, /^[0-9a-f]{64}$/);
    assert.match(out.relay_secret as string, /^[0-9a-f]{64}$/);
    const { post, meta, everything } = await stored('help');
    assert.deepEqual([post.post_type, post.post_status, post.post_name, post.post_title], ['svc_mailbox', 'publish', 'help', 'help@example.test']);
    assert.deepEqual(meta, {
      _svc_address: 'help@example.test', _svc_token_hash: sha256(out.token as string), _svc_relay_secret: out.relay_secret,
      _svc_max_bytes: '2097152', _svc_automation: '1',
    });
    assert.ok(!everything.includes(out.token as string), 'the token itself is stored nowhere');
  });

  it('prints the secrets, the webhook URLs and a warning without --json; defaults to 10 MiB and automation off', async () => {
    const run = await cli(['mailbox', 'add', 'sales', '--address', 'sales@example.test'], env);
    assert.equal(run.status, 0, run.stderr);
    const lines = run.stdout.split('\n');
    assert.equal(lines[0], "Success: Added mailbox 'sales'.");
    assert.equal(lines[1], 'Route key:     site-1-sales');
    assert.equal(lines[2], 'Address:       sales@example.test');
    assert.match(lines[3] as string, /^Mailbox token: [0-9a-f]{64}$/);
    assert.match(lines[4] as string, /^Relay secret:  [0-9a-f]{64}$/);
    assert.deepEqual(lines.slice(5, 7), ['Max bytes:     10485760', 'Automation:    off']);
    assert.match(lines[7] as string, /^Relay URL: {5}http:\/\/\S+\/support\/v1\/webhooks\/relay\/site-1-sales$/);
    assert.match(lines[8] as string, /^Inbound URL: {3}http:\/\/\S+\/support\/v1\/webhooks\/inbound\/site-1-sales$/);
    assert.match(run.stdout, /cannot be shown again/);
  });

  it('lists the mailboxes without their secrets, as a table or JSON', async () => {
    const table = await cli(['mailbox', 'list'], env);
    assert.equal(table.status, 0, table.stderr);
    assert.equal(table.stdout, [
      '+-------+--------------+--------------------+-----------+------------+',
      '| key   | route_key    | address            | max_bytes | automation |',
      '+-------+--------------+--------------------+-----------+------------+',
      '| help  | site-1-help  | help@example.test  | 2097152   | on         |',
      '| sales | site-1-sales | sales@example.test | 10485760  | off        |',
      '+-------+--------------+--------------------+-----------+------------+',
      '',
    ].join('\n'));
    const list = JSON.parse((await cli(['mailbox', 'list', '--format=json'], env)).stdout);
    assert.deepEqual(list[0], { key: 'help', route_key: 'site-1-help', address: 'help@example.test', max_bytes: 2097152, automation: true });
  });

  it('rotate-token issues a new token (the old hash is gone) and keeps the relay secret', async () => {
    const before = await stored('help');
    const out = await json(['mailbox', 'rotate-token', 'help', '--format=json']);
    assert.deepEqual(Object.keys(out), ['route_key', 'address', 'token', 'relay_secret', 'max_bytes', 'automation']);
    const after = await stored('help');
    assert.equal(after.meta._svc_token_hash, sha256(out.token as string));
    assert.notEqual(after.meta._svc_token_hash, before.meta._svc_token_hash);
    assert.equal(out.relay_secret, before.meta._svc_relay_secret);
    assert.equal(after.meta._svc_relay_secret, before.meta._svc_relay_secret);
  });

  it('rotate-secret issues a new relay secret and cannot print the token (null)', async () => {
    const before = await stored('help');
    const out = await json(['mailbox', 'rotate-secret', 'help', '--json']);
    assert.equal(out.token, null);
    assert.match(out.relay_secret as string, /^[0-9a-f]{64}$/);
    assert.notEqual(out.relay_secret, before.meta._svc_relay_secret);
    const after = await stored('help');
    assert.equal(after.meta._svc_relay_secret, out.relay_secret);
    assert.equal(after.meta._svc_token_hash, before.meta._svc_token_hash);
  });

  it('set changes the address, the size limit and the automation switch', async () => {
    const run = await cli(['mailbox', 'set', 'sales', '--address=orders@example.test', '--max-bytes=1048576', '--automation=on'], env);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, "Success: Updated mailbox 'sales'.\n");
    const { post, meta } = await stored('sales');
    assert.deepEqual([post.post_title, meta._svc_address, meta._svc_max_bytes, meta._svc_automation], ['orders@example.test', 'orders@example.test', '1048576', '1']);
    assert.equal((await cli(['mailbox', 'set', 'sales', '--automation=off'], env)).status, 0);
    assert.equal((await stored('sales')).meta._svc_automation, '0');
  });

  it('refuses bad input with an error and exit status 1, changing nothing', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['mailbox', 'add', 'help', '--address=x@example.test'], /already exists/],
      [['mailbox', 'add', 'Bad_Key', '--address=x@example.test'], /Invalid mailbox key/],
      [['mailbox', 'add', 'new'], /Missing --address/],
      [['mailbox', 'add', 'new', '--address=not-an-address'], /Invalid address/],
      [['mailbox', 'add', 'new', '--address=x@example.test', '--max-bytes=12kb'], /Invalid value for --max-bytes/],
      [['mailbox', 'add', 'new', '--address=x@example.test', '--max-bytes=100'], /Invalid max bytes/],
      [['mailbox', 'add', 'new', '--address=x@example.test', '--automation=yes'], /Invalid value for --automation/],
      [['mailbox', 'rotate-token', 'nobody'], /No mailbox has the key 'nobody'/],
      [['mailbox', 'set', 'help'], /Nothing to change/],
      [['mailbox', 'frobnicate'], /not a registered subcommand/],
    ];
    for (const [argv, message] of cases) {
      const run = await cli(argv, env);
      assert.equal(run.status, 1, argv.join(' '));
      assert.match(run.stderr, message, argv.join(' '));
    }
    const list = JSON.parse((await cli(['mailbox', 'list', '--format=json'], env)).stdout);
    assert.deepEqual(list.map((m: { key: string }) => m.key), ['help', 'sales']);
  });
});
