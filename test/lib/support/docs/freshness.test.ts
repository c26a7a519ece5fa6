/**
 * Freshness of docs search (docs/docs.md, "Freshness"): docs written straight into the database by
 * another connection, as the PHP site writes them, show in GET /docs/search within the 2-second bound
 * (published, edited, moved to another collection), and unpublished or deleted ones stop showing.
 * The index is built before the changes, so each one is found by the incremental refresh.
 */
import assert from 'node:assert/strict';
import request from 'supertest';
import { Knex } from 'knex';
import { COLLECTION_TAXONOMY, DOC_POST_TYPE, insertDocs } from '../../../../lib/support/docs/store';
import { mysqlDateTime } from '../../../../lib/wp/dates';
import { insertPost } from '../../../../lib/wp/posts';
import { Site } from '../../../../lib/wp/site';
import { eventually } from '../../../harness/eventually';
import { TestSite, openTestSite } from '../../../harness/site';
import { API } from '../../../harness/support';
import { loadDocsIndex } from '../../../harness/desk';

/** The project's freshness bound. */
const BOUND_MS = 2000;

describe('docs search freshness (changes made behind Understudy’s back)', function () {
  let t: TestSite;
  /** Another server's connection to the same database: the PHP site. */
  let php: Site;
  let knex: Knex;
  let minute = 0;

  before(async () => {
    t = await openTestSite();
    php = await t.openAnother();
    knex = php.db.knex;
    await insertDocs(t.site, [
      { slug: 'known', title: 'Known doc', content: 'Already here before the index was built.', collections: ['guides'] },
      { slug: 'other', title: 'Other collection', content: 'Lives in answers.', collections: ['answers'] },
    ]);
    await loadDocsIndex(t.site);
    assert.equal((await hits({ q: 'known' })).length, 1);
  });
  after(async () => {
    await t?.close();
  });

  async function hits(query: Record<string, string>): Promise<Array<{ id: number; title: string; collection: string }>> {
    // Each search in a minute of its own: the per-address search limit is not what is tested here.
    t.clock.advance(60_000);
    const res = await request(t.app).get(`${API}/docs/search`).query(query);
    assert.equal(res.status, 200, res.text);
    return res.body;
  }
  const found = (query: Record<string, string>, id: number) => async () => (await hits(query)).some((h) => h.id === id);
  const gone = (query: Record<string, string>, id: number) => async () => !(await hits(query)).some((h) => h.id === id);
  /** A later post_modified for each edit, as WordPress stamps one (UTC and site time; the site is UTC). */
  const nextModified = () => mysqlDateTime(Date.UTC(2026, 10, 23, 9, 0, 0) + ++minute * 60_000);
  const tables = () => php.db.tables;

  async function termTaxonomyId(slug: string): Promise<number> {
    const row = await knex(`${tables().termTaxonomy} as tt`).join(`${tables().terms} as t`, 't.term_id', 'tt.term_id')
      .where({ 'tt.taxonomy': COLLECTION_TAXONOMY, 't.slug': slug }).first('tt.term_taxonomy_id');
    return Number(row.term_taxonomy_id);
  }

  /** wp_insert_post() + wp_set_object_terms() as PHP runs them: the row, its guid, the term relationship. */
  async function phpInsertDoc(title: string, content: string, collection: string): Promise<number> {
    const when = nextModified();
    const id = await insertPost(knex, tables(), 'http://127.0.0.1:8081', {
      post_type: DOC_POST_TYPE, post_status: 'publish', post_title: title, post_name: title.toLowerCase().replace(/\W+/g, '-'), post_content: content,
      date: { local: when, gmt: when },
    });
    await knex(tables().termRelationships).insert({ object_id: id, term_taxonomy_id: await termTaxonomyId(collection), term_order: 0 });
    return id;
  }

  it('a doc published by PHP is found within 2 s', async () => {
    const id = await phpInsertDoc('Configuring webhooks', '<p>Point the <b>webhook</b> at your endpoint.</p>', 'guides');
    await eventually(found({ q: 'webhooks' }, id), BOUND_MS);
  });

  it('a doc imported with an old date (before every other) is found within 2 s', async () => {
    const id = await phpInsertDoc('Archived handbook', 'Imported from the old wiki.', 'guides');
    await knex(tables().posts).where({ ID: id }).update({ post_date: '2019-01-01 00:00:00', post_date_gmt: '2019-01-01 00:00:00', post_modified: '2019-01-01 00:00:00', post_modified_gmt: '2019-01-01 00:00:00' });
    await eventually(found({ q: 'handbook' }, id), BOUND_MS);
  });

  it('an edited doc is found by its new words within 2 s, and no longer by the old ones', async () => {
    const id = await phpInsertDoc('Exporting tickets', 'Download a spreadsheet of tickets.', 'guides');
    await eventually(found({ q: 'spreadsheet' }, id), BOUND_MS);
    const when = nextModified();
    await knex(tables().posts).where({ ID: id }).update({ post_content: 'Download a CSV archive of tickets.', post_modified: when, post_modified_gmt: when });
    await eventually(found({ q: 'archive' }, id), BOUND_MS);
    assert.equal(await found({ q: 'spreadsheet' }, id)(), false);
  });

  it('a doc moved to another collection is found in the new one within 2 s, and no longer in the old one', async () => {
    const id = await phpInsertDoc('Moving house', 'Relocating your account to another region.', 'guides');
    await eventually(found({ q: 'relocating', collection: 'guides' }, id), BOUND_MS);
    // wp_set_object_terms() changes only the term tables: post_modified stays as it was.
    await knex(tables().termRelationships).where({ object_id: id }).update({ term_taxonomy_id: await termTaxonomyId('answers') });
    await eventually(found({ q: 'relocating', collection: 'answers' }, id), BOUND_MS);
    assert.equal(await found({ q: 'relocating', collection: 'guides' }, id)(), false);
  });

  it('a doc unpublished or deleted by PHP is no longer found within 2 s', async () => {
    const drafted = await phpInsertDoc('Legacy importer', 'The legacy importer is retired.', 'guides');
    const deleted = await phpInsertDoc('Legacy exporter', 'The legacy exporter is retired.', 'guides');
    await eventually(found({ q: 'legacy importer' }, drafted), BOUND_MS);
    await eventually(found({ q: 'legacy exporter' }, deleted), BOUND_MS);
    // Found from the published IDs alone, whatever post_modified says.
    await knex(tables().posts).where({ ID: drafted }).update({ post_status: 'draft' });
    await knex(tables().posts).where({ ID: deleted }).del();
    await eventually(gone({ q: 'legacy' }, drafted), BOUND_MS);
    await eventually(gone({ q: 'legacy' }, deleted), BOUND_MS);
  });

  it("this process's own doc writes show at once", async () => {
    const [id] = await insertDocs(t.site, [{ slug: 'own', title: 'Own write', content: 'Zeppelin maintenance.', collections: ['guides'] }]);
    assert.ok(await found({ q: 'zeppelin' }, id!)());
  });
});
