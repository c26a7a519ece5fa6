/**
 * `admin-ajax.php?action=frm_admin_action`: the admin's operations, named by `_frm_admin_action`.
 * Signed-in users only (no nopriv hook: signed-out callers get WordPress's `0`/400). Order, as core
 * handlers do it: the admin nonce (check_ajax_referer: `-1` with 403), then `edit_forms`, then the
 * sub-operation's arguments (schema/frm/), then the operation. Answers are wp_send_json_success/error.
 */
import * as admin from '../../lib/forms/admin';
import { AjaxAction, AjaxRequest } from '../../lib/wp/ajax/dispatcher';
import { checkAjaxReferer } from '../../lib/wp/ajax/referer';
import { AjaxResponse, wpSendJsonError, wpSendJsonSuccess } from '../../lib/wp/ajax/response';
import { WpError, isWpError } from '../../lib/wp/errors';
import { ArgSchema, CompiledArgs, TypedArgs, compileArgs, validateArgs } from '../../lib/wp/rest/args';
import { typedArgs } from '../../lib/wp/rest/item-schema';
import { adminPayloads as payloads } from '../../schema/frm/admin-payloads';
import formMessages from '../../schema/frm/form-messages.json';
import formSettings from '../../schema/frm/form-settings.json';

/** The nonce action the admin screens print (wp_create_nonce('frm_admin_action')). */
export const ADMIN_NONCE_ACTION = 'frm_admin_action';

interface Operation {
  args: CompiledArgs;
  run(req: AjaxRequest, validated: Record<string, unknown>): Promise<AjaxResponse>;
}

/** An operation whose `run` sees the params as its args type them (validateArgs() has checked them). */
function operation<A extends object>(args: TypedArgs<A>, run: (req: AjaxRequest, p: A) => Promise<AjaxResponse>): Operation {
  return { args: compileArgs(args), run: (req, validated) => run(req, validated as A) };
}

/** A form's `settings` and `messages`, as schema/frm/form-settings.json and form-messages.json check them. */
function withFormFields<A extends object>(args: TypedArgs<A>): TypedArgs<A & Pick<admin.FormPayload, 'settings' | 'messages'>> {
  return { ...args, settings: formSettings as ArgSchema, messages: formMessages as ArgSchema };
}

const actorOf = (req: AjaxRequest): admin.AdminActor => ({ id: req.user.id, unfilteredHtml: req.user.can('unfiltered_html') });
const ok = async (data: Promise<unknown>) => wpSendJsonSuccess(await data);

const OPERATIONS: Record<string, Operation> = {
  create_form: operation(withFormFields(typedArgs(payloads.create_form)), (req, p) => ok(admin.createForm(req.site, actorOf(req), p))),
  save_form: operation(withFormFields(typedArgs(payloads.save_form)), (req, p) => ok(admin.saveForm(req.site, actorOf(req), p.form_id, p))),
  delete_form: operation(typedArgs(payloads.delete_form), (req, p) => ok(admin.deleteForm(req.site, p.form_id))),
  list_submissions: operation(typedArgs(payloads.list_submissions), (req, p) => ok(admin.listSubmissions(req.site, p.form_id, p.page, p.per_page, p.spam))),
  bulk_delete_submissions: operation(typedArgs(payloads.bulk_delete_submissions), (req, p) => ok(admin.bulkDeleteSubmissions(req.site, p.form_id, p.ids))),
  unmark_spam: operation(typedArgs(payloads.unmark_spam), (req, p) => ok(admin.unmarkSpam(req.site, p.form_id, p.ids))),
  export_submissions: operation(typedArgs(payloads.export_submissions), async (req, p) => {
    const { filename, csv } = await admin.exportSubmissions(req.site, p.form_id, p.spam);
    return new AjaxResponse(csv, 200, 'text/csv; charset=UTF-8', { 'Content-Disposition': `attachment; filename="${filename}"` });
  }),
};

async function handleAdminAction(req: AjaxRequest): Promise<AjaxResponse> {
  const refused = await checkAjaxReferer(req, ADMIN_NONCE_ACTION);
  if (refused) return refused;
  if (!req.user.can('edit_forms')) return wpSendJsonError(new WpError('frm_cannot_edit_forms', 'Sorry, you are not allowed to manage forms.', 403), 403);
  const name = req.params._frm_admin_action;
  const operation = typeof name === 'string' && Object.hasOwn(OPERATIONS, name) ? OPERATIONS[name] : undefined;
  if (!operation) return wpSendJsonError(new WpError('frm_unknown_admin_action', 'Unknown _frm_admin_action.', 400), 400);
  try {
    return await operation.run(req, validateArgs(operation.args, req.params));
  } catch (err) {
    if (isWpError(err)) return wpSendJsonError(err, err.status);
    throw err;
  }
}

export const adminAction: AjaxAction = { action: 'frm_admin_action', priv: handleAdminAction };
