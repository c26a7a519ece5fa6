/** The form store on a real database: the rows it writes, the rows it reads, and its query budget. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as store from '../../../lib/forms/store';
import { FormSite, insertFormRow, insertSubmissionRow, openFormSite } from '../../harness/forms';
import { oracleFile } from '../../harness/oracle-files';

describe('form store', function () {
  let fs: FormSite;
  before(async () => { fs = await openFormSite(); });
  after(async () => { await fs.close(); });

  const countQueries = async <T>(work: () => Promise<T>): Promise<number> => {
    let n = 0;
    const listen = () => { n++; };
    fs.site.db.knex.on('query', listen);
    try {
      await work();
    } finally {
      fs.site.db.knex.off('query', listen);
    }
    return n;
  };

  it('creates a form as WordPress rows (post, guid, dates, meta) that it reads back', async () => {
    const id = await store.createForm(fs.site, 6, { title: 'Événement & Co', markup: '<input name="a" />', messages: { success: 'Yes' } });
    const post = await fs.site.db.knex(fs.site.db.tables.posts).where({ ID: id }).first();
    assert.equal(post.post_name, 'evenement-co');
    assert.equal(post.guid, `http://127.0.0.1:8081/?post_type=frm-form&p=${id}`);
    assert.equal(post.post_date_gmt, '2026-11-22 13:51:49');
    const form = await store.findForm(fs.site.db, id);
    assert.equal(form?.title, 'Événement & Co');
    assert.equal(form?.messages.success, 'Yes');
    assert.equal(form?.settings.save_submissions, true);
  });

  it('finds a form by ID whatever its status, but by slug only when published', async () => {
    const draft = await insertFormRow(fs.site, { slug: 'draft-only', status: 'draft' });
    assert.equal((await store.findForm(fs.site.db, draft))?.status, 'draft');
    assert.equal(await store.findForm(fs.site.db, 'draft-only'), null);
    const live = await insertFormRow(fs.site, { slug: 'live-one' });
    assert.equal((await store.findForm(fs.site.db, 'live-one'))?.id, live);
  });

  it('reads the first of duplicated meta rows, as get_post_meta()[0] does', async () => {
    const id = await insertFormRow(fs.site, { messages: { success: 'first' } });
    await fs.site.db.knex(fs.site.db.tables.postmeta).insert({ post_id: id, meta_key: 'frm_message_success', meta_value: 'second' });
    assert.equal((await store.findForm(fs.site.db, id))?.messages.success, 'first');
  });

  it('reads a page of submissions in two queries (rows and count), whatever the page size', async () => {
    const id = await insertFormRow(fs.site);
    for (let i = 0; i < 12; i++) await insertSubmissionRow(fs.site, { form_id: id, data: { i: String(i) } });
    assert.equal(await countQueries(() => store.listSubmissions(fs.site.db, id, 1, 1, 'all')), 2);
    assert.equal(await countQueries(() => store.listSubmissions(fs.site.db, id, 1, 10, 'all')), 2);
    const page = await store.listSubmissions(fs.site.db, id, 2, 10, 'all');
    assert.deepEqual([page.total, page.items.length], [12, 2]);
  });

  it('walks every submission of a form in batches, newest first, one query per batch', async () => {
    const id = await insertFormRow(fs.site);
    const other = await insertFormRow(fs.site);
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await insertSubmissionRow(fs.site, { form_id: id, data: { i: String(i) } }));
    await insertSubmissionRow(fs.site, { form_id: other, data: { x: 'not mine' } });
    const batches: number[][] = [];
    const queries = await countQueries(async () => {
      for await (const batch of store.submissionBatches(fs.site.db, id, 'all', 2)) batches.push(batch.map((s) => s.id));
    });
    assert.deepEqual(batches, [[ids[4], ids[3]], [ids[2], ids[1]], [ids[0]]]);
    assert.equal(queries, 4, 'three batches and the empty read that ends the walk');
  });

  it('reads a damaged data column as no fields instead of failing the page', async () => {
    const id = await insertFormRow(fs.site);
    await insertSubmissionRow(fs.site, { form_id: id, data: '{not json' });
    assert.deepEqual((await store.listSubmissions(fs.site.db, id, 1, 10, 'all')).items[0]?.data, {});
  });

  it('deletes nothing when asked to delete a post that is not a form', async () => {
    const ticket = await fs.site.db.knex(fs.site.db.tables.posts).whereNot({ post_type: 'frm-form' }).first('ID');
    const meta = await fs.site.db.knex(fs.site.db.tables.postmeta).where({ post_id: ticket.ID }).count({ n: '*' }).first();
    assert.equal(await store.deleteForm(fs.site, ticket.ID), null);
    assert.deepEqual(await fs.site.db.knex(fs.site.db.tables.postmeta).where({ post_id: ticket.ID }).count({ n: '*' }).first(), meta);
  });

  describe("slugs: WordPress's sanitize_title() and wp_unique_post_slug()", () => {
    /** What WordPress 6.1.9's own sanitize_title() gave for `title` (fixtures/oracle/formatting-vectors.json). */
    const wordpressSlug = (title: string): string => {
      const vectors = JSON.parse(readFileSync(oracleFile('formatting-vectors.json'), 'utf8')).functions.sanitize_title as Array<[string, string]>;
      const found = vectors.find(([input]) => input === title);
      assert.ok(found, `no sanitize_title vector for ${title}`);
      return found[1];
    };
    const slugOf = async (id: number): Promise<string> =>
      String((await fs.site.db.knex(fs.site.db.tables.posts).where({ ID: id }).first('post_name')).post_name);

    it('gives a form titled `v1.2 Feedback` the slug `v1-2-feedback`, and the next one `v1-2-feedback-2`', async () => {
      const first = await store.createForm(fs.site, 1, { title: 'v1.2 Feedback' });
      const second = await store.createForm(fs.site, 1, { title: 'v1.2 Feedback' });
      assert.deepEqual([await slugOf(first), await slugOf(second)], ['v1-2-feedback', 'v1-2-feedback-2']);
    });

    it("gives a Cyrillic title WordPress's percent-encoded slug, and finds the form by it, encoded or not", async () => {
      const title = 'Привет, мир';
      const slug = wordpressSlug(title);
      assert.equal(slug, '%d0%bf%d1%80%d0%b8%d0%b2%d0%b5%d1%82-%d0%bc%d0%b8%d1%80');
      const id = await store.createForm(fs.site, 1, { title });
      assert.equal(await slugOf(id), slug);
      // Express hands the route the decoded path segment; WordPress looks it up with sanitize_title_for_query().
      assert.equal((await store.findForm(fs.site.db, slug))?.id, id);
      assert.equal((await store.findForm(fs.site.db, decodeURIComponent(slug)))?.id, id);
      const again = await store.createForm(fs.site, 1, { title });
      assert.equal(await slugOf(again), `${slug}-2`);
    });

    it('makes the other slugs WordPress makes from titles, accents and tags', async () => {
      for (const title of ['Crème brûlée & co.', '  Contact   us  ', 'Москва', '<b>bold</b> title', 'a.b.c']) {
        assert.equal(await slugOf(await store.createForm(fs.site, 1, { title })), wordpressSlug(title), title);
      }
    });

    it('falls back to `form` only for a title WordPress would make an empty slug of', async () => {
      assert.equal(wordpressSlug('<img src=x onerror=alert(1)>'), '');
      const id = await store.createForm(fs.site, 1, { title: '<img src=x onerror=alert(1)>' });
      assert.match(await slugOf(id), /^form(-\d+)?$/);
    });

    it('keeps a suffixed slug within 200 characters, cutting percent-encoded letters whole (_truncate_post_slug)', async () => {
      const latin = 'x'.repeat(250);
      await store.createForm(fs.site, 1, { title: latin });
      const latinSecond = await slugOf(await store.createForm(fs.site, 1, { title: latin }));
      assert.equal(latinSecond, `${'x'.repeat(198)}-2`);
      // `ж` is 6 characters encoded: `a` and 33 of them make 199, one too many for a `-2` suffix, and
      // cutting at 198 would split the last one's octets; WordPress drops that letter whole.
      const cyrillic = `a${'ж'.repeat(40)}`;
      const cyrillicFirst = await slugOf(await store.createForm(fs.site, 1, { title: cyrillic }));
      assert.equal(cyrillicFirst, `a${'%d0%b6'.repeat(33)}`);
      const cyrillicSecond = await slugOf(await store.createForm(fs.site, 1, { title: cyrillic }));
      assert.equal(cyrillicSecond, `a${'%d0%b6'.repeat(32)}-2`);
    });

    it('does not rename forms whose stored slugs the old ASCII-only copy made (`v13-survey`, `form-9` for a Cyrillic title)', async () => {
      const dotted = await insertFormRow(fs.site, { title: 'v1.3 Survey', slug: 'v13-survey' });
      const cyrillic = await insertFormRow(fs.site, { title: 'Опрос', slug: 'form-9' });
      await store.updateForm(fs.site, (await store.findForm(fs.site.db, dotted))!, { title: 'v1.3 Survey (new)', markup: '<input name="x" />' });
      await store.updateForm(fs.site, (await store.findForm(fs.site.db, cyrillic))!, { title: 'Опрос 2', settings: {} });
      assert.deepEqual([await slugOf(dotted), await slugOf(cyrillic)], ['v13-survey', 'form-9']);
      assert.equal((await store.findForm(fs.site.db, 'v13-survey'))?.id, dotted);
      assert.equal((await store.findForm(fs.site.db, 'form-9'))?.id, cyrillic);
      // A new form of the old title gets WordPress's slug beside the old one.
      assert.equal(await slugOf(await store.createForm(fs.site, 1, { title: 'v1.3 Survey' })), 'v1-3-survey');
    });
  });
});
