/**
 * A form's notification actions, composed for a genuine (not spam, valid) submission and queued as
 * jobs that send them (notifications.ts). The plugin family has one built-in type, `email`: `to`,
 * `from`, `subject`, `message`, `headers` (extra header lines, e.g. `Reply-To: [name] <[email]>`) and
 * `content_type` (`text/html`, the default, or `text/plain`), every one of them able to hold `[field]`
 * variables. Values are escaped for where they land: in a header they are one line (`[all]` separated
 * by commas), in an address a quoted display name unless they are addresses, and header names only
 * ever come from the template. An address that still does not read as one mailbox is left out (a
 * recipient, Reply-To) or replaced by the default (From).
 */
import { Logger } from '../logger';
import { parseMailbox } from '../mail/address';
import type { MailMessage } from '../mail/mailer';
import { isEmail } from '../wp/formatting';
import type { FormAction } from './settings';
import type { Form, SubmissionData } from './store';
import { addressText, escapeHtml, headerText, noEscape, replaceDataVariables } from './variables';

/** The email of one of the form's actions (`action`: its place in the form's list). */
export interface ActionEmail {
  action: number;
  message: MailMessage;
}

/** Headers an action may not set through `headers`: the envelope and MIME structure are ours. */
const RESERVED_HEADERS = new Set(['to', 'from', 'cc', 'bcc', 'subject', 'content-type', 'content-transfer-encoding', 'mime-version']);

/**
 * The emails a submission's actions send, composed now (they are queued, and sent as composed): one
 * per `email` action that has a recipient and a message. Other types are skipped and logged.
 */
export function actionEmails(form: Form, data: SubmissionData, adminEmail: string, logger: Logger): ActionEmail[] {
  const emails: ActionEmail[] = [];
  form.settings.actions.forEach((action, index) => {
    if (action.type !== 'email') {
      logger.warn('form action type not supported; skipped', { form_id: form.id, type: action.type });
      return;
    }
    const message = buildEmail(action, data, adminEmail);
    if (message) emails.push({ action: index, message });
  });
  return emails;
}

/** The email an `email` action sends for `data`, or null when it has no recipient or no message (as in the family). */
export function buildEmail(action: FormAction, data: SubmissionData, adminEmail: string): MailMessage | null {
  const to = recipients(replaceDataVariables(action.to ?? '', data, addressText, ', '));
  const template = action.message ?? '';
  if (!to.length || !template.trim()) return null;
  const html = (action.content_type ?? 'text/html') === 'text/html';
  const { replyTo, headers } = headerLines(action.headers ?? '', data);
  const body = replaceDataVariables(template, data, html ? escapeHtml : noEscape, html ? '<br>\n' : '\n');
  return {
    to,
    from: oneMailbox(replaceDataVariables(action.from ?? adminEmail, data, addressText, ', ')),
    replyTo,
    subject: replaceDataVariables(action.subject ?? '', data, headerText, ', '),
    // The template's tags are stripped before values go in, so a value's own `<...>` text survives.
    text: html ? replaceDataVariables(textFromHtml(template), data, noEscape) : body,
    html: html ? body : undefined,
    headers,
  };
}

/** Comma-separated addresses, bare or `Name <address>`; those that are not one email address each are dropped. */
function recipients(list: string): string[] {
  return splitOutsideQuotes(list).filter((part) => {
    const mailbox = parseMailbox(part);
    return mailbox !== null && isEmail(mailbox.address);
  });
}

/** The value when it reads as exactly one mailbox; otherwise nothing, so the sender's default applies. */
function oneMailbox(value: string): string | undefined {
  return parseMailbox(value) ? value : undefined;
}

/**
 * The template's `Name: value` lines, split before any value goes in, so header names are the
 * template's and a value (or `[all]`) can never start a line of its own. Reply-To becomes the reply
 * address when it is one mailbox; reserved headers are ignored.
 */
function headerLines(template: string, data: SubmissionData): { replyTo?: string; headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  let replyTo: string | undefined;
  for (const line of template.split(/\r?\n/)) {
    const match = /^([A-Za-z0-9-]+):\s*(.+)$/.exec(line.trim());
    if (!match) continue;
    const [, name, value] = match as unknown as [string, string, string];
    if (name.toLowerCase() === 'reply-to') replyTo = oneMailbox(replaceDataVariables(value, data, addressText, ', ').trim());
    else if (!RESERVED_HEADERS.has(name.toLowerCase())) headers[name] = replaceDataVariables(value, data, headerText, ', ').trim();
  }
  return { replyTo, headers };
}

/** A list split at commas that are not inside a quoted display name (a quote left open runs to the end, and that part is refused). */
function splitOutsideQuotes(list: string): string[] {
  const parts = [''];
  let quoted = false;
  for (let i = 0; i < list.length; i++) {
    const ch = list[i] as string;
    const escaped = quoted && ch === '\\' ? ch + (list[++i] ?? '') : null;
    if (ch === '"' && escaped === null) quoted = !quoted;
    if (ch === ',' && !quoted) parts.push('');
    else parts[parts.length - 1] += escaped ?? ch;
  }
  return parts.map((part) => part.trim()).filter(Boolean);
}

/** A readable plain-text alternative of an HTML template. */
function textFromHtml(html: string): string {
  return html.replace(/<br\s*\/?>/gi, '\n').replace(/<\/(p|div|tr|h\d)>/gi, '\n').replace(/<[^>]*>/g, '').replace(/\n{3,}/g, '\n\n').trim();
}
