/**
 * One form submission, decided as the plugin family decides it, in this order: the form must exist and
 * be published; the nonce is checked when the site enables it; a filled or missing honeypot is spam
 * (answered as a success, stored flagged, never emailed); then required and email fields are validated;
 * then the submission is stored (when the form saves submissions) with its notification emails queued
 * for the job worker, in one transaction.
 * With the site's submission limit on, spam and valid submissions count against the address; one over
 * the limit is refused (429), spam over it is still answered as a success but no longer stored.
 */
import { isEmail } from '../wp/formatting';
import type { Site } from '../wp/site';
import { acceptSubmission } from './notifications';
import { countSubmission } from './limit';
import { GLOBAL_SETTINGS_OPTION, fieldNames, messageText, parseGlobalSettings } from './settings';
import { EncodedSubmission, FieldValue, Form, SubmissionData, encodeSubmission, findForm, insertSubmission } from './store';
import { replaceDataVariables, urlEncode, valueAt } from './variables';

/** The nonce action of the submit form (wp_create_nonce('frm_form_submit') for the visitor, or user 0). */
export const SUBMIT_NONCE_ACTION = 'frm_form_submit';

/**
 * The field the form script adds (`_frm_detail=1`) to have an error answer also name its code (`error`)
 * and, for validation, the failing fields (`fields`). Like every `_` field it is never stored. The
 * plugin's own script never sends it, so its traffic gets the family's `{message}` only, byte for byte.
 */
export const DETAIL_FIELD = '_frm_detail';

/** `data` is a TEXT column on existing sites (64 KiB on MySQL): larger JSON would be silently cut. */
export const MAX_DATA_BYTES = 65_535;

/** Texts for outcomes the plugin family has no default message for (a form may still override them). */
const SERVICE_TEXTS: Record<string, string> = {
  form_not_found: 'This form is not available.',
  invalid_nonce: 'This form has expired. Please reload the page and try again.',
  too_large: 'Your submission is too large to be sent.',
  rate_limited: 'Too many submissions from your address. Please try again later.',
};

export interface SubmitInput {
  /** The POST body ($_POST), unslashed. */
  fields: Record<string, FieldValue>;
  userAgent: string;
  ipAddress: string;
  refererUrl: string;
  /** WP: wp_verify_nonce($nonce, SUBMIT_NONCE_ACTION) for the visitor; asked only when nonces are enabled. */
  verifyNonce(nonce: string): Promise<boolean>;
}

export interface SubmitResponse {
  message: { type: 'success' | 'error'; text: string };
  hide_form?: boolean;
  redirect_url?: string;
  /** Error code (`required_field_missing`, `invalid_email`, `invalid_nonce`, …); only when DETAIL_FIELD asks for it. */
  error?: string;
  /** The fields that failed validation, for the client to mark; only when DETAIL_FIELD asks for it. */
  fields?: string[];
}

export interface SubmitResult {
  status: number;
  body: SubmitResponse;
  /** What happened, for logs and tests: `success`, `spam`, or the error code. */
  outcome: string;
  /** Seconds until the address may submit again (`rate_limited`), for Retry-After. */
  retryAfter?: number;
}

/** Handles one submission end to end; never throws for visitor mistakes, only for failures of the site itself. */
export async function submitForm(site: Site, input: SubmitInput): Promise<SubmitResult> {
  const detail = wantsDetail(input.fields);
  const formId = positiveInt(input.fields._frm_form_id);
  const form = formId ? await findForm(site.db, formId) : null;
  if (!form || form.status !== 'publish') return failure(404, 'form_not_found', SERVICE_TEXTS.form_not_found as string, detail);
  const global = parseGlobalSettings(await site.options.get(GLOBAL_SETTINGS_OPTION));
  if (global.enable_nonce && !(await input.verifyNonce(stringOf(input.fields._frm_nonce)))) {
    return failure(403, 'invalid_nonce', messageText(form.messages, 'invalid_nonce', SERVICE_TEXTS.invalid_nonce), detail);
  }
  const submitted = encodeSubmission(formData(input.fields));
  const { data } = submitted;
  const tooLarge = Buffer.byteLength(submitted.json) > MAX_DATA_BYTES;
  if (!honeypotIsEmpty(form, input.fields)) {
    // CASE: a bot. It is told "success" so it learns nothing; a human checking the list can still see it.
    // Spam is what the submission limit is for: it counts, and past the limit it is no longer stored.
    const limited = (await countSubmission(site, global, form.id, input.ipAddress))?.allowed === false;
    if (form.settings.save_submissions && !tooLarge && !limited) await store(site, form, submitted, input, true);
    return { status: 200, body: successBody(form), outcome: 'spam' };
  }
  const problem = validate(form, data);
  if (problem) return failure(200, problem.code, messageText(form.messages, problem.code), detail, problem.fields);
  if (tooLarge) return failure(200, 'too_large', messageText(form.messages, 'too_large', SERVICE_TEXTS.too_large), detail);
  // Counted only now: a visitor's typing mistakes store nothing, so they neither use up the allowance
  // nor are hidden behind a refusal.
  const limit = await countSubmission(site, global, form.id, input.ipAddress);
  if (limit && !limit.allowed) {
    return { ...failure(429, 'rate_limited', messageText(form.messages, 'rate_limited', SERVICE_TEXTS.rate_limited), detail), retryAfter: limit.retryAfter };
  }
  // Stored (when the form saves submissions) with its notification emails queued, in one transaction.
  await acceptSubmission(site, form, submitted, input);
  const body = successBody(form);
  if (form.settings.redirect_url) body.redirect_url = replaceDataVariables(form.settings.redirect_url, data, urlEncode);
  return { status: 200, body, outcome: 'success' };
}

/** The form's own fields: names starting with `_` and admin-ajax's `action` are not data; values are trimmed. */
export function formData(fields: Record<string, FieldValue>): SubmissionData {
  const data: SubmissionData = {};
  for (const [rawName, value] of Object.entries(fields)) {
    const name = rawName.trim();
    if (!name || name.startsWith('_') || name === 'action') continue;
    data[name] = trimValue(value);
  }
  return data;
}

/** The first failing rule: a required field that is empty, then an email field that is not an email address. */
export function validate(form: Form, data: SubmissionData): { code: string; fields: string[] } | null {
  const missing = fieldNames(form.settings.required_fields).filter((name) => isEmptyValue(valueAt(data, name)));
  if (missing.length) return { code: 'required_field_missing', fields: missing };
  const invalid = fieldNames(form.settings.email_fields).filter((name) => {
    const value = valueAt(data, name);
    return !isEmptyValue(value) && !(typeof value === 'string' && isEmail(value));
  });
  return invalid.length ? { code: 'invalid_email', fields: invalid } : null;
}

/** The honeypot `_frm_h<ID>` must be sent, and sent empty. */
function honeypotIsEmpty(form: Form, fields: Record<string, FieldValue>): boolean {
  return fields[`_frm_h${form.id}`] === '';
}

function successBody(form: Form): SubmitResponse {
  return { message: { type: 'success', text: messageText(form.messages, 'success') }, hide_form: form.settings.hide_after_success };
}

/** Whether the request asks for the detailed error answer (`_frm_detail=1`, as the form script sends it). */
export function wantsDetail(fields: Record<string, FieldValue>): boolean {
  return stringOf(fields[DETAIL_FIELD]).trim() === '1';
}

/**
 * An error answer. The family's is `{"message":{"type":"error","text":…}}` and nothing else, so that
 * is what a request gets unless it asks for the detail: then also `error` (the code) and `fields`.
 */
export function errorBody(code: string, text: string, detail: boolean, fields?: string[]): SubmitResponse {
  const body: SubmitResponse = { message: { type: 'error', text } };
  if (!detail) return body;
  body.error = code;
  if (fields) body.fields = fields;
  return body;
}

function failure(status: number, code: string, text: string, detail: boolean, fields?: string[]): SubmitResult {
  return { status, body: errorBody(code, text, detail, fields), outcome: code };
}

async function store(site: Site, form: Form, submitted: EncodedSubmission, input: SubmitInput, isSpam: boolean): Promise<void> {
  await insertSubmission(site.db, {
    formId: form.id, data: submitted, isSpam, submittedAtMs: site.clock.now(), userAgent: input.userAgent, ipAddress: input.ipAddress, refererUrl: input.refererUrl,
  });
}

function trimValue(value: FieldValue): FieldValue {
  if (typeof value === 'string') return value.trim();
  if (Array.isArray(value)) return value.map(trimValue);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.trim(), trimValue(v)]));
}

/** Empty: absent, an empty string, or a list/map with nothing filled in. (Unlike PHP's empty(), "0" is an answer.) */
function isEmptyValue(value: FieldValue | undefined): boolean {
  if (value === undefined || typeof value === 'string') return !value;
  return (Array.isArray(value) ? value : Object.values(value)).every(isEmptyValue);
}

function positiveInt(value: FieldValue | undefined): number | null {
  return typeof value === 'string' && /^\d{1,10}$/.test(value.trim()) && Number(value) > 0 ? Number(value) : null;
}

function stringOf(value: FieldValue | undefined): string {
  return typeof value === 'string' ? value : '';
}
