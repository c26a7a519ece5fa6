/**
 * The PHP cache companion against real WordPress (Debian's package, php -S) reading through a
 * persistent object cache in Redis, over the oracle database. Rows change with SQL, as Understudy
 * writes them: PHP keeps serving the cached rows until the companion is told what changed.
 */
import assert from 'node:assert/strict';
import { WordPressChanges } from '../../../../lib/wp/changes';
import { companionInvalidator, companionKey, companionPayload, companionSignature, companionUrl } from '../../../../lib/wp/object-cache/companion';
import { ObjectCacheInvalidator } from '../../../../lib/wp/object-cache/invalidator';
import { ScratchDatabase, scratchDatabase } from '../../../harness/db';
import { listen } from '../../../harness/http';
import { ORACLE_SALTS, loadOracleInto } from '../../../harness/oracle';
import { RunningWordPress, startWordPressPhp, wordpressPhpSkipReason } from '../../../harness/wordpress-php';

const TICKET = 158;
const TICKET_FIELDS = `$p = get_post(${TICKET}); return array($p->post_status, get_post_meta(${TICKET}, '_svc_priority', true),
  get_post_meta(${TICKET}, '_svc_assignee', true), get_post_meta(${TICKET}, '_svc_version', true));`;
/** The open tickets as a PHP screen lists them: a WP_Query, whose IDs the cache keeps under posts' last_changed. */
const OPEN_TICKETS = `return (new WP_Query(array('post_type' => 'svc_ticket', 'post_status' => 'svc-open',
  'posts_per_page' => -1, 'fields' => 'ids')))->posts;`;

describe('PHP cache companion: real WordPress reading through Redis', function () {
  this.timeout(60_000);
  let scratch: ScratchDatabase;
  let wp: RunningWordPress;
  let companion: ObjectCacheInvalidator;

  before(async function () {
    const skip = wordpressPhpSkipReason();
    if (skip) {
      console.log(`      skipped: ${skip}`);
      this.skip();
    }
    scratch = await scratchDatabase();
    await loadOracleInto(scratch);
    wp = await startWordPressPhp({ db: scratch.target, salts: ORACLE_SALTS });
    companion = companionInvalidator(wp.companion);
  });

  after(async () => {
    await companion?.close();
    await wp?.close();
    await scratch?.drop();
  });

  /** PHP's view before, right after the SQL change (still the cached one), and after the companion ran. */
  async function seen<T>(code: string, change: () => Promise<void>, changes: WordPressChanges): Promise<T[]> {
    const before = await wp.phpEval<T>(code);
    await change();
    const stale = await wp.phpEval<T>(code);
    await companion.invalidate(changes);
    return [before, stale, await wp.phpEval<T>(code)];
  }

  it("shows a ticket's new status, priority, assignee and version, and its leaving the open list", async () => {
    const [before, stale, after] = await seen(TICKET_FIELDS, () => scratch.execMysql(`
      UPDATE wp_posts SET post_status = 'svc-resolved' WHERE ID = ${TICKET};
      UPDATE wp_postmeta SET meta_value = 'urgent' WHERE post_id = ${TICKET} AND meta_key = '_svc_priority';
      UPDATE wp_postmeta SET meta_value = '5' WHERE post_id = ${TICKET} AND meta_key = '_svc_version';
      INSERT INTO wp_postmeta (post_id, meta_key, meta_value) VALUES (${TICKET}, '_svc_assignee', '2');`),
    new WordPressChanges().post(TICKET, 'svc_ticket').postMetaKey(TICKET, '_svc_priority')
      .postMetaKey(TICKET, '_svc_version').postMetaKey(TICKET, '_svc_assignee'));

    assert.deepEqual(before, ['svc-open', 'normal', '', '4']);
    assert.deepEqual(stale, before);
    assert.deepEqual(after, ['svc-resolved', 'urgent', '2', '5']);
    assert.ok(!(await wp.phpEval<number[]>(OPEN_TICKETS)).includes(TICKET));
  });

  it('shows a new ticket in the open list and a reply among its ticket\'s messages', async () => {
    const replies = `return count(get_children(array('post_parent' => ${TICKET}, 'post_type' => 'svc_message', 'post_status' => 'any')));`;
    const [openBefore, repliesBefore] = [await wp.phpEval<number[]>(OPEN_TICKETS), await wp.phpEval<number>(replies)];
    await scratch.execMysql(`
      INSERT INTO wp_posts (ID, post_author, post_date, post_date_gmt, post_content, post_title, post_excerpt, post_status,
        post_name, to_ping, pinged, post_modified, post_modified_gmt, post_content_filtered, post_parent, post_type)
      VALUES (90001, 0, NOW(), UTC_TIMESTAMP(), '', 'A new ticket', '', 'svc-open', '', '', '', NOW(), UTC_TIMESTAMP(), '', 0, 'svc_ticket'),
             (90002, 0, NOW(), UTC_TIMESTAMP(), 'A reply', '', '', 'publish', '', '', '', NOW(), UTC_TIMESTAMP(), '', ${TICKET}, 'svc_message');`);
    assert.deepEqual(await wp.phpEval<number[]>(OPEN_TICKETS), openBefore);
    assert.equal(await wp.phpEval<number>(replies), repliesBefore);

    await companion.invalidate(new WordPressChanges().post(90001, 'svc_ticket').post(90002, 'svc_message', TICKET));

    assert.ok((await wp.phpEval<number[]>(OPEN_TICKETS)).includes(90001));
    assert.equal(await wp.phpEval<number>(replies), repliesBefore + 1);
  });

  it('shows a setting that PHP had found missing, and a changed autoloaded option', async () => {
    const code = "return array(get_option('svc_settings'), get_option('blogname'));";
    const [before, stale, after] = await seen(code, () => scratch.execMysql(`
      INSERT INTO wp_options (option_name, option_value, autoload) VALUES ('svc_settings', 'a:1:{s:6:"portal";b:1;}', 'yes');
      UPDATE wp_options SET option_value = 'Renamed desk' WHERE option_name = 'blogname';`),
    new WordPressChanges().option('svc_settings').option('blogname'));

    assert.deepEqual(before, [false, 'WP Oracle']);
    assert.deepEqual(stale, before);
    assert.deepEqual(after, [{ portal: true }, 'Renamed desk']);
  });

  it("shows a user's new display name and email, and forgets the old email", async () => {
    const code = `return array(get_userdata(2)->display_name, (bool) get_user_by('email', 'agent1@example.test'),
      (int) (get_user_by('email', 'agent.one@example.test') ? get_user_by('email', 'agent.one@example.test')->ID : 0));`;
    const [before, stale, after] = await seen(code, () => scratch.execMysql(
      "UPDATE wp_users SET display_name = 'Agent Renamed', user_email = 'agent.one@example.test' WHERE ID = 2;"),
    new WordPressChanges().user(2, { login: 'agent1', email: 'agent1@example.test', nicename: 'agent1' })
      .user(2, { email: 'agent.one@example.test' }));

    assert.deepEqual(before, ['Agent One', true, 0]);
    assert.deepEqual(stale, ['Agent One', true, 2], 'the old name and email still served (the new email is looked up)');
    assert.deepEqual(after, ['Agent Renamed', false, 2]);
  });

  it('fires understudy_cache_invalidated once per write: a repeat (the second pass) cleans again without firing it', async () => {
    // The test plugin logs each firing (test/fixtures/wordpress/understudy-test-probe.php).
    const fired = `$log = WP_CONTENT_DIR . '/understudy-test-invalidated.log';
      return file_exists($log) ? array_map(function ($line) { return json_decode($line, true); }, file($log, FILE_IGNORE_NEW_LINES)) : array();`;
    const blogname = "return get_option('blogname');";
    const rename = (name: string) => scratch.execMysql(`UPDATE wp_options SET option_value = '${name}' WHERE option_name = 'blogname';`);
    const changes = new WordPressChanges().option('blogname');
    const firedBefore = (await wp.phpEval<unknown[]>(fired)).length;

    await wp.phpEval(blogname);
    await rename('First rename');
    await companion.invalidate(changes);
    assert.equal(await wp.phpEval(blogname), 'First rename');
    await rename('Second rename');
    assert.equal(await wp.phpEval(blogname), 'First rename', 'PHP serves the cached value');
    await companion.invalidate(changes, { repeat: true });

    assert.equal(await wp.phpEval(blogname), 'Second rename', 'the repeat cleaned the cache');
    const firings = (await wp.phpEval<Array<{ options: string[] }>>(fired)).slice(firedBefore);
    assert.deepEqual(firings.map((c) => c.options), [['blogname']], 'the action fired for the first call only');
  });

  describe('refuses a request Understudy did not sign', () => {
    const changes = () => new WordPressChanges().option('blogname');
    const blogname = "return get_option('blogname');";

    async function staleBlogname(): Promise<string> {
      const name = `Unsigned ${Date.now()}`;
      await wp.phpEval(blogname);
      await scratch.execMysql(`UPDATE wp_options SET option_value = '${name}' WHERE option_name = 'blogname';`);
      return name;
    }

    it('with a key from other salts: 403, and nothing invalidated', async () => {
      const name = await staleBlogname();
      const cached = await wp.phpEval<string>(blogname);
      const impostor = companionInvalidator({ ...wp.companion, authSalt: 'not the site salt' });
      try {
        await assert.rejects(impostor.invalidate(changes()), /answered 403: .*understudy_companion_forbidden/);
      } finally {
        await impostor.close();
      }
      assert.equal(await wp.phpEval(blogname), cached);
      assert.notEqual(cached, name);
      await companion.invalidate(changes());
      assert.equal(await wp.phpEval(blogname), name);
    });

    it('with the right key but a timestamp older than 300 s, or a body changed after signing: 403', async () => {
      const name = await staleBlogname();
      const cached = await wp.phpEval<string>(blogname);
      const key = companionKey(wp.companion.authSalt);
      const body = companionPayload(changes());
      const old = String(Math.floor(Date.now() / 1000) - 301);
      const now = String(Math.floor(Date.now() / 1000));
      const tampered = companionPayload(new WordPressChanges().option('siteurl'));
      for (const [timestamp, sent, signedBody] of [[old, body, body], [now, tampered, body]]) {
        const res = await fetch(companionUrl(wp.companion.siteUrl), {
          method: 'POST', body: sent,
          headers: { 'content-type': 'application/json', 'x-understudy-timestamp': timestamp,
            'x-understudy-signature': companionSignature(key, timestamp, signedBody) },
        });
        assert.equal(res.status, 403);
      }
      const get = await wp.phpGet(`/?rest_route=${encodeURIComponent('/understudy-companion/v1/invalidate')}`);
      assert.equal(get.status, 404, 'the route answers POST only');
      assert.equal(await wp.phpEval(blogname), cached);
      assert.notEqual(cached, name);
    });
  });
});

describe('companionInvalidator over HTTP', () => {
  const changes = () => new WordPressChanges().post(1, 'post');

  it('rejects when no answer comes within its timeout, and when nothing listens', async () => {
    const silent = await listen(() => undefined);
    const invalidator = companionInvalidator({ siteUrl: silent.url, authSalt: 'salt', timeoutMs: 200 });
    try {
      await assert.rejects(invalidator.invalidate(changes()), /gave no answer within 0.2 s/);
    } finally {
      await invalidator.close();
      await silent.close();
    }
    const nobody = companionInvalidator({ siteUrl: silent.url, authSalt: 'salt' });
    await assert.rejects(nobody.invalidate(changes()), /ECONNREFUSED/);
    await nobody.close();
  });

  it('fails every one of many concurrent calls on time when PHP accepts them and never answers', async () => {
    const timeoutMs = 500;
    const stalled = await listen(() => undefined);
    const invalidator = companionInvalidator({ siteUrl: stalled.url, authSalt: 'salt', timeoutMs });
    try {
      // Each write waits for its own call: none may wait for the calls queued before it.
      const elapsed = await Promise.all(Array.from({ length: 12 }, async (_, i) => {
        const started = Date.now();
        await assert.rejects(invalidator.invalidate(new WordPressChanges().post(i + 1, 'post')), /gave no answer within 0.5 s/);
        return Date.now() - started;
      }));
      assert.ok(elapsed.every((ms) => ms <= 2 * timeoutMs), `each call failed after its own deadline, not after the ones before it: ${elapsed.join(', ')} ms`);
    } finally {
      await invalidator.close();
      await stalled.close();
    }
  });

  it('sends the changes once, signed, and sends nothing for a write that changed nothing', async () => {
    const received: { url?: string; headers: Record<string, unknown>; body: string }[] = [];
    const companion = await listen((req, res) => {
      let body = '';
      req.on('data', (chunk) => { body += chunk; });
      req.on('end', () => {
        received.push({ url: req.url, headers: req.headers, body });
        res.end('{"invalidated":true}');
      });
    });
    const invalidator = companionInvalidator({ siteUrl: `${companion.url}/blog`, authSalt: 'salt' });
    try {
      await invalidator.invalidate(new WordPressChanges());
      await invalidator.invalidate(new WordPressChanges().post(7, 'svc_ticket').postMetaKey(7, '_svc_version')
        .user(2, { login: 'agent1', email: 'old@example.test' }).user(2, { email: 'new@example.test' }));
    } finally {
      await invalidator.close();
      await companion.close();
    }
    assert.equal(received.length, 1);
    const [{ url, headers, body }] = received;
    assert.equal(url, '/blog/?rest_route=%2Funderstudy-companion%2Fv1%2Finvalidate');
    assert.deepEqual(JSON.parse(body), {
      posts: [{ id: 7, type: 'svc_ticket', parent: 0 }], postMeta: { 7: ['_svc_version'] }, options: [],
      users: [{ id: 2, logins: ['agent1'], emails: ['old@example.test', 'new@example.test'], nicenames: [] }],
      userMeta: {}, terms: [], comments: [],
    });
    const timestamp = String(headers['x-understudy-timestamp']);
    assert.equal(headers['x-understudy-signature'], companionSignature(companionKey('salt'), timestamp, body));
  });
});
