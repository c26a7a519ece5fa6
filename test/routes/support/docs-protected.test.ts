/**
 * Password-protected docs (docs/docs.md, "Password-protected docs"; docs/chat.md, "Retrieval"): a
 * published doc with a `post_password` is found by nobody (anonymous, customer or agent) by any of its
 * words, never shows its text, and never reaches the chat model, whether it was protected before the
 * index was built, after it, or after the assistant had learned it. The password is set and cleared
 * through SQL from another connection, as the PHP site writes it.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { Knex } from 'knex';
import { insertDocs } from '../../../lib/support/docs/store';
import { eventually } from '../../harness/eventually';
import { FakeProvider, startFakeProvider } from '../../harness/chat-provider';
import { TestSite, openTestSite, setSupportSettings } from '../../harness/site';
import { API, Login, as } from '../../harness/support';
import { loadDocsIndex } from '../../harness/desk';

/** The project's freshness bound. */
const BOUND_MS = 2000;
/** What only the protected doc says (its title, excerpt and body). */
const VAULT_TEXT = ['zanzibar', 'flamingo', 'marmalade', 'Partner pricing', 'forty percent'];
/** What only the roadmap says, beyond a question's words. */
const ROADMAP_TEXT = ['Beta roadmap', 'ships in spring'];

describe('password-protected docs', function () {
  this.timeout(60_000);
  let t: TestSite;
  let fake: FakeProvider;
  /** Another server's connection to the same database: the PHP site. */
  let php: Knex;
  let open: number;
  let vault: number;
  let roadmap: number;

  before(async () => {
    fake = await startFakeProvider();
    t = await openTestSite({ oracle: true });
    php = (await t.openAnother()).db.knex;
    [open, vault, roadmap] = await insertDocs(t.site, [
      { slug: 'shipping', title: 'Shipping rates', content: '<p>Parcels ship by courier within two days.</p>', collections: ['help'] },
      {
        slug: 'partner-pricing', title: 'Partner pricing', excerpt: 'Wholesale marmalade terms.', collections: ['help'],
        content: '<h2>Rates</h2><p>Partners pay the zanzibar rate: a flamingo discount of forty percent on courier fees.</p>',
      },
      { slug: 'roadmap', title: 'Beta roadmap', content: '<h2>Spring</h2><p>The quokka release ships in spring with courier tracking.</p>', collections: ['help'] },
    ]);
    // Protected before anything was indexed or learned.
    await setPassword(vault, 'partners-2026');
    await loadDocsIndex(t.site);
    await setSupportSettings(t.site, { chat_enabled: true, chat_base_url: fake.baseUrl, chat_model: 'ok', chat_api_key: 'sk-test-key' });
  });
  after(async () => {
    await t?.close();
    await fake?.close();
  });
  // A new minute and hour for every test: the search and chat limits are not what is tested here.
  beforeEach(() => t.clock.advance(3600 * 1000));

  /** As PHP saves the password box of the editor: only post_password changes (post_modified too, in WordPress; not needed). */
  function setPassword(id: number, password: string): Promise<number> {
    return php(t.site.db.tables.posts).where({ ID: id }).update({ post_password: password });
  }

  async function search(q: string, login?: Login): Promise<request.Response> {
    const res = await (login ? as(t.app, login) : request(t.app)).get(`${API}/docs/search`).query({ q });
    assert.equal(res.status, 200, res.text);
    return res;
  }
  const ids = (res: request.Response) => res.body.map((hit: { id: number }) => hit.id);
  const leaks = (text: string, words = VAULT_TEXT) => words.filter((word) => text.toLowerCase().includes(word.toLowerCase()));

  it('is found by no caller, by its body, excerpt or title, and none of its text is answered', async () => {
    for (const login of [undefined, 'customer1', 'agent1'] as const) {
      for (const q of ['zanzibar flamingo', 'marmalade', 'partner pricing', 'courier']) {
        const res = await search(q, login);
        assert.ok(!ids(res).includes(vault), `${login ?? 'anonymous'} found the protected doc with "${q}"`);
        assert.deepEqual(leaks(res.text), [], res.text);
      }
    }
    assert.deepEqual(ids(await search('courier')), [open, roadmap], 'the public docs are found as before');
  });

  it('a password set through SQL after the index was built hides the doc within 2 s; cleared, the doc is back', async () => {
    assert.deepEqual(ids(await search('quokka')), [roadmap]);
    await setPassword(roadmap, 'beta');
    await eventually(async () => !ids(await search('quokka')).includes(roadmap), BOUND_MS);
    assert.deepEqual(leaks((await search('spring')).text, ROADMAP_TEXT), []);
    await setPassword(roadmap, '');
    await eventually(async () => ids(await search('quokka')).includes(roadmap), BOUND_MS);
  });

  it('never reaches the chat model, nor what the assistant learned, even when it was learned before it was protected', async () => {
    const learned = await as(t.app, 'manager1').post(`${API}/chat/admin/learn`);
    assert.equal(learned.status, 200, learned.text);
    assert.equal(learned.body.docs, 2, 'the public docs only');
    const ask = async (message: string) => {
      const before = fake.requests.length;
      const res = await request(t.app).post(`${API}/chat/messages`).send({ thread: randomUUID(), message });
      assert.equal(res.status, 201, res.text);
      return { res, sent: JSON.stringify(fake.requests.slice(before).map((r) => r.body)) };
    };
    // The provider sees a public doc's text: the check below would see a protected one's.
    assert.match((await ask('How fast do parcels ship by courier?')).sent, /Parcels ship by courier/);

    await setPassword(roadmap, 'beta');
    await eventually(async () => !ids(await search('quokka')).includes(roadmap), BOUND_MS);
    for (const question of ['When does the quokka release with courier tracking come?', 'What rate and discount do partners pay on courier fees?', 'Which wholesale terms apply?']) {
      const { res, sent } = await ask(question);
      assert.deepEqual(leaks(sent, [...VAULT_TEXT, ...ROADMAP_TEXT]), [], sent);
      assert.deepEqual(leaks(JSON.stringify(res.body), [...VAULT_TEXT, ...ROADMAP_TEXT]), [], JSON.stringify(res.body));
    }
    const progress = await as(t.app, 'manager1').get(`${API}/chat/admin/learning`);
    assert.equal(progress.body.docs, 1, JSON.stringify(progress.body));
    await setPassword(roadmap, '');
  });
});
