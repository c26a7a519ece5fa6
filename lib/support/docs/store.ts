/**
 * Docs in the storage map's shape: `svc_doc` posts (published ones are public, unless they have a
 * password), filed in terms of the `svc_doc_collection` taxonomy (docs/docs.md). The reads here are what
 * the search index needs to stay fresh without reading every doc again: the public IDs (covered by
 * WordPress's type_status_date index), the docs modified since a moment, and the doc → collection pairs.
 */
import { Knex } from 'knex';
import { changesOf } from '../../wp/change-feed';
import { Database } from '../../wp/db/database';
import { insertPost, updatePostRow } from '../../wp/posts';
import { Site } from '../../wp/site';
import { WriteContext, writeSupport } from '../write';

export const DOC_POST_TYPE = 'svc_doc';
export const COLLECTION_TAXONOMY = 'svc_doc_collection';

/** A public doc's row, as the index reads it. */
export interface DocRow {
  id: number;
  title: string;
  /** `post_excerpt`: the author's own summary, HTML allowed; '' when none. */
  excerpt: string;
  content: string;
  /** `post_name`: the doc's slug in its permalink. */
  slug: string;
  /** `post_modified_gmt`, UTC `YYYY-MM-DD HH:MM:SS`. */
  modified: string;
}

const DOC_COLUMNS = ['ID', 'post_title', 'post_excerpt', 'post_content', 'post_name', 'post_modified_gmt'];

function published(db: Database, knex: Knex | Knex.Transaction = db.knex) {
  return knex(db.tables.posts).where({ post_type: DOC_POST_TYPE, post_status: 'publish' });
}

/**
 * The docs whose text may leave the server: published without a password. WordPress withholds a
 * protected post's content and excerpt until the password is given (post_password_required()), and
 * its searches leave such posts out for visitors (`post_password = ''` in WP_Query::parse_search()).
 */
function publicDocs(db: Database) {
  return published(db).where({ post_password: '' });
}

/** The IDs of every public doc. */
export async function publicDocIds(db: Database): Promise<number[]> {
  const rows = await publicDocs(db).select('ID');
  return rows.map((r: { ID: number | string }) => Number(r.ID));
}

/** The ID and `post_modified_gmt` of each public doc modified at or after `since` (UTC). */
export async function docsModifiedSince(db: Database, since: string): Promise<Array<[number, string]>> {
  const rows = await publicDocs(db).where('post_modified_gmt', '>=', since).select('ID', 'post_modified_gmt');
  return rows.map((r: { ID: number | string; post_modified_gmt: string }) => [Number(r.ID), String(r.post_modified_gmt)]);
}

/** The public docs among `ids`: a doc protected since it was listed is not read. */
export async function readDocs(db: Database, ids: readonly number[]): Promise<DocRow[]> {
  const rows: Array<Record<string, unknown>> = [];
  // Within SQLite's bound on the variables of one statement.
  for (let start = 0; start < ids.length; start += 900) rows.push(...await publicDocs(db).whereIn('ID', ids.slice(start, start + 900)).select(DOC_COLUMNS));
  return rows.map(docRow);
}

/** Every (doc, collection slug) pair of the taxonomy (of the docs `ids` only, when given): one query over the three term tables. */
export async function docCollectionPairs(db: Database, ids?: readonly number[]): Promise<Array<[number, string]>> {
  const query = collectionPairs(db).orderBy('tr.object_id').orderBy('t.slug').select('tr.object_id', 't.slug');
  if (ids) query.whereIn('tr.object_id', ids);
  const rows = await query;
  return rows.map((r: { object_id: number | string; slug: string }) => [Number(r.object_id), String(r.slug)]);
}

function collectionPairs(db: Database): Knex.QueryBuilder {
  const { tables } = db;
  return db.knex(`${tables.termTaxonomy} as tt`)
    .join(`${tables.termRelationships} as tr`, 'tr.term_taxonomy_id', 'tt.term_taxonomy_id')
    .join(`${tables.terms} as t`, 't.term_id', 'tt.term_id')
    .where('tt.taxonomy', COLLECTION_TAXONOMY);
}

/**
 * The docs search in SQL, for while the index loads (./search.ts): up to `limit` public docs holding
 * any of `words` in their title, excerpt or body, as WordPress's own search matches (LIKE, any case
 * and accent in MySQL's collations), in one of `collections` when given. Those with the most of the
 * words in the title come first, then those with the most anywhere, then the newest. `inTitles`: only
 * docs holding a word in the title (the first of those in the same order, and a tenth of the cost:
 * the bodies are not searched). Slower than the index and without its typos and scores, but never
 * wrong about which docs may be shown.
 */
export async function docsHoldingWords(
  db: Database, words: readonly string[], collections: ReadonlySet<string> | null, limit: number, { inTitles = false } = {},
): Promise<DocRow[]> {
  const { knex } = db;
  // `!` escapes LIKE's wildcards in both engines (a backslash is itself an escape in MySQL's strings).
  const likes = words.map((word) => `%${word.replace(/[!%_]/g, (c) => `!${c}`)}%`);
  const text = ['post_title', 'post_excerpt', 'post_content'];
  const holds = (columns: string[]) => `(${columns.map((c) => `${c} LIKE ? ESCAPE '!'`).join(' OR ')})`;
  const count = (columns: string[], alias: string) => knex.raw(
    `(${likes.map(() => `CASE WHEN ${holds(columns)} THEN 1 ELSE 0 END`).join(' + ')}) AS ${alias}`,
    likes.flatMap((like) => columns.map(() => like)),
  );
  const query = publicDocs(db)
    .select(DOC_COLUMNS)
    .select(count(['post_title'], 'in_title'), count(text, 'anywhere'))
    .whereRaw(`(${likes.map(() => holds(inTitles ? ['post_title'] : text)).join(' OR ')})`, likes.flatMap((like) => (inTitles ? [like] : text.map(() => like))))
    .orderBy([{ column: 'in_title', order: 'desc' }, { column: 'anywhere', order: 'desc' }, { column: 'post_modified_gmt', order: 'desc' }, { column: 'ID', order: 'desc' }])
    .limit(limit);
  if (collections) query.whereIn('ID', collectionPairs(db).whereIn('t.slug', [...collections]).select('tr.object_id'));
  return (await query).map(docRow);
}

/** The slugs of every doc collection (the taxonomy's terms), in slug order. */
export async function collectionSlugs(db: Database): Promise<string[]> {
  const rows = await db.knex(`${db.tables.termTaxonomy} as tt`)
    .join(`${db.tables.terms} as t`, 't.term_id', 'tt.term_id')
    .where('tt.taxonomy', COLLECTION_TAXONOMY)
    .orderBy('t.slug')
    .select('t.slug');
  return rows.map((r: { slug: string }) => String(r.slug));
}

/** WP: the post a `name` query var finds: the public doc with this slug (as stored, sanitized for query). */
export async function publicDocIdBySlug(db: Database, slug: string): Promise<number | null> {
  const row = await publicDocs(db).where({ post_name: slug }).orderBy('ID').first('ID');
  return row ? Number(row.ID) : null;
}

/** True when `id` is a published doc (protected or not: a vote shows nothing of the doc). */
export async function isPublishedDoc(db: Database, id: number, trx?: Knex.Transaction): Promise<boolean> {
  return (await published(db, trx).where({ ID: id }).first('ID')) !== undefined;
}

function docRow(r: Record<string, unknown>): DocRow {
  return {
    id: Number(r.ID), title: String(r.post_title ?? ''), excerpt: String(r.post_excerpt ?? ''), content: String(r.post_content ?? ''),
    slug: String(r.post_name ?? ''), modified: String(r.post_modified_gmt ?? ''),
  };
}

/** The ID, raw title and status of each doc among `ids` (any status: a doc unpublished since keeps its votes), by ID. */
export async function docTitleRows(db: Database, ids: readonly number[]): Promise<Array<{ id: number; title: string; status: string }>> {
  const out: Array<{ id: number; title: string; status: string }> = [];
  for (let start = 0; start < ids.length; start += 900) {
    const rows = await db.knex(db.tables.posts).where({ post_type: DOC_POST_TYPE }).whereIn('ID', ids.slice(start, start + 900))
      .orderBy('ID').select('ID', 'post_title', 'post_status');
    out.push(...rows.map((r: { ID: number | string; post_title: string; post_status: string }) => ({ id: Number(r.ID), title: String(r.post_title), status: String(r.post_status) })));
  }
  return out;
}

/** A visitor's vote on a doc for a site-local day (`YYYY-MM-DD`), {p}svc_doc_votes. */
export interface DocVote {
  docId: number;
  visitorHash: string;
  day: string;
  helpful: boolean;
  /** Plain text; '' for none. */
  comment: string;
}

/** Stores the vote; true when it replaced the visitor's vote of that day on that doc. */
export async function replaceDocVote(ctx: WriteContext, vote: DocVote): Promise<boolean> {
  const votes = ctx.tables.plugin('svc', 'doc_votes');
  const key = { doc_id: vote.docId, visitor: vote.visitorHash, vote_day: vote.day };
  const replaced = (await ctx.trx(votes).where(key).first('id')) !== undefined;
  const values = { helpful: vote.helpful ? 1 : 0, comment: vote.comment, voted_at: ctx.nowSeconds };
  // A concurrent first vote of the same visitor lands on the unique key and becomes a replacement.
  await ctx.trx(votes).insert({ ...key, ...values }).onConflict(['doc_id', 'visitor', 'vote_day']).merge(values);
  return replaced;
}

export interface FeedbackCounts {
  helpful: number;
  notHelpful: number;
  comments: number;
}

export interface DocFeedbackTotals extends FeedbackCounts {
  docId: number;
}

/** Totals per doc that has votes (all docs, or those of `docIds`), by doc ID; in `trx` when given. */
export async function feedbackTotals(db: Database, docIds?: readonly number[], trx?: Knex.Transaction): Promise<DocFeedbackTotals[]> {
  const knex = trx ?? db.knex;
  const query = knex(db.tables.plugin('svc', 'doc_votes'))
    .select('doc_id')
    .sum({ helpful: 'helpful' })
    .count({ votes: '*' })
    .select(knex.raw("SUM(CASE WHEN comment <> '' THEN 1 ELSE 0 END) AS comments"))
    .groupBy('doc_id')
    .orderBy('doc_id');
  if (docIds) query.whereIn('doc_id', docIds);
  const rows = await query;
  return rows.map((r: Record<string, unknown>) => ({
    docId: Number(r.doc_id),
    helpful: Number(r.helpful ?? 0),
    notHelpful: Number(r.votes ?? 0) - Number(r.helpful ?? 0),
    comments: Number(r.comments ?? 0),
  }));
}

/**
 * WP: get_permalink() of a doc. The plugin registers `svc_doc` with the rewrite slug `docs` (and the
 * query var `svc_doc`): `<home>/docs/<post_name>/` under pretty permalinks (a trailing slash only when
 * the permalink structure ends with one), `<home>/?svc_doc=<post_name>` with plain ones, and
 * `?post_type=svc_doc&p=<ID>` for a doc without a slug.
 */
export function docPermalink(home: string, structure: string, doc: { id: number; slug: string }): string {
  if (!doc.slug) return `${home}/?post_type=${DOC_POST_TYPE}&p=${doc.id}`;
  if (!structure) return `${home}/?${DOC_POST_TYPE}=${doc.slug}`;
  return `${home}/docs/${doc.slug}${structure.endsWith('/') ? '/' : ''}`;
}

export interface DocComment {
  docId: number;
  /** The site-local date of the vote, `YYYY-MM-DD`. */
  day: string;
  helpful: boolean;
  comment: string;
}

/** The newest `limit` comments (votes with one), of every doc or of `docId`, newest first. */
export async function latestComments(db: Database, limit: number, docId?: number): Promise<DocComment[]> {
  const query = db.knex(db.tables.plugin('svc', 'doc_votes')).where('comment', '<>', '')
    .orderBy('voted_at', 'desc').orderBy('id', 'desc').limit(limit)
    .select('doc_id', 'vote_day', 'helpful', 'comment');
  if (docId !== undefined) query.where({ doc_id: docId });
  const rows = await query;
  return rows.map((r: Record<string, unknown>) => ({
    docId: Number(r.doc_id), day: String(r.vote_day), helpful: Number(r.helpful) === 1, comment: String(r.comment),
  }));
}

/** A doc to write (the demo, benchmarks and tests): as wp_insert_post() and wp_set_object_terms() would. */
export interface NewDoc {
  title: string;
  slug: string;
  content: string;
  excerpt?: string;
  status?: string;
  /** Collection slugs; a missing term is created (named after its slug). */
  collections: string[];
}

/** Writes docs in one transaction; returns their IDs. The search index of this process sees them at once. */
export async function insertDocs(site: Site, docs: readonly NewDoc[]): Promise<number[]> {
  return writeSupport(site, {}, async (ctx) => {
    const ids = await writeDocs(ctx.trx, site.db, ctx.home, ctx.dates, docs);
    for (const id of ids) ctx.changedDocs.add(id);
    return ids;
  });
}

/**
 * The rows of new docs, in a transaction the caller holds (the demo's seed has its own): each post,
 * its collections' terms (created when missing) and their counts. Returns the IDs.
 */
export async function writeDocs(
  trx: Knex.Transaction, db: Database, home: string, dates: { local: string; gmt: string }, docs: readonly NewDoc[],
): Promise<number[]> {
  const { tables } = db;
  const termIds = new Map<string, CollectionTerm>();
  const ids: number[] = [];
  for (const doc of docs) {
    const id = await insertPost(trx, tables, home, {
      post_type: DOC_POST_TYPE, post_status: doc.status ?? 'publish', post_title: doc.title, post_name: doc.slug, post_content: doc.content, date: dates,
    });
    if (doc.excerpt) await updatePostRow(trx, tables, id, { post_excerpt: doc.excerpt });
    for (const slug of doc.collections) {
      const term = termIds.get(slug) ?? await ensureCollection(trx, db, slug);
      termIds.set(slug, term);
      await trx(tables.termRelationships).insert({ object_id: id, term_taxonomy_id: term.taxonomyId, term_order: 0 });
      await trx(tables.termTaxonomy).where({ term_taxonomy_id: term.taxonomyId }).increment('count', 1);
      // WP: wp_update_term_count() cleans the term's cache.
      changesOf(trx).term(term.termId);
    }
    ids.push(id);
  }
  return ids;
}

interface CollectionTerm {
  termId: number;
  taxonomyId: number;
}

/** WP: wp_insert_term(): the collection's term, made when missing. */
async function ensureCollection(trx: Knex.Transaction, db: Database, slug: string): Promise<CollectionTerm> {
  const { tables } = db;
  const found = await trx(`${tables.termTaxonomy} as tt`).join(`${tables.terms} as t`, 't.term_id', 'tt.term_id')
    .where({ 'tt.taxonomy': COLLECTION_TAXONOMY, 't.slug': slug }).first('tt.term_taxonomy_id', 't.term_id');
  if (found) return { termId: Number(found.term_id), taxonomyId: Number(found.term_taxonomy_id) };
  const name = slug.replace(/[-_]+/g, ' ').replace(/^./, (c) => c.toUpperCase());
  const [termId] = await trx(tables.terms).insert({ name, slug, term_group: 0 });
  const [taxonomyId] = await trx(tables.termTaxonomy).insert({ term_id: Number(termId), taxonomy: COLLECTION_TAXONOMY, description: '', parent: 0, count: 0 });
  return { termId: Number(termId), taxonomyId: Number(taxonomyId) };
}
