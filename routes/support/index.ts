/** Every support/v1 route, in registration order (literal paths before parameterised ones of the same prefix). */
import { RestRegistry } from '../../lib/wp/rest/registry';
import { ticketAttachment } from './attachments';
import { ticketDelivery } from './deliveries';
import { ticketMessages } from './messages';
import { ticketItem, ticketsCollection } from './tickets';
import { portalCode, portalConfig, portalSession } from './portal';
import { siteTickets } from './sites';
import { inboundWebhook, relayWebhook } from './webhooks';

export function registerSupportRoutes(rest: RestRegistry): void {
  for (const route of [ticketsCollection, ticketItem, ticketMessages, ticketDelivery, ticketAttachment, relayWebhook, inboundWebhook, siteTickets, portalConfig, portalCode, portalSession]) rest.register(route);
}
