/** Tickets, messages, replies and deliveries as an agent sees them: every optional field there. */
import { Actor } from '../../../lib/support/tickets/actor';
import { presentConversation, presentDelivery, presentMessage, presentReply } from '../../../lib/support/tickets/present';
import { Attachment, Conversation } from '../../../lib/support/tickets/types';
import { deliverySchema } from '../../../schema/support/delivery';
import { messageSchema } from '../../../schema/support/message';
import { replySchema } from '../../../schema/support/reply';
import { ticketSchema } from '../../../schema/support/ticket';
import { Presented } from './presented';

const agent: Actor = { userId: 2, name: 'Agent One', email: 'agent1@example.com', agent: true, manager: false, customerView: false };

export const fullConversation: Conversation = {
  ticket: {
    id: 5, subject: 'Printer on fire', status: 'open', priority: 'high', source: 'site', customerName: 'Cus Tomer', customerEmail: 'customer@example.net',
    customerId: 0, assigneeId: 2, version: 3, createdAt: '2026-11-22 12:00:00', updatedAt: '2026-11-22 12:05:00', siteId: 'abcdefghijkl',
    mailbox: null, requesterUnverified: 'site_form',
  },
  messages: [{
    id: 6, ticketId: 5, body: 'It smokes.', visibility: 'public', authorId: 0, authorName: 'Cus Tomer', authorEmail: 'customer@example.net',
    authorKind: 'customer', createdAt: '2026-11-22 12:00:00', messageId: null, inReplyTo: null,
  }],
  attachments: [{ id: 7, messageId: 6, filename: 'smoke.png', mimeType: 'image/png', file: 'svc/smoke.png' }],
  deliveries: [{ id: 8, messageId: 6, status: 'failed', attempts: 1, recipient: 'customer@example.net', lastError: 'Refused', updatedAt: '2026-11-22 12:01:00' }],
  siteDetails: { pageUrl: 'https://shop.example/help', metadata: { order: 42 } },
  rawFrom: 'Cus Tomer <customer@example.net>',
};

const urlOf = (a: Attachment) => `http://example.org/wp-json/support/v1/tickets/5/attachments/${a.id}`;

export function presentTicketSchemas(): Presented[] {
  const c = fullConversation;
  const message = c.messages[0] as Conversation['messages'][number];
  return [
    { schema: ticketSchema, value: presentConversation(c, agent, urlOf) },
    { schema: messageSchema, value: presentMessage(message, c, agent, urlOf) },
    { schema: replySchema, value: presentReply(message, c, agent, urlOf) },
    { schema: deliverySchema, value: presentDelivery(c.deliveries[0] as Conversation['deliveries'][number]) },
  ];
}
