/** WP: check_ajax_referer(), the nonce check admin-ajax handlers make before doing anything. */
import type { AjaxRequest } from './dispatcher';
import { AjaxResponse, wpDie } from './response';

/**
 * WP: check_ajax_referer( $action, $query_arg ): the nonce is $_REQUEST[$query_arg] when given and
 * set, else `_ajax_nonce`, else `_wpnonce`, verified for this caller and session. Returns the answer
 * WordPress dies with when it fails (`-1`, 403), or null to go on.
 */
export async function checkAjaxReferer(req: AjaxRequest, action: string | number, queryArg?: string): Promise<AjaxResponse | null> {
  const { params } = req;
  const nonce = queryArg !== undefined && params[queryArg] !== undefined
    ? params[queryArg]
    : params._ajax_nonce !== undefined ? params._ajax_nonce : params._wpnonce;
  const valid = await req.site.auth.verifyNonce(req.user, nonce ?? '', action);
  return valid ? null : wpDie(-1, 403);
}
