/** support/v1 deliveries: retrying or cancelling a ticket's outgoing email (agents only). */
import { endpoint, requireCapability } from '../../lib/wp/rest/route';
import { actOnDelivery } from '../../lib/support/tickets/deliveries';
import { presentDelivery } from '../../lib/support/tickets/present';
import { routeSchema } from '../../lib/wp/rest/item-schema';
import { SUPPORT_SCHEMAS } from '../../schema/support';
import { deliverySchema } from '../../schema/support/delivery';
import { TicketRequest, ticketArgs } from './common';
import { supportRoute } from './kit';

export const ticketDelivery = supportRoute({
  route: '/tickets/(?P<id>[\\d]+)/deliveries/(?P<delivery_id>[\\d]+)',
  schema: routeSchema(deliverySchema, SUPPORT_SCHEMAS),
  endpoints: [endpoint({ methods: ['PATCH'], permission: requireCapability('svc_work_tickets'), args: ticketArgs.delivery, handler: updateDelivery })],
});

async function updateDelivery(req: TicketRequest<'delivery'>): Promise<unknown> {
  const { id, delivery_id: deliveryId, action, attempts } = req.params;
  return presentDelivery(await actOnDelivery(req.site, id, deliveryId, action, attempts));
}
