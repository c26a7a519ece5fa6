/**
 * The admin's operations on forms and submissions (the `frm_admin_action` sub-operations). Each takes
 * arguments already validated against schema/frm/ and returns plain data for wp_send_json_success(), or
 * throws a WpError. Callers have checked the admin nonce and `edit_forms`.
 */
import { mysqlDateTime } from '../wp/dates';
import { WpError } from '../wp/errors';
import type { Site } from '../wp/site';
import { exportFilename, submissionsCsv } from './export';
import type { FormSettings } from './settings';
import * as store from './store';
import type { Form, FormChanges, SpamFilter, Submission } from './store';

/** Who is acting: their user ID, and whether WordPress lets them post unfiltered HTML. */
export interface AdminActor {
  id: number;
  unfilteredHtml: boolean;
}

/** The form fields an admin sends to create_form and save_form. */
export interface FormPayload {
  title?: string;
  slug?: string;
  markup?: string;
  status?: 'publish' | 'draft';
  settings?: Partial<FormSettings>;
  messages?: Record<string, string>;
}

/** Larger exports are refused rather than built in memory; narrow them with the spam filter or delete old rows. */
export const MAX_EXPORT_ROWS = 50_000;

/** create_form: a new form (published unless told otherwise), answered in full. */
export async function createForm(site: Site, actor: AdminActor, payload: FormPayload & { title: string }): Promise<PresentedForm> {
  checkMarkup(actor, payload.markup);
  const id = await store.createForm(site, actor.id, toChanges(payload) as FormChanges & { title: string });
  return presentForm(await formOrFail(site, id));
}

/** save_form: changes what is sent and keeps the rest (settings are merged key by key). */
export async function saveForm(site: Site, actor: AdminActor, formId: number, payload: FormPayload): Promise<PresentedForm> {
  checkMarkup(actor, payload.markup);
  await store.updateForm(site, await formOrFail(site, formId), toChanges(payload));
  return presentForm(await formOrFail(site, formId));
}

/** delete_form: the form, its meta and its submissions. */
export async function deleteForm(site: Site, formId: number): Promise<{ ID: number; deleted: true; submissions_deleted: number }> {
  const removed = await store.deleteForm(site, formId);
  if (removed === null) throw notFound();
  return { ID: formId, deleted: true, submissions_deleted: removed };
}

/** list_submissions: one page, newest first, with totals as the REST API's X-WP-Total headers would give them. */
export async function listSubmissions(site: Site, formId: number, page: number, perPage: number, spam: SpamFilter) {
  await formOrFail(site, formId);
  const { items, total } = await store.listSubmissions(site.db, formId, page, perPage, spam);
  return { submissions: items.map(presentSubmission), total, total_pages: Math.ceil(total / perPage), page, per_page: perPage };
}

/** bulk_delete_submissions: only IDs of this form's submissions are deleted. */
export async function bulkDeleteSubmissions(site: Site, formId: number, ids: number[]): Promise<{ deleted: number }> {
  await formOrFail(site, formId);
  return { deleted: await store.deleteSubmissions(site.db, formId, ids) };
}

/** unmark_spam: the listed spam submissions of this form become ordinary ones (no notification is sent late). */
export async function unmarkSpam(site: Site, formId: number, ids: number[]): Promise<{ updated: number }> {
  await formOrFail(site, formId);
  return { updated: await store.unmarkSpam(site.db, formId, ids) };
}

/** export_submissions: the CSV file and its download name. */
export async function exportSubmissions(site: Site, formId: number, spam: SpamFilter): Promise<{ filename: string; csv: string }> {
  const form = await formOrFail(site, formId);
  const total = await store.countSubmissions(site.db, formId, spam);
  if (total > MAX_EXPORT_ROWS) {
    throw new WpError('frm_export_too_large', `This export has ${total} submissions; at most ${MAX_EXPORT_ROWS} can be exported at once.`, 413);
  }
  const rows: Submission[] = [];
  for await (const batch of store.submissionBatches(site.db, formId, spam)) rows.push(...batch);
  return { filename: exportFilename(form.slug, mysqlDateTime(site.clock.now())), csv: submissionsCsv(rows) };
}

export type PresentedForm = ReturnType<typeof presentForm>;

/** A form as the admin sees it. */
export function presentForm(form: Form) {
  return {
    ID: form.id, title: form.title, slug: form.slug, status: form.status, markup: form.markup,
    settings: { ...form.settings }, messages: { ...form.messages },
  };
}

/** A submission as the admin sees it (`submitted_at` is UTC). */
export function presentSubmission(s: Submission) {
  return {
    id: s.id, form_id: s.formId, data: s.data, user_agent: s.userAgent, ip_address: s.ipAddress,
    referer_url: s.refererUrl, is_spam: s.isSpam, submitted_at: s.submittedAt,
  };
}

async function formOrFail(site: Site, formId: number): Promise<Form> {
  const form = await store.findForm(site.db, formId);
  if (!form) throw notFound();
  return form;
}

function notFound(): WpError {
  return new WpError('frm_form_not_found', 'No form was found with that ID.', 404);
}

function toChanges(payload: FormPayload): FormChanges {
  const { title, slug, markup, status, settings, messages } = payload;
  return { title, slug, markup, status, settings, messages };
}

/**
 * WP: users without `unfiltered_html` have their HTML filtered (kses). We do not rewrite markup;
 * markup that could run script is refused for them instead, so a form never carries script they could not post.
 */
function checkMarkup(actor: AdminActor, markup: string | undefined): void {
  if (markup === undefined || actor.unfilteredHtml) return;
  if (/<\s*(script|style|iframe|object|embed|base|meta|link)\b|\son[a-z]+\s*=|javascript\s*:/i.test(markup)) {
    throw new WpError('frm_markup_not_allowed', 'Your account may not save markup with scripts, frames or event handlers.', 403);
  }
}
