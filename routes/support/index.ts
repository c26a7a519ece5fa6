/** Every support/v1 route and page, in registration order (literal paths before parameterised ones of the same prefix). */
import { PageDeclaration, PageRegistry } from '../../lib/wp/pages';
import { RestRegistry } from '../../lib/wp/rest/registry';
import { RouteDeclaration } from '../../lib/wp/rest/route';
import { ticketAttachment } from './attachments';
import { changelogReleases, changelogsCollection } from './changelogs';
import { changelogParse, changelogProbe, changelogSync } from './changelogs-admin';
import { chatConfig, chatHandoff, chatMessages, chatThread } from './chat';
import { chatAdminLearn, chatAdminLearning, chatAdminTest } from './chat-admin';
import { ticketDelivery } from './deliveries';
import { docPageBySlug } from './doc-pages';
import { docFeedback, docsSearch } from './docs';
import { ignoredMail, ignoredMailTicket } from './mail-admin';
import { changelogFeedFormatPage, changelogFeedPage } from './feeds';
import { ticketMessages } from './messages';
import { chatScriptPage, portalScriptPage } from './pages';
import { ticketItem, ticketsCollection } from './tickets';
import { portalCode, portalConfig, portalSession } from './portal';
import { portalTicketAttachment, portalTicketItem, portalTicketMessages, portalTickets } from './portal-tickets';
import { siteTickets } from './sites';
import { inboundWebhook, relayWebhook } from './webhooks';

const SUPPORT_ROUTES: RouteDeclaration[] = [
  ticketsCollection, ticketItem, ticketMessages, ticketDelivery, ticketAttachment,
  relayWebhook, inboundWebhook, ignoredMail, ignoredMailTicket,
  siteTickets, portalConfig, portalCode, portalSession,
  docsSearch, docFeedback,
  changelogsCollection, changelogParse, changelogProbe, changelogSync, changelogReleases,
  portalTickets, portalTicketItem, portalTicketMessages, portalTicketAttachment,
  chatConfig, chatMessages, chatHandoff, chatAdminTest, chatAdminLearn, chatAdminLearning, chatThread,
];

/** Plain pages the plugin serves outside wp-json (scripts, feeds). */
const SUPPORT_PAGES: PageDeclaration[] = [portalScriptPage, changelogFeedPage, changelogFeedFormatPage, chatScriptPage, docPageBySlug];

export function registerSupportRoutes(rest: RestRegistry, pages: PageRegistry): void {
  for (const route of SUPPORT_ROUTES) rest.register(route);
  for (const page of SUPPORT_PAGES) pages.register(page);
}
