/**
 * `admin-ajax.php?action=frm_form_submit`: a visitor's submission, for signed-in and signed-out visitors
 * alike (both hooks, one handler, as plugins register it). Answers JSON in the plugin family's shape.
 */
import { DEFAULT_MESSAGES } from '../../lib/forms/settings';
import { SUBMIT_NONCE_ACTION, errorBody, submitForm, wantsDetail } from '../../lib/forms/submit';
import { AjaxAction, AjaxRequest } from '../../lib/wp/ajax/dispatcher';
import { AjaxResponse, wpSendJson } from '../../lib/wp/ajax/response';

async function handleSubmit(req: AjaxRequest): Promise<AjaxResponse> {
  // Every error answer is the family's `{message}` alone unless the request asks for the detail.
  const detail = wantsDetail(req.body);
  // A submission cut off in transit is refused whole rather than judged on the fields that arrived
  // (the detail flag, when it arrived, only adds the code to the refusal).
  if (req.bodyMalformed) return wpSendJson(errorBody('invalid_request', DEFAULT_MESSAGES.error as string, detail), 400);
  try {
    const result = await submitForm(req.site, {
      fields: req.body,
      userAgent: req.header('user-agent') ?? '',
      ipAddress: req.ip,
      refererUrl: req.header('referer') ?? '',
      verifyNonce: async (nonce) => (await req.site.auth.verifyNonce(req.user, nonce, SUBMIT_NONCE_ACTION)) !== false,
    });
    const answer = wpSendJson(result.body, result.status);
    if (result.retryAfter === undefined) return answer;
    return new AjaxResponse(answer.body, answer.status, answer.contentType, { 'Retry-After': String(result.retryAfter) });
  } catch (err) {
    // CASE: the site failed (database down…). The visitor still gets the form's answer shape, never a notice.
    req.site.logger.error('form submission failed', { error: err instanceof Error ? err.stack : String(err) });
    return wpSendJson(errorBody('error', DEFAULT_MESSAGES.error as string, detail), 500);
  }
}

export const formSubmitAction: AjaxAction = { action: 'frm_form_submit', priv: handleSubmit, nopriv: handleSubmit };
