/** WP: what an admin-ajax handler answers: wp_die() text, or JSON as wp_send_json*() writes it. */
import { WpError, isWpError } from '../errors';
import { phpJsonEncode } from '../php/json';

export class AjaxResponse {
  constructor(
    readonly body: string | Buffer,
    readonly status = 200,
    readonly contentType = 'text/html; charset=UTF-8',
    readonly headers: Record<string, string> = {},
  ) {}
}

/** WP: wp_die($message, $status) under AJAX: the message as text. */
export function wpDie(message: string | number = '0', status = 200): AjaxResponse {
  return new AjaxResponse(String(message), status);
}

/** WP: wp_send_json(): the status only when given. */
export function wpSendJson(value: unknown, status = 200): AjaxResponse {
  return new AjaxResponse(phpJsonEncode(value), status, 'application/json; charset=UTF-8');
}

/** WP: wp_send_json_success(): `{"success":true}` plus `data` when there is a value (isset(): null is none). */
export function wpSendJsonSuccess(data?: unknown, status = 200): AjaxResponse {
  return wpSendJson(data === undefined || data === null ? { success: true } : { success: true, data }, status);
}

/**
 * WP: wp_send_json_error(): `{"success":false}` plus `data` when there is a value (null is none); a
 * WP_Error becomes the list of its `{code, message}` pairs, without its data.
 */
export function wpSendJsonError(data?: unknown, status = 200): AjaxResponse {
  if (data === undefined || data === null) return wpSendJson({ success: false }, status);
  return wpSendJson({ success: false, data: isWpError(data) ? errorMessages(data) : data }, status);
}

/** A WP_Error's messages; an invalid-params error carries one per parameter (`name: message`). */
function errorMessages(err: WpError): Array<{ code: string; message: string }> {
  const params = err.data.params;
  if (err.code !== 'rest_invalid_param' || !params || typeof params !== 'object' || Array.isArray(params)) {
    return [{ code: err.code, message: err.message }];
  }
  return Object.entries(params as Record<string, string>).map(([name, message]) => ({ code: err.code, message: `${name}: ${message}` }));
}
