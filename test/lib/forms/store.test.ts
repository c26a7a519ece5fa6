/** The form store on a real database: the rows it writes, the rows it reads, and its query budget. */
import assert from 'node:assert/strict';
import * as store from '../../../lib/forms/store';
import { FormSite, insertFormRow, insertSubmissionRow, openFormSite } from '../../harness/forms';

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
    assert.equal(await store.deleteForm(fs.site.db, ticket.ID), null);
    assert.deepEqual(await fs.site.db.knex(fs.site.db.tables.postmeta).where({ post_id: ticket.ID }).count({ n: '*' }).first(), meta);
  });

  it('makes slugs as sanitize_title does', () => {
    assert.equal(store.sanitizeTitle('  Hello, World! <b>x</b> '), 'hello-world-x');
    assert.equal(store.sanitizeTitle('Crème brûlée -- 2'), 'creme-brulee-2');
    assert.equal(store.sanitizeTitle('日本語'), '');
  });
});
