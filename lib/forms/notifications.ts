/**
 * Accepting a genuine submission: the submission row (when the form saves submissions) and one
 * `form_notification` job per email its actions send, written in one transaction. The visitor is
 * answered once that commits; the job worker (lib/jobs) sends the emails after, retrying through an
 * SMTP outage, so nothing accepted is lost and a slow or absent mail server never holds the answer.
 *
 * A job carries the email as it was composed at submission time (actions.ts: recipients checked,
 * values escaped and flattened), not the data to compose it again: the form may be edited or deleted
 * before the email goes, and a form that does not save submissions has nothing to compose it from.
 * The mailer checks every address and header again when it sends, so a stored message can add no
 * header or recipient either.
 */
import { randomBytes } from 'node:crypto';
import { JobHandler, PermanentJobError, errorText } from '../jobs/handler';
import { ClaimedJob } from '../jobs/queue';
import { InvalidMailError, MailMessage } from '../mail/mailer';
import type { Site } from '../wp/site';
import { actionEmails } from './actions';
import { EncodedSubmission, Form, insertSubmissionWithJobs } from './store';

export const NOTIFICATION_JOB = 'form_notification';

/**
 * Seconds before the next try after try n failed: 1 and 5 minutes, then 30 minutes, 2 and 6 hours
 * (6 tries over about 8.6 hours). Longer than a team alert's: nobody else will send this email, so it
 * should outlast an SMTP outage of an afternoon.
 */
export const NOTIFICATION_RETRY_DELAYS = [60, 300, 1800, 7200, 21600] as const;

/** A `form_notification` job's payload. */
export interface NotificationPayload {
  form_id: number;
  /** The stored submission; null when the form does not save submissions. */
  submission_id: number | null;
  /** The action's place in the form's list of actions (0-based). */
  action: number;
  /** The email as composed at submission time, with its own Message-ID (every try sends the same message). */
  message: MailMessage;
}

/** Who sent the submission, as stored with it. */
export interface SubmissionSource {
  userAgent: string;
  ipAddress: string;
  refererUrl: string;
}

/**
 * Stores the submission (when the form saves them) and queues its notification emails, in one
 * transaction. Throws when the database fails: then nothing is stored and nothing will be sent.
 */
export async function acceptSubmission(site: Site, form: Form, submitted: EncodedSubmission, source: SubmissionSource): Promise<void> {
  const emails = actionEmails(form, submitted.data, String(await site.options.get('admin_email', '')), site.logger);
  const host = hostOf(await site.homeUrl());
  const nowMs = site.clock.now();
  const submission = form.settings.save_submissions
    ? { formId: form.id, data: submitted, isSpam: false, submittedAtMs: nowMs, userAgent: source.userAgent, ipAddress: source.ipAddress, refererUrl: source.refererUrl }
    : null;
  await insertSubmissionWithJobs(site.db, submission, (submissionId) => emails.map(({ action, message }) => {
    const payload: NotificationPayload = { form_id: form.id, submission_id: submissionId, action, message: { ...message, messageId: messageIdFor(form.id, host) } };
    return { kind: NOTIFICATION_JOB, payload };
  }), Math.floor(nowMs / 1000));
}

/**
 * `form_notification` jobs: send the stored email. A failure the transport may get past (the server
 * away, a timeout, a 4xx) is tried again on NOTIFICATION_RETRY_DELAYS; a message the mailer refuses
 * to send as written, or a server that rejects every recipient (5xx), fails the job at once with the
 * reason in `last_error`. A failed job keeps its email for people to see (`understudy jobs`); a done
 * one keeps only what names it.
 */
export const notificationHandler: JobHandler = {
  retryDelays: NOTIFICATION_RETRY_DELAYS,
  async run(site: Site, job: ClaimedJob): Promise<void> {
    const payload = payloadOf(job.payload);
    try {
      await site.mailer.send(payload.message);
    } catch (err) {
      if (isPermanent(err)) throw new PermanentJobError(errorText(err));
      throw err;
    }
  },
  /**
   * Once sent, the email (visitor data, possibly of a form that saves no submissions, or of a
   * submission deleted since) leaves the table; what names it stays for `understudy jobs`.
   */
  donePayload(payload: unknown): unknown {
    const p = (payload ?? {}) as Partial<NotificationPayload>;
    return { form_id: p.form_id, submission_id: p.submission_id, action: p.action, message_id: p.message?.messageId };
  },
};

/** The form service's job kinds and their handlers. */
export function formJobHandlers(): Record<string, JobHandler> {
  return { [NOTIFICATION_JOB]: notificationHandler };
}

/** Refused before sending (an address that is not one mailbox), or every recipient rejected for good (RCPT TO 5xx). */
function isPermanent(err: unknown): boolean {
  if (err instanceof InvalidMailError) return true;
  const smtp = err as { code?: unknown; responseCode?: unknown } | null;
  return smtp?.code === 'EENVELOPE' && typeof smtp.responseCode === 'number' && smtp.responseCode >= 500;
}

function payloadOf(payload: unknown): NotificationPayload {
  const p = (payload ?? {}) as Partial<NotificationPayload>;
  const m = p.message as Partial<MailMessage> | undefined;
  const to = m ? [m.to].flat() : [];
  if (!m || !to.length || !to.every((a) => typeof a === 'string') || typeof m.subject !== 'string' || typeof m.text !== 'string') {
    throw new PermanentJobError('The job carries no email to send (payload.message with to, subject and text).');
  }
  return p as NotificationPayload;
}

/** `<frm.<form>.<random>@<host>>`: unique to this email, kept by every try of its job. */
function messageIdFor(formId: number, host: string): string {
  return `<frm.${formId}.${randomBytes(8).toString('hex')}@${host}>`;
}

function hostOf(home: string): string {
  try {
    return new URL(home).hostname || 'localhost';
  } catch {
    return 'localhost';
  }
}
