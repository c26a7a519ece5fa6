/**
 * What the API shows of tickets and messages: explicit allowlists, never rows. The customer shape
 * leaves out the assignee, the unverified-requester mark, internal notes, deliveries and authors' addresses.
 */
import { PhpJsonEncoded } from '../../wp/php/json';
import { Actor, seesAgentData } from './actor';
import { Attachment, Conversation, Delivery, Message, Ticket } from './types';

export function presentTicket(ticket: Ticket, actor: Actor): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: ticket.id,
    subject: ticket.subject,
    status: ticket.status,
    priority: ticket.priority,
    source: ticket.source,
    customer_name: ticket.customerName,
    customer_email: ticket.customerEmail,
    created_at: ticket.createdAt,
    updated_at: ticket.updatedAt,
    version: ticket.version,
  };
  if (seesAgentData(actor)) {
    out.assignee = ticket.assigneeId;
    // Only on tickets whose requester nothing proved: every other ticket keeps the plugin's exact shape.
    if (ticket.requesterUnverified) out.requester_unverified = ticket.requesterUnverified;
  }
  return out;
}

/**
 * Each ticket as lists show it to agents and to customers, encoded once: the tickets that lists
 * serve are kept, and a ticket read again is a new object, so a change is never served from here.
 */
const listed = { agent: new WeakMap<Ticket, PhpJsonEncoded>(), customer: new WeakMap<Ticket, PhpJsonEncoded>() };

/** presentTicket() for a list: the same answer, encoded once per ticket and view. */
export function presentListedTicket(ticket: Ticket, actor: Actor): PhpJsonEncoded {
  const kept = listed[seesAgentData(actor) ? 'agent' : 'customer'];
  let encoded = kept.get(ticket);
  if (!encoded) {
    encoded = new PhpJsonEncoded(presentTicket(ticket, actor));
    kept.set(ticket, encoded);
  }
  return encoded;
}

/** The ticket with its conversation, oldest first. */
export function presentConversation(conversation: Conversation, actor: Actor, attachmentUrl: (a: Attachment) => string): Record<string, unknown> {
  const agentView = seesAgentData(actor);
  const messages = conversation.messages
    .filter((m) => agentView || m.visibility === 'public')
    .map((m) => presentMessage(m, conversation, actor, attachmentUrl));
  const out: Record<string, unknown> = presentTicket(conversation.ticket, actor);
  if (agentView) {
    // What a connected site sent with the ticket (docs/sites.md): agents only, never the customer.
    out.site_id = conversation.ticket.siteId;
    out.page_url = conversation.siteDetails?.pageUrl ?? null;
    out.metadata = conversation.siteDetails?.metadata ?? null;
    // The From of an email that named no usable sender (docs/mail-intake.md): the only trace of who wrote.
    out.raw_from = conversation.rawFrom ?? null;
  }
  out.messages = messages;
  return out;
}

export function presentMessage(message: Message, conversation: Pick<Conversation, 'attachments' | 'deliveries'>, actor: Actor, attachmentUrl: (a: Attachment) => string): Record<string, unknown> {
  const agentView = seesAgentData(actor);
  const out: Record<string, unknown> = {
    id: message.id,
    body: message.body,
    visibility: message.visibility,
    author: agentView
      ? { id: message.authorId, name: message.authorName, email: message.authorEmail, kind: message.authorKind }
      : { name: message.authorName, kind: message.authorKind },
    created_at: message.createdAt,
    attachments: conversation.attachments.filter((a) => a.messageId === message.id).map((a) => presentAttachment(a, attachmentUrl)),
  };
  if (agentView) out.deliveries = conversation.deliveries.filter((d) => d.messageId === message.id).map(presentDelivery);
  return out;
}

/**
 * What a reply route answers (schema/support/reply.ts): the stored message, and the ticket as the reply
 * left it, whose version the client sends with its next change.
 */
export function presentReply(message: Message, conversation: Conversation, actor: Actor, attachmentUrl: (a: Attachment) => string): Record<string, unknown> {
  const { ticket } = conversation;
  return {
    ...presentMessage(message, conversation, actor, attachmentUrl),
    ticket: { id: ticket.id, status: ticket.status, version: ticket.version, updated_at: ticket.updatedAt },
  };
}

export function presentAttachment(attachment: Attachment, attachmentUrl: (a: Attachment) => string): Record<string, unknown> {
  return { id: attachment.id, filename: attachment.filename, mime_type: attachment.mimeType, url: attachmentUrl(attachment) };
}

export function presentDelivery(delivery: Delivery): Record<string, unknown> {
  return {
    id: delivery.id,
    status: delivery.status,
    attempts: delivery.attempts,
    recipient: delivery.recipient,
    last_error: delivery.lastError,
    updated_at: delivery.updatedAt,
  };
}
