/**
 * Forms and submissions in the storage map's shape: a form is a `frm-form` post with its settings and
 * messages in postmeta; submissions live in `{p}frm_submissions`. Rows written here are the rows the
 * PHP plugin writes, and rows it wrote are read here. Every read is one query per page (never one per
 * row), and every submission query is scoped by form ID so one form's data never shows through another.
 */
import { Knex } from 'knex';
import { enqueueJob } from '../jobs/enqueue';
import { writeWordPress } from '../wp/change-feed';
import { Database } from '../wp/db/database';
import { mysqlDateTime, siteDates } from '../wp/dates';
import { addPostMeta, deletePost, insertPost, postMetaFor, singleMetaValues, updatePostMeta, updatePostRow } from '../wp/posts';
import { sanitizeTitle, sanitizeTitleForQuery, truncatePostSlug } from '../wp/formatting';
import { phpJsonEncode } from '../wp/php/json';
import type { Site } from '../wp/site';
import {
  FORM_POST_TYPE, FormSettings, MESSAGE_META_PREFIX, SETTINGS_META_KEY, messagesFromMeta, parseSettings, settingsForStorage,
} from './settings';

/** A submitted value: a string, or the list/map PHP builds from `name[]` / `name[key]` fields. */
export type FieldValue = string | FieldValue[] | { [key: string]: FieldValue };
export type SubmissionData = Record<string, FieldValue>;

export interface Form {
  id: number;
  title: string;
  slug: string;
  status: string;
  markup: string;
  settings: FormSettings;
  messages: Record<string, string>;
  /** `_frm_settings` as stored, so a save keeps keys this version does not know. */
  rawSettings: string | undefined;
}

export type FormSummary = Pick<Form, 'id' | 'title' | 'slug'>;

export interface Submission {
  id: number;
  formId: number;
  data: SubmissionData;
  userAgent: string;
  ipAddress: string;
  refererUrl: string;
  isSpam: boolean;
  /** UTC, `YYYY-MM-DD HH:MM:SS`. */
  submittedAt: string;
}

export type NewSubmission = Omit<Submission, 'id' | 'submittedAt' | 'data'> & { data: EncodedSubmission; submittedAtMs: number };

/** A submission's fields with their stored form, encoded once: the submit checks its size, then stores it. */
export interface EncodedSubmission {
  data: SubmissionData;
  /** PHP's json_encode of `data`, so rows look like the plugin's own. */
  json: string;
}
export type SpamFilter = 'exclude' | 'only' | 'all';

/** The statuses the plugin family lists in its admin and block selector (trash and auto-drafts are not forms). */
const LISTED_STATUSES = ['publish', 'draft', 'pending', 'future'];

/** Every form, newest first, as the editor block's form selector lists them. One query. */
export async function listForms(db: Database): Promise<FormSummary[]> {
  const rows = await db.knex(db.tables.posts)
    .where({ post_type: FORM_POST_TYPE }).whereIn('post_status', LISTED_STATUSES)
    .orderBy([{ column: 'post_date', order: 'desc' }, { column: 'ID', order: 'desc' }])
    .select('ID', 'post_title', 'post_name');
  return rows.map((r: Record<string, unknown>) => ({ id: Number(r.ID), title: String(r.post_title), slug: String(r.post_name) }));
}

/**
 * A form by ID (any status), or by slug (published only, as the plugin family looks slugs up). A slug
 * is looked up as WordPress looks one up from a URL (sanitize_title_for_query()), so `Москва` finds the
 * form saved as `%d0%bc%d0%be…`. Two queries.
 */
export async function findForm(db: Database, idOrSlug: number | string): Promise<Form | null> {
  const query = db.knex(db.tables.posts).where({ post_type: FORM_POST_TYPE });
  if (typeof idOrSlug === 'number') query.where({ ID: idOrSlug });
  else query.where({ post_name: sanitizeTitleForQuery(idOrSlug), post_status: 'publish' }).orderBy('ID');
  const post = await query.first('ID', 'post_title', 'post_name', 'post_status', 'post_content');
  if (!post) return null;
  const meta = singleMetaValues((await postMetaFor(db.knex, db.tables, [Number(post.ID)])).get(Number(post.ID)));
  return {
    id: Number(post.ID),
    title: String(post.post_title),
    slug: String(post.post_name),
    status: String(post.post_status),
    markup: String(post.post_content),
    settings: parseSettings(meta.get(SETTINGS_META_KEY)),
    messages: messagesFromMeta(meta),
    rawSettings: meta.get(SETTINGS_META_KEY),
  };
}

export interface FormChanges {
  title?: string;
  slug?: string;
  markup?: string;
  status?: string;
  settings?: Partial<FormSettings>;
  /** Code → text; an empty text removes the custom message (the default applies again). */
  messages?: Record<string, string>;
}

/** Creates a published form with the default settings plus `changes`; returns its ID. */
export async function createForm(site: Site, authorId: number, changes: FormChanges & { title: string }): Promise<number> {
  const date = await siteDates(site.options, site.clock.now());
  const home = await site.homeUrl();
  return writeWordPress(site, (trx) => writeForm(trx, site.db, { home, date, authorId }, changes));
}

/** Writes a new form in the caller's transaction (createForm's, the demo seed's); returns its ID. */
export async function writeForm(
  trx: Knex.Transaction, db: Database, at: { home: string; date: { local: string; gmt: string }; authorId: number }, changes: FormChanges & { title: string },
): Promise<number> {
  const slug = await uniqueSlug(trx, db, changes.slug || changes.title, 0);
  const id = await insertPost(trx, db.tables, at.home, {
    post_type: FORM_POST_TYPE, post_status: changes.status ?? 'publish', post_title: changes.title, post_name: slug,
    post_content: changes.markup ?? '', post_author: at.authorId, date: at.date,
  });
  await addPostMeta(trx, db.tables, id, { [SETTINGS_META_KEY]: settingsForStorage(undefined, changes.settings ?? {}) });
  await writeMessages(trx, db, id, changes.messages ?? {});
  return id;
}

/** Applies `changes` to a form: post columns, the settings array (merged into what is stored) and messages. */
export async function updateForm(site: Site, form: Form, changes: FormChanges): Promise<void> {
  const { db } = site;
  const modified = await siteDates(site.options, site.clock.now());
  await writeWordPress(site, async (trx) => {
    const post: Record<string, string> = { post_modified: modified.local, post_modified_gmt: modified.gmt };
    if (changes.title !== undefined) post.post_title = changes.title;
    if (changes.markup !== undefined) post.post_content = changes.markup;
    if (changes.status !== undefined) post.post_status = changes.status;
    if (changes.slug !== undefined) post.post_name = await uniqueSlug(trx, db, changes.slug || changes.title || form.title, form.id);
    await updatePostRow(trx, db.tables, form.id, post, { type: FORM_POST_TYPE, parent: 0 });
    if (changes.settings) await updatePostMeta(trx, db.tables, form.id, SETTINGS_META_KEY, settingsForStorage(form.rawSettings, changes.settings));
    await writeMessages(trx, db, form.id, changes.messages ?? {});
  });
}

/** Deletes a form, its postmeta and its submissions; returns how many submissions went with it (null: no such form). */
export async function deleteForm(site: Site, formId: number): Promise<number | null> {
  const { db } = site;
  return writeWordPress(site, async (trx): Promise<number | null> => {
    // The post goes first: submissions are touched only when it really was a form.
    if (!(await deletePost(trx, db.tables, formId, FORM_POST_TYPE))) return null;
    return Number(await trx(db.tables.plugin('frm', 'submissions')).where({ form_id: formId }).del());
  });
}

/** A job a submission queues (lib/jobs): written in the submission's transaction. */
export interface SubmissionJob {
  kind: string;
  payload: unknown;
}

/**
 * Stores the submission (null: the form saves none) and the jobs it queues, in one transaction;
 * `jobsFor` is given the stored row's ID (null when none is stored).
 */
export async function insertSubmissionWithJobs(
  db: Database, submission: NewSubmission | null, jobsFor: (submissionId: number | null) => SubmissionJob[], nowSeconds: number,
): Promise<void> {
  await db.knex.transaction(async (trx) => {
    const submissionId = submission ? await insertSubmission(db, submission, trx) : null;
    for (const job of jobsFor(submissionId)) await enqueueJob(trx, db.tables, job.kind, job.payload, nowSeconds);
  });
}

/** Stores one submission, inside `trx` when given (with the jobs of its notifications). Returns the row ID. */
export async function insertSubmission(db: Database, submission: NewSubmission, trx: Knex | Knex.Transaction = db.knex): Promise<number> {
  const [id] = await trx(db.tables.plugin('frm', 'submissions')).insert({
    form_id: submission.formId,
    data: submission.data.json,
    // Free-text columns are TEXT on existing sites; a pathological header must not overflow them.
    user_agent: submission.userAgent.slice(0, 1000),
    ip_address: submission.ipAddress.slice(0, 255),
    referer_url: submission.refererUrl.slice(0, 2000),
    is_spam: submission.isSpam ? 1 : 0,
    submitted_at: mysqlDateTime(submission.submittedAtMs),
  });
  return Number(id);
}

export function encodeSubmission(data: SubmissionData): EncodedSubmission {
  return { data, json: phpJsonEncode(data) };
}

export interface SubmissionPage {
  items: Submission[];
  total: number;
}

/** One page of a form's submissions, newest first: one query for the rows and one for the count. */
export async function listSubmissions(db: Database, formId: number, page: number, perPage: number, spam: SpamFilter): Promise<SubmissionPage> {
  const [rows, counted] = await Promise.all([
    submissionsQuery(db, formId, spam).orderBy([{ column: 'submitted_at', order: 'desc' }, { column: 'id', order: 'desc' }])
      .limit(perPage).offset((page - 1) * perPage).select('*'),
    countSubmissions(db, formId, spam),
  ]);
  return { items: rows.map(toSubmission), total: counted };
}

/** How many submissions of a form match the spam filter. One query. */
export async function countSubmissions(db: Database, formId: number, spam: SpamFilter): Promise<number> {
  const row = await submissionsQuery(db, formId, spam).count({ n: '*' }).first();
  return Number((row as { n?: unknown } | undefined)?.n ?? 0);
}

/** Every matching submission of a form, newest first, read `batchSize` rows per query (exports). */
export async function* submissionBatches(db: Database, formId: number, spam: SpamFilter, batchSize = 500): AsyncGenerator<Submission[]> {
  let beforeId = Number.MAX_SAFE_INTEGER;
  for (;;) {
    const rows = await submissionsQuery(db, formId, spam).where('id', '<', beforeId).orderBy('id', 'desc').limit(batchSize).select('*');
    if (!rows.length) return;
    yield rows.map(toSubmission);
    beforeId = Number(rows[rows.length - 1].id);
  }
}

/** Deletes the listed submissions of this form (IDs of other forms' submissions are ignored). */
export async function deleteSubmissions(db: Database, formId: number, ids: number[]): Promise<number> {
  if (!ids.length) return 0;
  return db.knex(db.tables.plugin('frm', 'submissions')).where({ form_id: formId }).whereIn('id', ids).del();
}

/** Marks the listed submissions of this form as not spam. */
export async function unmarkSpam(db: Database, formId: number, ids: number[]): Promise<number> {
  if (!ids.length) return 0;
  return db.knex(db.tables.plugin('frm', 'submissions')).where({ form_id: formId, is_spam: 1 }).whereIn('id', ids).update({ is_spam: 0 });
}

function submissionsQuery(db: Database, formId: number, spam: SpamFilter): Knex.QueryBuilder {
  const query = db.knex(db.tables.plugin('frm', 'submissions')).where({ form_id: formId });
  if (spam === 'exclude') query.where({ is_spam: 0 });
  if (spam === 'only') query.where({ is_spam: 1 });
  return query;
}

function toSubmission(row: Record<string, unknown>): Submission {
  return {
    id: Number(row.id),
    formId: Number(row.form_id),
    data: decodeSubmissionData(row.data),
    userAgent: String(row.user_agent ?? ''),
    ipAddress: String(row.ip_address ?? ''),
    refererUrl: String(row.referer_url ?? ''),
    isSpam: Number(row.is_spam) === 1,
    submittedAt: String(row.submitted_at ?? ''),
  };
}

/** A row's `data`: a JSON object; anything else (a damaged row) reads as no fields rather than failing the page. */
function decodeSubmissionData(raw: unknown): SubmissionData {
  try {
    const value = JSON.parse(String(raw ?? ''));
    return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

async function writeMessages(trx: Knex.Transaction, db: Database, postId: number, messages: Record<string, string>): Promise<void> {
  for (const [code, text] of Object.entries(messages)) {
    const key = `${MESSAGE_META_PREFIX}${code}`;
    await updatePostMeta(trx, db.tables, postId, key, text === '' ? null : text);
  }
}

/**
 * The slug of a form whose title (or the slug asked for) sanitizes to nothing, as `<img src=x>` does.
 * A title in any script sanitizes to something: `日本語` to `%e6%97%a5%e6%9c%ac%e8%aa%9e`.
 */
const FALLBACK_SLUG = 'form';

/**
 * WP: sanitize_title() then wp_unique_post_slug() among forms: `contact`, `contact-2`, … with each
 * suffixed slug cut by _truncate_post_slug() to stay within post_name's 200 characters. A title that
 * sanitizes to nothing (`!!!`, `<b></b>`) gives `form`, where WordPress would use the post ID. One query.
 */
async function uniqueSlug(trx: Knex.Transaction, db: Database, wanted: string, selfId: number): Promise<string> {
  const base = sanitizeTitle(wanted) || FALLBACK_SLUG;
  // Every candidate starts with the base cut for the longest suffix we could need; `%` and `_` in
  // the pattern match more than themselves, which only reads a few more rows for the exact check.
  const prefix = truncatePostSlug(base, 200 - 11);
  const taken = new Set((await trx(db.tables.posts)
    .where({ post_type: FORM_POST_TYPE }).whereNot({ ID: selfId })
    .where((q) => q.where({ post_name: base }).orWhere('post_name', 'like', `${prefix}%`))
    .select('post_name')).map((r: { post_name: string }) => r.post_name.toLowerCase()));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = String(n);
    const candidate = `${truncatePostSlug(base, 200 - (suffix.length + 1))}-${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
