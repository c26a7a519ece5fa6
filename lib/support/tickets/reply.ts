/**
 * Adding a message to a ticket. A customer's reply reopens the ticket and fires `customer_replied`;
 * an agent's public reply sets it to waiting and queues the email to the customer; an internal note
 * changes neither. Every reply moves the version and the last-activity time.
 */
import { WpError } from '../../wp/errors';
import { Site } from '../../wp/site';
import { enqueueJob, enqueueTeamAlert } from '../enqueue';
import { Actor } from './actor';
import { attachFiles, checkFileCount, fileFingerprints } from './attachments';
import { isRequestKeyStored } from '../request-keys';
import { canSeeTicket, ticketNotFound } from './policy';
import { findTicket, latestMessageId, loadConversation } from './store';
import { Conversation, IncomingFile, Message, Ticket, TicketStatus, Visibility } from './types';
import { NewPostsContext, advanceVersion, confirmRequester, insertDelivery, insertMessage, touchTicket, withNewPosts } from './writes';
import { WriteContext, writeSupport } from '../write';

export interface NewReply {
  body: string;
  version: number;
  visibility: Visibility;
  requestKey?: string;
  files?: IncomingFile[];
}

export interface AddedReply {
  message: Message;
  conversation: Conversation;
  replayed: boolean;
}

export async function addReply(site: Site, actor: Actor, ticketId: number, input: NewReply): Promise<AddedReply> {
  checkFileCount(input.files);
  if (input.visibility === 'internal' && !actor.agent) {
    throw new WpError('svc_cannot_post_internal', 'Only agents can add internal notes.', 403);
  }
  const requestKey = input.requestKey
    ? { userId: actor.userId, scope: replyScope(ticketId), key: input.requestKey, request: await requestOf(input) }
    : null;
  const { id, replayed } = await writeSupport(site, {
    requestKey, check: (ctx) => visibleTicket(site, actor, ticketId, ctx),
  }, async (ctx, ticket) => {
    await advanceVersion(ctx, ticketId, input.version);
    // Only the ticket's own customer reaches it here, signed in or through the portal: their address is proven.
    if (!actor.agent) await confirmRequester(ctx, ticket);
    return storeReply(site, ctx, authorOf(actor), ticket, input);
  });
  return { ...(await reload(site, ticketId, id)), replayed };
}

/** The ticket, when the actor may see it; any other ticket is not found (the same answer as a missing one). */
async function visibleTicket(site: Site, actor: Actor, ticketId: number, ctx: WriteContext): Promise<Ticket> {
  const ticket = await findTicket(site.db, ticketId, ctx.trx);
  if (!ticket || !canSeeTicket(actor, ticket)) throw ticketNotFound();
  return ticket;
}

/** True when `requestKey` already added a reply to this ticket for this actor: addReply() would only replay it. */
export async function isReplyRequestStored(site: Site, actor: Actor, ticketId: number, requestKey: string | undefined): Promise<boolean> {
  return requestKey !== undefined && isRequestKeyStored(site.db, { userId: actor.userId, scope: replyScope(ticketId), key: requestKey });
}

/** The request-key scope of replies to one ticket. */
function replyScope(ticketId: number): string {
  return `reply:${ticketId}`;
}

/** Who a reply is from, whether a signed-in user or the sender of an email. */
export interface ReplyAuthor {
  userId: number;
  name: string;
  email: string;
  kind: 'agent' | 'customer';
}

export interface ReplyContent {
  body: string;
  visibility: Visibility;
  files?: IncomingFile[];
  /** The reply's own Message-ID (an email's); one is made when absent. */
  messageId?: string | null;
  /** The Message-ID it answers; by default the ticket's latest message. */
  inReplyTo?: string | null;
}

/**
 * Writes a reply inside the caller's transaction (the caller has moved the version) and what it sets
 * in motion: a customer's public reply reopens the ticket and records `customer_replied`; an agent's
 * public reply sets it to waiting and queues the email to the customer; an internal note changes
 * neither. Every reply moves the last-activity time.
 */
export function storeReply(site: Site, ctx: WriteContext, author: ReplyAuthor, ticket: Ticket, content: ReplyContent): Promise<number> {
  return withNewPosts(ctx, (withPosts) => writeReply(site, withPosts, author, ticket, content));
}

async function writeReply(site: Site, ctx: NewPostsContext, author: ReplyAuthor, ticket: Ticket, content: ReplyContent): Promise<number> {
  const inReplyTo = content.inReplyTo !== undefined ? content.inReplyTo : await latestMessageId(site.db, ticket.id, ctx.trx);
  const message = await insertMessage(ctx, {
    ticketId: ticket.id, body: content.body, visibility: content.visibility, authorId: author.userId, authorName: author.name,
    authorEmail: author.email, authorKind: author.kind, messageId: content.messageId ?? undefined, inReplyTo,
  });
  await attachFiles(site, ctx, message.id, author.userId, content.files);
  await touchTicket(ctx, ticket.id, nextStatus(author, ticket, content.visibility));
  if (content.visibility === 'internal') return message.id;
  if (author.kind === 'customer') {
    await enqueueTeamAlert(ctx, { event: 'customer_replied', ticket_id: ticket.id, message_id: message.id });
  } else if (ticket.customerEmail) {
    const deliveryId = await insertDelivery(ctx, { messageId: message.id, recipient: ticket.customerEmail });
    await enqueueJob(ctx.trx, ctx.tables, 'email_delivery', { delivery_id: deliveryId }, ctx.nowSeconds);
  }
  return message.id;
}

function authorOf(actor: Actor): ReplyAuthor {
  return { userId: actor.userId, name: actor.name, email: actor.email, kind: actor.agent ? 'agent' : 'customer' };
}

function nextStatus(author: ReplyAuthor, ticket: Ticket, visibility: Visibility): TicketStatus | undefined {
  if (visibility === 'internal') return undefined;
  const next: TicketStatus = author.kind === 'customer' ? 'open' : 'waiting';
  return ticket.status === next ? undefined : next;
}

async function reload(site: Site, ticketId: number, messageId: number): Promise<Omit<AddedReply, 'replayed'>> {
  const ticket = await findTicket(site.db, ticketId);
  if (!ticket) throw ticketNotFound();
  const conversation = await loadConversation(site.db, ticket, true);
  const message = conversation.messages.find((m) => m.id === messageId);
  if (!message) throw ticketNotFound();
  return { message, conversation };
}

async function requestOf(input: NewReply): Promise<unknown> {
  return { body: input.body, visibility: input.visibility, files: await fileFingerprints(input.files) };
}
