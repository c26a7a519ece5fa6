/**
 * Adding a message to a ticket. A customer's reply reopens the ticket and fires `customer_replied`;
 * an agent's public reply sets it to waiting and queues the email to the customer; an internal note
 * changes neither. Every reply moves the version and the last-activity time.
 */
import { WpError } from '../../wp/errors';
import { inTransaction } from '../../wp/db/transaction';
import { Site } from '../../wp/site';
import { enqueueJob } from '../jobs/enqueue';
import { Actor } from './actor';
import { RequestKey, claimRequestKey, recordRequestResult, requestHash, storedResult } from './idempotency';
import { canSeeTicket, ticketNotFound } from './policy';
import { findTicket, loadConversation } from './store';
import { Conversation, IncomingFile, Message, Ticket, TicketStatus, Visibility } from './types';
import { attachFiles, checkFileCount, writeContext } from './write-context';
import { WriteContext, advanceVersion, insertDelivery, insertMessage, touchTicket } from './writes';

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
  const rk: RequestKey | null = input.requestKey
    ? { userId: actor.userId, scope: `reply:${ticketId}`, key: input.requestKey, request: requestOf(input) }
    : null;
  const id = await inTransaction(site.db, async (trx) => {
    const ticket = await findTicket(site.db, ticketId, trx);
    if (!ticket || !canSeeTicket(actor, ticket)) throw ticketNotFound();
    const ctx = await writeContext(site, trx);
    if (rk && !(await claimRequestKey(trx, site.db, rk, ctx.nowSeconds))) return null;
    await advanceVersion(ctx, ticketId, input.version);
    const messageId = await storeReply(site, ctx, actor, ticket, input);
    if (rk) await recordRequestResult(trx, site.db, rk, messageId);
    return messageId;
  });
  const messageId = id ?? (await storedResult(site.db, rk as RequestKey));
  return { ...(await reload(site, ticketId, messageId)), replayed: id === null };
}

async function storeReply(site: Site, ctx: WriteContext & { nowSeconds: number }, actor: Actor, ticket: Ticket, input: NewReply): Promise<number> {
  const { trx } = ctx;
  const last = await trx(ctx.tables.postmeta).join(ctx.tables.posts, 'ID', 'post_id')
    .where({ post_parent: ticket.id, post_type: 'svc_message', meta_key: '_svc_message_id' })
    .orderBy('post_date', 'desc').orderBy('ID', 'desc').first('meta_value');
  const message = await insertMessage(ctx, {
    ticketId: ticket.id, body: input.body, visibility: input.visibility, authorId: actor.userId, authorName: actor.name,
    authorEmail: actor.email, authorKind: actor.agent ? 'agent' : 'customer', inReplyTo: last?.meta_value ?? null,
  });
  await attachFiles(site, ctx, message.id, actor.userId, input.files);
  await touchTicket(ctx, ticket.id, nextStatus(actor, ticket, input.visibility));
  if (!actor.agent) {
    await enqueueJob(trx, ctx.tables, 'team_alert', { event: 'customer_replied', ticket_id: ticket.id, message_id: message.id }, ctx.nowSeconds);
  } else if (input.visibility === 'public' && ticket.customerEmail) {
    const deliveryId = await insertDelivery(ctx, { messageId: message.id, recipient: ticket.customerEmail });
    await enqueueJob(trx, ctx.tables, 'email_delivery', { delivery_id: deliveryId }, ctx.nowSeconds);
  }
  return message.id;
}

function nextStatus(actor: Actor, ticket: Ticket, visibility: Visibility): TicketStatus | undefined {
  if (!actor.agent) return ticket.status === 'open' ? undefined : 'open';
  if (visibility === 'internal') return undefined;
  return ticket.status === 'waiting' ? undefined : 'waiting';
}

async function reload(site: Site, ticketId: number, messageId: number): Promise<Omit<AddedReply, 'replayed'>> {
  const ticket = await findTicket(site.db, ticketId);
  if (!ticket) throw ticketNotFound();
  const conversation = await loadConversation(site.db, ticket, true);
  const message = conversation.messages.find((m) => m.id === messageId);
  if (!message) throw ticketNotFound();
  return { message, conversation };
}

function requestOf(input: NewReply): unknown {
  return { body: input.body, visibility: input.visibility, files: (input.files ?? []).map((f) => [f.filename, requestHash(f.data.toString('base64'))]) };
}
