/**
 * Every write reports what it changed in WordPress's tables (lib/wp/change-feed.ts), on the oracle:
 * for each kind of write, driven through its route or domain function, what the site's feed was told
 * by the time the write returned equals what the rows of posts, postmeta, options, users and usermeta
 * say changed: each post with its type and parent, each meta key per post, each option, each user by
 * login, email and nicename (old and new), each user meta key. A row missing from the report is a row
 * PHP's object cache would keep stale; a row reported but unchanged is a needless invalidation.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import * as formsAdmin from '../../../lib/forms/admin';
import { acceptSubmission } from '../../../lib/forms/notifications';
import { encodeSubmission, findForm } from '../../../lib/forms/store';
import { memoryLogger } from '../../../lib/logger';
import { createProduct } from '../../../lib/support/changelogs/admin';
import { syncProduct } from '../../../lib/support/changelogs/sync';
import { handOff } from '../../../lib/support/chat/handoff';
import { acceptMessage, chatSender } from '../../../lib/support/chat/reply';
import { findThread } from '../../../lib/support/chat/store';
import { recordFeedback } from '../../../lib/support/docs/feedback';
import { insertDocs } from '../../../lib/support/docs/store';
import { docVisitor } from '../../../lib/support/docs/visitor';
import { beginDeliveryAttempt, finishDeliveryAttempt } from '../../../lib/support/outbound/delivery-state';
import { consumePortalCode, sendPortalCode } from '../../../lib/support/portal/codes';
import { openPortalSession, revokePortalSession } from '../../../lib/support/portal/sessions';
import { createConnectedSite, deleteConnectedSite, getConnectedSite, rotateSiteKey } from '../../../lib/support/sites/admin';
import { ChangeFeed } from '../../../lib/wp/change-feed';
import { WordPressChanges } from '../../../lib/wp/changes';
import { parseOutgoingAllow } from '../../../lib/wp/http/outgoing-allow';
import { confirmEmailChange } from '../../../lib/wp/users-email-confirm';
import { Listening, listen } from '../../harness/http';
import { addTestMailbox, relayPost } from '../../harness/mail';
import { OracleSite, openOracle } from '../../harness/oracle';
import { API, as } from '../../harness/support';
import { PlainChanges, reportedAndChanged } from '../../harness/wordpress-rows';

const ME = '/wp-json/wp/v2/users/me';
const README = '=== Tool ===\n\n== Changelog ==\n\n= 1.1.0 =\n* Faster.\n\n= 1.0.0 =\n* First.\n';

describe('every write reports what it changed in WordPress\'s tables', function () {
  let oracle: OracleSite;
  let source: Listening;

  before(async () => {
    source = await listen((_req, res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end(README));
    oracle = await openOracle({ outgoingAllow: parseOutgoingAllow(`127.0.0.1:${new URL(source.url).port}`) });
  });
  after(async () => {
    await oracle?.close();
    await source?.close();
  });

  /**
   * Runs the write a few seconds after the last one (so a post's modified time moves) and checks that
   * what it reported is what the rows say; returns what changed and the write's result.
   */
  async function check<T>(write: () => Promise<T>, expect: { nothing?: boolean } = {}): Promise<{ changed: PlainChanges; result: T }> {
    oracle.clock.advance(5000);
    const { reported, changed, result } = await reportedAndChanged(oracle.site, write);
    assert.deepEqual(reported, changed);
    const count = Object.values(changed).reduce((n, lines) => n + lines.length, 0);
    if (expect.nothing) assert.equal(count, 0, 'this write changes no row WordPress caches');
    else assert.ok(count > 0, 'the write changed something');
    return { changed, result };
  }
  const ok = (res: request.Response, status = 200): request.Response => {
    assert.equal(res.status, status, res.text);
    return res;
  };

  let ticket: { id: number; version: number };

  describe('tickets and their conversation', () => {
    it('a new ticket: the ticket and its first message, with their meta', async () => {
      const { changed, result } = await check(async () => ok(await as(oracle.app, 'customer1').post(`${API}/tickets`).send({ subject: 'Feed me', body: 'Hello' }), 201));
      ticket = { id: result.body.id, version: result.body.version };
      assert.ok(changed.posts.some((line) => line.startsWith(`${ticket.id} svc_ticket parent=0`)), changed.posts.join('\n'));
    });

    it('is told after the commit: a listener reading through another connection sees the rows it is told of', async () => {
      const seen: Array<string | undefined> = [];
      const stop = oracle.site.changes.subscribe(async (c) => {
        for (const post of c.posts.values()) {
          seen.push((await oracle.site.db.knex('wp_posts').where({ ID: post.id }).first('post_type'))?.post_type);
        }
      });
      try {
        ok(await as(oracle.app, 'customer1').post(`${API}/tickets`).send({ subject: 'Committed?', body: 'Hello' }), 201);
      } finally {
        stop();
      }
      assert.deepEqual(seen.sort(), ['svc_message', 'svc_ticket']);
    });

    it('an update: status, priority and assignee', async () => {
      const { result } = await check(async () => ok(await as(oracle.app, 'agent1').patch(`${API}/tickets/${ticket.id}`).send({ version: ticket.version, status: 'waiting', priority: 'urgent', assignee: 2 })));
      ticket.version = result.body.version;
    });

    it("an agent's reply, with its delivery", async () => {
      const { result } = await check(async () => ok(await as(oracle.app, 'agent1').post(`${API}/tickets/${ticket.id}/messages`).send({ body: 'On it.', version: ticket.version }), 201));
      ticket.version += 1;
      deliveryId = result.body.deliveries[0].id;
    });

    it('an internal note', async () => {
      await check(async () => ok(await as(oracle.app, 'agent1').post(`${API}/tickets/${ticket.id}/messages`).send({ body: 'Legacy plan.', version: ticket.version, visibility: 'internal' }), 201));
      ticket.version += 1;
    });

    it('resolving', async () => {
      await check(async () => ok(await as(oracle.app, 'agent1').patch(`${API}/tickets/${ticket.id}`).send({ version: ticket.version, status: 'resolved' })));
      ticket.version += 1;
    });

    let deliveryId: number;
    it("a delivery's attempt (the job worker) and an agent's cancel", async () => {
      await check(() => beginDeliveryAttempt(oracle.site, deliveryId));
      await check(() => finishDeliveryAttempt(oracle.site, deliveryId, '451 try later'));
      await check(async () => ok(await as(oracle.app, 'agent1').patch(`${API}/tickets/${ticket.id}/deliveries/${deliveryId}`).send({ action: 'retry', attempts: 1 })));
    });
  });

  describe('connected sites and the portal', () => {
    let siteId: string;
    it('creating a site, rotating its key', async () => {
      const { result } = await check(() => createConnectedSite(oracle.site, { name: 'Shop', origins: ['https://shop.example'], portal: true }));
      siteId = result.site.siteId;
      await check(() => rotateSiteKey(oracle.site, siteId));
    });

    it('portal codes and sessions are the plugin\'s own tables: nothing reported, nothing changed', async () => {
      const portal = await getConnectedSite(oracle.site, siteId);
      await check(() => sendPortalCode(oracle.site, portal, 'visitor@example.net'), { nothing: true });
      await check(() => consumePortalCode(oracle.site, siteId, 'visitor@example.net', '000000'), { nothing: true });
      const { result } = await check(() => openPortalSession(oracle.site, siteId, 'visitor@example.net'), { nothing: true });
      await check(() => revokePortalSession(oracle.site, result.session), { nothing: true });
    });

    it('deleting a site: the post and every meta key it had', async () => {
      const { changed } = await check(() => deleteConnectedSite(oracle.site, siteId));
      assert.ok(changed.postMeta.length > 1, changed.postMeta.join('\n'));
    });
  });

  describe('docs and chat', () => {
    it('new docs: posts, and their terms reported', async () => {
      let heard = new WordPressChanges();
      const stop = oracle.site.changes.subscribe((c) => { heard = c; });
      await check(() => insertDocs(oracle.site, [{ title: 'Feeds', slug: 'feeds-doc', content: '<p>About feeds.</p>', excerpt: 'Feeds.', collections: ['feed-tests'] }]));
      stop();
      assert.equal(heard.terms.size, 1);
    });

    it('a vote on a doc: its counts', async () => {
      const doc = await oracle.site.db.knex('wp_posts').where({ post_type: 'svc_doc', post_name: 'feeds-doc' }).first('ID');
      const visitor = await docVisitor(oracle.site, '203.0.113.9');
      await check(() => recordFeedback(oracle.site, Number(doc.ID), visitor, { helpful: true, comment: '' }));
      await check(() => recordFeedback(oracle.site, Number(doc.ID), visitor, { helpful: false, comment: 'Unclear.' }));
    });

    it("a visitor's chat message (a new thread, then another message), and the handoff", async () => {
      const uuid = randomUUID();
      const { result } = await check(async () => acceptMessage(oracle.site, await chatSender(oracle.site, uuid, undefined), { thread: uuid, message: 'Hello?', collections: null }));
      await check(async () => acceptMessage(oracle.site, await chatSender(oracle.site, uuid, result.mintedToken as string), { thread: uuid, token: result.mintedToken as string, message: 'Anyone?', collections: null }));
      const thread = await findThread(oracle.site.db, uuid);
      await check(() => handOff(oracle.site, thread!, { email: 'visitor@example.net', name: 'Visitor', note: 'Please help.' }));
    });
  });

  describe('changelogs', () => {
    it('a product, its sync (releases) and a sync that changes nothing but its status', async () => {
      const { result: product } = await check(() => createProduct(oracle.site, { name: 'Feed tool', source: `${source.url}/readme.txt` }));
      const { changed } = await check(() => syncProduct(oracle.site, product));
      assert.ok(changed.posts.filter((line) => line.includes(' svc_release ')).length === 2, changed.posts.join('\n'));
      await check(() => syncProduct(oracle.site, product));
      // The PHP site edits a release's notes: the next read renders them and stores the view.
      const release = await oracle.site.db.knex('wp_posts').where({ post_type: 'svc_release', post_parent: product.postId }).first('ID');
      await oracle.site.db.knex('wp_posts').where({ ID: release.ID }).update({ post_content: '* Faster, edited in PHP.' });
      const { changed: rendered } = await check(async () => ok(await request(oracle.app).get(`${API}/changelogs/${product.slug}`)));
      assert.deepEqual(rendered.postMeta, [`${release.ID} _svc_rendered_notes`]);
    });
  });

  describe('mail', () => {
    const email = (n: number) => Buffer.from(`From: Sender ${n} <sender${n}@example.net>\r\nTo: help@support.example.test\r\nSubject: Mail ${n}\r\nMessage-ID: <feed-${n}-${randomUUID()}@example.net>\r\n\r\nBody ${n}\r\n`);
    let mailbox: Awaited<ReturnType<typeof addTestMailbox>>;

    it('adding a mailbox', async () => {
      ({ result: mailbox } = await check(() => addTestMailbox(oracle.site, 'feedbox')));
    });

    it('one email opening a ticket, then several at once (written in one batch)', async () => {
      await check(async () => ok(await relayPost(oracle.app, oracle.site, mailbox, email(1)), 202));
      const { changed } = await check(async () => Promise.all([2, 3, 4, 5].map(async (n) => ok(await relayPost(oracle.app, oracle.site, mailbox, email(n)), 202))));
      assert.equal(changed.posts.filter((line) => line.includes(' svc_ticket ')).length, 4, changed.posts.join('\n'));
    });
  });

  describe('options, users and forms', () => {
    it("an option written as `understudy option patch` writes it (OptionStore.update), and one left as it was: nothing", async () => {
      await check(() => oracle.site.options.update('feed_test_option', { a: 1 }));
      await check(() => oracle.site.options.update('feed_test_option', { a: 2 }));
      await check(() => oracle.site.options.update('feed_test_option', { a: 2 }), { nothing: true });
      await check(async () => assert.equal(await oracle.site.options.delete('feed_test_option'), true));
    });

    it('users/me: a display name, then a new address asked for (`_new_email`) and confirmed: old and new email named', async () => {
      await check(async () => ok(await as(oracle.app, 'customer1').post(ME).send({ name: 'Customer One Renamed' })));
      await check(async () => ok(await as(oracle.app, 'customer1').post(ME).send({ email: 'c1.feed@example.org' })));
      const raw = (await oracle.site.db.knex('wp_usermeta').where({ user_id: 4, meta_key: '_new_email' }).first('meta_value')).meta_value;
      const hash = /s:4:"hash";s:32:"([0-9a-f]{32})";/.exec(raw)?.[1];
      const { changed, result } = await check(() => confirmEmailChange(oracle.site, 4, hash));
      assert.equal(result.result, 'changed');
      assert.ok(changed.users.some((line) => line.includes('emails=c1.feed@example.org,customer1@example.test')), changed.users.join('\n'));
    });

    it('a form: created, saved, submitted to, deleted', async () => {
      const actor = { id: 1, unfilteredHtml: true };
      const { result: form } = await check(() => formsAdmin.createForm(oracle.site, actor, { title: 'Feed form', messages: { success: 'Thanks!' } }));
      await check(() => formsAdmin.saveForm(oracle.site, actor, form.ID, { title: 'Feed form 2', messages: { success: '' } }));
      const stored = await findForm(oracle.site.db, form.ID);
      await check(() => acceptSubmission(oracle.site, stored!, encodeSubmission({ name: 'A' }), { userAgent: 'test', ipAddress: '203.0.113.1', refererUrl: '' }), { nothing: true });
      await check(() => formsAdmin.deleteForm(oracle.site, form.ID));
    });

    it('users/me deleted (the admin, last): the user, every meta key, and each post reassigned', async () => {
      const { changed } = await check(async () => ok(await as(oracle.app, 'admin').del(`${ME}?force=true&reassign=2`)));
      assert.ok(changed.posts.length > 0, 'the admin authored posts');
    });
  });
});

describe('the change feed', () => {
  it("tells every listener, waits for them, and logs a listener's failure without failing the write", async () => {
    const logger = memoryLogger();
    const feed = new ChangeFeed(logger);
    const heard: string[] = [];
    feed.subscribe(() => { throw new Error('cache away'); });
    feed.subscribe(async (c) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      heard.push(...c.options);
    });
    await feed.publish(new WordPressChanges().option('blogname'));
    assert.deepEqual(heard, ['blogname']);
    assert.equal(logger.lines.filter((l) => l.level === 'error').length, 1);
    assert.match(String(logger.lines[0]?.fields?.error), /cache away/);
  });
});
