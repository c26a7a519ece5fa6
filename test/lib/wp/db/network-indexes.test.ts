/**
 * The plugin tables of every site of a network in one database get their indexes, not only the first
 * site's: on SQLite an index name belongs to the whole database, so site 2's `doc_vote_visitor_day`
 * could not be made once site 1 had one, and the upserts that name those unique keys failed there
 * (a doc vote answered 500; a repeated request key, a mail receipt, a portal code too). On MySQL
 * index names are per table: the same behaviour holds, as it always did.
 */
import assert from 'node:assert/strict';
import { insertDocs } from '../../../../lib/support/docs/store';
import { recordFeedback } from '../../../../lib/support/docs/feedback';
import { actorOf } from '../../../../lib/support/tickets/actor';
import { createTicket } from '../../../../lib/support/tickets/create';
import { CurrentUser } from '../../../../lib/wp/auth/current-user';
import { Site } from '../../../../lib/wp/site';
import { TestNetwork, buildNetwork } from '../../../harness/network';

const VISITOR = { hash: 'a'.repeat(64) };

describe('plugin tables of each site of a network in one database', function () {
  this.timeout(60_000);
  let net: TestNetwork;

  before(async () => {
    net = await buildNetwork({
      domain: 'example.test',
      install: { subdomainInstall: false, current: { domain: 'example.test', path: '/', networkId: 1 } },
      blogs: [1, 2, 3].map((blogId) => ({ blogId, domain: 'example.test', path: blogId === 1 ? '/' : `/site${blogId}/` })),
      users: [{ login: 'customer', roles: { 1: 'subscriber', 2: 'subscriber', 3: 'subscriber' } }],
      superAdmins: [],
    });
  });

  after(async () => {
    await net?.close();
  });

  /** A second vote the same day replaces the first, on the doc votes' unique key. */
  async function voteTwice(site: Site): Promise<boolean[]> {
    const [doc] = await insertDocs(site, [{ title: 'Doc', slug: `doc-${Math.random().toString(36).slice(2)}`, content: 'Words.', collections: [] }]);
    const first = await recordFeedback(site, doc as number, VISITOR, { helpful: true, comment: '' });
    const second = await recordFeedback(site, doc as number, VISITOR, { helpful: false, comment: '' });
    return [first.replaced, second.replaced];
  }

  it('records a second doc vote of the day over the first on every site', async () => {
    for (const blogId of [1, 2, 3]) assert.deepEqual(await voteTwice(await net.site(blogId)), [false, true], `blog ${blogId}`);
  });

  it('stores a ticket once for a repeated request key on every site', async () => {
    for (const blogId of [1, 2, 3]) {
      const site = await net.site(blogId);
      const user = await site.users.byId(net.users.customer as number);
      const caps = await site.capabilities.forUser(user!);
      const current: CurrentUser = { id: user!.ID, user, caps, via: 'cookie', sessionToken: '', can: (cap) => caps.can(cap) };
      const open = () => createTicket(site, actorOf(current), { subject: 'Once', body: 'Only once', requestKey: 'same-key', source: 'web' });
      const [first, again] = [await open(), await open()];
      assert.deepEqual([again.conversation.ticket.id, again.replayed], [first.conversation.ticket.id, true], `blog ${blogId}`);
    }
  });
});
