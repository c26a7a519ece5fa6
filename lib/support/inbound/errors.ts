/**
 * The answers of the mail webhooks that are not 202 (contract section 7). Each says whether a retry can
 * help: 404 and 422 never will, 401/403 need the site admin, 503 (storage) will later.
 */
import { WpError } from '../../wp/errors';

/** 404: the route key names no mailbox of this site; the sender should stop retrying. */
export function mailboxNotFound(): WpError {
  return new WpError('svc_mailbox_not_found', 'No mailbox uses this address.', 404);
}

/** 401: no token, or not this mailbox's token. */
export function invalidToken(): WpError {
  return new WpError('svc_invalid_token', 'The mailbox token is missing or wrong.', 401);
}

/** 403: the mailbox does not take mail from automation tools. */
export function automationOff(): WpError {
  return new WpError('svc_automation_disabled', 'Automation tools are not switched on for this mailbox.', 403);
}

/** 422: fields the message needs are absent (named in provider terms, e.g. `TextBody or HtmlBody`). */
export function missingFields(fields: string[]): WpError {
  return new WpError('svc_invalid_message', `The message cannot be read: missing ${fields.join(', ')}.`, 422, { missing: fields });
}

/** 422: fields that are present but unusable (bad base64, a body that is not JSON, ...). */
export function invalidFields(fields: string[], message: string): WpError {
  return new WpError('svc_invalid_message', message, 422, { invalid: fields });
}
