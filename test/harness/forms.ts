/**
 * The form service's test site: the oracle database (real WordPress users: `admin` has `edit_forms`
 * through its role, `editor1` as a direct capability, `customer1` not at all) with mail going to an
 * SMTP capture when its jobs run (`runJobs()`), plus factories that write forms and submissions
 * straight into the storage shape, as the PHP plugin would have left them on an existing site (they do
 * not use lib/forms/store.ts).
 */
import { Express } from 'express';
import { createApp } from '../../lib/app';
import { openSite } from '../../lib/boot';
import { JobWorker } from '../../lib/jobs/worker';
import { memoryLogger } from '../../lib/logger';
import { fixedClock } from '../../lib/wp/clock';
import { CurrentUser } from '../../lib/wp/auth/current-user';
import { mysqlDateTime } from '../../lib/wp/dates';
import { parseCookieHeader } from '../../lib/wp/http/request-info';
import { PhpArray, serialize } from '../../lib/wp/php';
import { insertPost } from '../../lib/wp/posts';
import { Site } from '../../lib/wp/site';
import { jobHandlers } from '../../lib/worker';
import { scratchDatabase } from './db';
import { credentials, loadOracleInto, oracleConfig } from './oracle';

export interface FormSite {
  site: Site;
  app: Express;
  clock: ReturnType<typeof fixedClock>;
  logger: ReturnType<typeof memoryLogger>;
  /**
   * Runs the jobs that are due by the site's clock (notification emails) with the handlers `serve`'s
   * worker has, and waits for them, as that worker would right after a submission; returns how many ran.
   */
  runJobs(): Promise<number>;
  close(): Promise<void>;
}

/** The oracle site, served by Understudy, sending mail to `smtpUrl`, at the moment its credentials were issued. */
export async function openFormSite(smtpUrl?: string): Promise<FormSite> {
  const scratch = await scratchDatabase();
  await loadOracleInto(scratch);
  const clock = fixedClock(credentials.generated_at * 1000);
  const logger = memoryLogger();
  const { site } = await openSite({ ...oracleConfig(scratch), smtpUrl }, { logger, clock });
  return {
    site, app: createApp(site), clock, logger,
    runJobs: () => new JobWorker(site, { handlers: jobHandlers() }).runDueJobs(),
    async close() {
      await site.close();
      await scratch.drop();
    },
  };
}

/** The logged-in cookie header WordPress issued to `login`. */
export function cookieOf(login: string): string {
  return credentials.sessions[login].logged_in_cookie.header;
}

/** The user admin-ajax.php sees for `login`'s cookie (or the anonymous visitor). */
export async function ajaxUser(site: Site, login?: string): Promise<CurrentUser> {
  if (!login) return site.auth.anonymous();
  return site.auth.forAjax({ method: 'POST', cookies: parseCookieHeader(cookieOf(login)), ip: '127.0.0.1', secure: false });
}

/** A nonce made as wp_create_nonce($action) makes it for `login` (or user 0). */
export async function nonceFor(site: Site, action: string, login?: string): Promise<string> {
  return site.auth.createNonce(await ajaxUser(site, login), action);
}

export interface FormRow {
  title?: string;
  slug?: string;
  markup?: string;
  status?: string;
  /** `_frm_settings` exactly as stored (a serialized string), or entries to serialize as PHP's admin screen saves them (strings). */
  settings?: string | Record<string, string | Array<Record<string, string>>>;
  /** `frm_message_<code>` rows. */
  messages?: Record<string, string>;
}

/** Writes a form post and its meta rows directly, in the storage map's shape; returns the post ID. */
export async function insertFormRow(site: Site, row: FormRow = {}): Promise<number> {
  const { knex, tables } = site.db;
  const date = { local: mysqlDateTime(site.clock.now()), gmt: mysqlDateTime(site.clock.now()) };
  const id = await insertPost(knex, tables, await site.homeUrl(), {
    post_type: 'frm-form', post_status: row.status ?? 'publish', post_title: row.title ?? 'Contact',
    post_name: row.slug ?? `contact-${Math.random().toString(36).slice(2, 8)}`, post_content: row.markup ?? CONTACT_MARKUP, post_author: 1, date,
  });
  const meta: Array<{ post_id: number; meta_key: string; meta_value: string }> = [];
  if (row.settings !== undefined) meta.push({ post_id: id, meta_key: '_frm_settings', meta_value: serializedSettings(row.settings) });
  for (const [code, text] of Object.entries(row.messages ?? {})) meta.push({ post_id: id, meta_key: `frm_message_${code}`, meta_value: text });
  if (meta.length) await knex(tables.postmeta).insert(meta);
  return id;
}

export interface SubmissionRow {
  form_id: number;
  data: Record<string, unknown> | string;
  is_spam?: 0 | 1;
  submitted_at?: string;
  ip_address?: string;
  user_agent?: string;
  referer_url?: string;
}

/** Writes a submission row directly into `{p}frm_submissions`; returns its ID. */
export async function insertSubmissionRow(site: Site, row: SubmissionRow): Promise<number> {
  const [id] = await site.db.knex(site.db.tables.plugin('frm', 'submissions')).insert({
    form_id: row.form_id,
    data: typeof row.data === 'string' ? row.data : JSON.stringify(row.data),
    is_spam: row.is_spam ?? 0,
    submitted_at: row.submitted_at ?? mysqlDateTime(site.clock.now()),
    ip_address: row.ip_address ?? '203.0.113.9',
    user_agent: row.user_agent ?? 'Mozilla/5.0 (fixture)',
    referer_url: row.referer_url ?? 'https://example.test/contact/',
  });
  return Number(id);
}

/** The submissions table's rows for a form, oldest first, with `data` parsed. */
export async function submissionRows(site: Site, formId: number): Promise<Array<Record<string, any>>> {
  const rows = await site.db.knex(site.db.tables.plugin('frm', 'submissions')).where({ form_id: formId }).orderBy('id');
  return rows.map((r: Record<string, any>) => ({ ...r, is_spam: Number(r.is_spam), data: JSON.parse(r.data) }));
}

/** A contact form's markup, as an admin writes it by hand. */
export const CONTACT_MARKUP = [
  '<p><label for="frm-name">Name</label> <input id="frm-name" type="text" name="name" /></p>',
  '<p><label for="frm-email">Email</label> <input id="frm-email" type="email" name="email" /></p>',
  '<p><label for="frm-message">Message</label> <textarea id="frm-message" name="message"></textarea></p>',
  '<p><button type="submit">Send</button></p>',
].join('\n');

function serializedSettings(settings: NonNullable<FormRow['settings']>): string {
  if (typeof settings === 'string') return settings;
  const array = new PhpArray();
  for (const [key, value] of Object.entries(settings)) {
    array.set(key, typeof value === 'string' ? value : value.map((action) => PhpArray.fromObject(action)));
  }
  return serialize(array);
}
