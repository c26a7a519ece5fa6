/**
 * support/v1 mail, internal routes for agents (docs/mail-intake.md, "Ignored mail stays findable"):
 * - GET /mail/admin/ignored: messages intake acknowledged but stored no conversation for, newest
 *   first, with their reason; `reason`, `mailbox`, `page`, `per_page`, WordPress's collection headers;
 * - POST /mail/admin/ignored/<receipt-id>/ticket: opens a ticket from one (201 with the ticket); a
 *   repeat answers the same ticket (200).
 */
import { IgnoredMailPage, listIgnoredMail, openTicketFromReceipt, presentIgnoredMail } from '../../lib/support/inbound/ignored-mail';
import { viewConversation } from '../../lib/support/tickets/view';
import { WpError } from '../../lib/wp/errors';
import { ArgsParams, operations, publicItemSchema, routeSchema } from '../../lib/wp/rest/item-schema';
import { RestRequest, RestResponse, endpoint, requireCapability } from '../../lib/wp/rest/route';
import { SUPPORT_SCHEMAS } from '../../schema/support';
import { mailOperations } from '../../schema/support/mail-args';
import { mailReceiptSchema } from '../../schema/support/mail-receipt';
import { ticketSchema } from '../../schema/support/ticket';
import { actor } from './common';
import { NAMESPACE, supportRoute } from './kit';
import { conversationBody } from './tickets';

const mailArgs = operations(mailOperations, SUPPORT_SCHEMAS, ['receipt_id']);
const RECEIPT_SCHEMA = publicItemSchema(mailReceiptSchema);
const requireAgent = requireCapability('svc_work_tickets');

export const ignoredMail = supportRoute({
  route: '/mail/admin/ignored',
  schema: () => RECEIPT_SCHEMA,
  endpoints: [endpoint({ methods: ['GET'], permission: requireAgent, args: mailArgs.ignored, handler: getIgnoredMail })],
});

export const ignoredMailTicket = supportRoute({
  route: '/mail/admin/ignored/(?P<receipt_id>[0-9a-f]{32})/ticket',
  // It answers the ticket it opens.
  schema: routeSchema(ticketSchema, SUPPORT_SCHEMAS),
  endpoints: [endpoint({ methods: ['POST'], permission: requireAgent, args: mailArgs.open, handler: openTicketFromIgnored })],
});

async function getIgnoredMail(req: RestRequest<unknown, ArgsParams<typeof mailArgs.ignored>>): Promise<RestResponse> {
  const { reason, mailbox, page, per_page: perPage } = req.params;
  const result: IgnoredMailPage = await listIgnoredMail(req.site, { reason, mailbox }, page, perPage);
  // WP: a page past the last one is an error, not an empty list.
  if (page > result.totalPages && result.total > 0) {
    throw new WpError('rest_post_invalid_page_number', 'The page number requested is larger than the number of pages available.', 400);
  }
  const items = await Promise.all(result.receipts.map((r) => presentIgnoredMail(req.site, r)));
  return new RestResponse(items).paginate(result.total, result.totalPages);
}

async function openTicketFromIgnored(req: RestRequest<unknown, ArgsParams<typeof mailArgs.open>>): Promise<RestResponse> {
  const who = actor(req);
  const { ticketId, replayed } = await openTicketFromReceipt(req.site, req.params.receipt_id);
  const body = await conversationBody(req, await viewConversation(req.site, who, ticketId), who);
  if (replayed) return new RestResponse(body, 200);
  return new RestResponse(body, 201, { Location: await req.site.restUrl(`/${NAMESPACE}/tickets/${ticketId}`) });
}
