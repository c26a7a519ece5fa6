/**
 * support/v1 mail, internal routes for agents (docs/mail-intake.md, "Ignored mail stays findable"):
 * - GET /mail/admin/ignored: messages intake acknowledged but stored no conversation for, newest
 *   first, with their reason; `reason`, `mailbox`, `page`, `per_page`, WordPress's collection headers;
 * - POST /mail/admin/ignored/<receipt-id>/ticket: opens a ticket from one (201 with the ticket); a
 *   repeat answers the same ticket (200).
 */
import { IgnoredMailPage, listIgnoredMail, openTicketFromReceipt, presentIgnoredMail } from '../../lib/support/inbound/ignored-mail';
import { storageAvailability } from '../../lib/support/storage-check';
import { viewConversation } from '../../lib/support/tickets/view';
import { WpError } from '../../lib/wp/errors';
import { TypedArgs } from '../../lib/wp/rest/args';
import { ParamsOf, argsForOperation, publicItemSchema, routeSchema } from '../../lib/wp/rest/item-schema';
import { RestRequest, RestResponse, RouteDeclaration, endpoint, requireCapability } from '../../lib/wp/rest/route';
import { commonSchema } from '../../schema/support/common';
import { mailOperations } from '../../schema/support/mail-args';
import { mailReceiptSchema } from '../../schema/support/mail-receipt';
import { ticketSchema } from '../../schema/support/ticket';
import { NAMESPACE, SUPPORT_SCHEMAS, actor } from './common';
import { conversationBody } from './tickets';

const MAIL_SCHEMAS = [commonSchema, mailReceiptSchema] as const;
type IgnoredParams = ParamsOf<typeof mailOperations.ignored, typeof MAIL_SCHEMAS>;
type OpenParams = ParamsOf<typeof mailOperations.open, typeof MAIL_SCHEMAS, 'receipt_id'>;
const ignoredArgs: TypedArgs<IgnoredParams> = argsForOperation(mailOperations.ignored, MAIL_SCHEMAS, 'edit');
const openArgs: TypedArgs<OpenParams> = argsForOperation(mailOperations.open, MAIL_SCHEMAS, 'create');

const RECEIPT_SCHEMA = publicItemSchema(mailReceiptSchema);
const requireAgent = requireCapability('svc_work_tickets');

const mailAdminBase = {
  namespace: NAMESPACE,
  headers: { 'Cache-Control': 'private, no-store' },
  availability: storageAvailability,
  schema: () => RECEIPT_SCHEMA,
};

export const ignoredMail: RouteDeclaration = {
  ...mailAdminBase,
  route: '/mail/admin/ignored',
  endpoints: [endpoint({ methods: ['GET'], permission: requireAgent, args: ignoredArgs, handler: getIgnoredMail })],
};

export const ignoredMailTicket: RouteDeclaration = {
  ...mailAdminBase,
  route: '/mail/admin/ignored/(?P<receipt_id>[0-9a-f]{32})/ticket',
  // It answers the ticket it opens.
  schema: routeSchema(ticketSchema, SUPPORT_SCHEMAS),
  endpoints: [endpoint({ methods: ['POST'], permission: requireAgent, args: openArgs, handler: openTicketFromIgnored })],
};

async function getIgnoredMail(req: RestRequest<unknown, IgnoredParams>): Promise<RestResponse> {
  const { reason, mailbox, page, per_page: perPage } = req.params;
  const result: IgnoredMailPage = await listIgnoredMail(req.site, { reason, mailbox }, page, perPage);
  // WP: a page past the last one is an error, not an empty list.
  if (page > result.totalPages && result.total > 0) {
    throw new WpError('rest_post_invalid_page_number', 'The page number requested is larger than the number of pages available.', 400);
  }
  const items = await Promise.all(result.receipts.map((r) => presentIgnoredMail(req.site, r)));
  return new RestResponse(items).paginate(result.total, result.totalPages);
}

async function openTicketFromIgnored(req: RestRequest<unknown, OpenParams>): Promise<RestResponse> {
  const who = actor(req);
  const { ticketId, replayed } = await openTicketFromReceipt(req.site, req.params.receipt_id);
  const body = await conversationBody(req, await viewConversation(req.site, who, ticketId), who);
  if (replayed) return new RestResponse(body, 200);
  return new RestResponse(body, 201, { Location: await req.site.restUrl(`/${NAMESPACE}/tickets/${ticketId}`) });
}
