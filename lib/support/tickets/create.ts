/**
 * Opening a ticket: the ticket, its first message and any files, the `ticket_created` event for the
 * team alert, and the request key, all in one transaction committed before the answer.
 */
import { Site } from '../../wp/site';
import { enqueueTeamAlert } from '../enqueue';
import { Actor } from './actor';
import { attachFiles, checkFileCount, fileFingerprints, saveFiles } from './attachments';
import { isRequestKeyStored } from '../request-keys';
import { ticketNotFound } from './policy';
import { findTicket, loadConversation } from './store';
import { AuthorKind, Conversation, IncomingFile, UnverifiedRequester } from './types';
import { NewMessageRows, NewTicketRows, insertMessage, insertOpenings, insertTicket, withNewPosts } from './writes';
import { WriteContext, writeSupport } from '../write';

export interface NewTicket {
  subject: string;
  body: string;
  requestKey?: string;
  files?: IncomingFile[];
  /** Storage map sources: `web`, `api`, `email`, `portal`, `site`, `chat`. */
  source: string;
}

export interface OpenedTicket {
  conversation: Conversation;
  /** True when a request with the same key had already opened it. */
  replayed: boolean;
}

/** The request-key scope of opening a ticket. */
const TICKET_SCOPE = 'ticket';

export async function createTicket(site: Site, actor: Actor, input: NewTicket): Promise<OpenedTicket> {
  checkFileCount(input.files);
  const requestKey = input.requestKey
    ? { userId: actor.userId, scope: TICKET_SCOPE, key: input.requestKey, request: await requestOf(input) }
    : null;
  const { id, replayed } = await writeSupport(site, { requestKey }, async (ctx) => {
    const opened = await openTicket(site, ctx, {
      subject: input.subject, body: input.body, source: input.source, files: input.files,
      customer: { userId: actor.userId, name: actor.name, email: actor.email }, authorKind: actor.agent ? 'agent' : 'customer',
    });
    return opened.ticketId;
  });
  const ticket = await findTicket(site.db, id);
  if (!ticket) throw ticketNotFound();
  return { conversation: await loadConversation(site.db, ticket, true), replayed };
}

/** True when `requestKey` already opened a ticket for this actor: createTicket() would only replay it. */
export async function isTicketRequestStored(site: Site, actor: Actor, requestKey: string | undefined): Promise<boolean> {
  return requestKey !== undefined && isRequestKeyStored(site.db, { userId: actor.userId, scope: TICKET_SCOPE, key: requestKey });
}

/** A new ticket whoever opens it (signed-in user, incoming email): who the customer is and the first message. */
export interface TicketOpening {
  subject: string;
  body: string;
  source: string;
  customer: { userId: number; name: string; email: string };
  authorKind: AuthorKind;
  files?: IncomingFile[];
  /** Key of the mailbox an emailed ticket arrived in (`_svc_mailbox`). */
  mailbox?: string;
  /** Site-id of the connected site the ticket was opened on (`_svc_site_id`). */
  siteId?: string;
  /** An email's raw From when it names no usable sender (`_svc_raw_from`); the customer is then nobody. */
  rawFrom?: string;
  /** Set when nothing proved that the requester owns the address (`_svc_requester_unverified`). */
  requesterUnverified?: UnverifiedRequester;
  /** The first message's own RFC 5322 Message-ID (an email's); one is made when absent. */
  messageId?: string | null;
  inReplyTo?: string | null;
}

/**
 * Writes a new ticket inside the caller's transaction: the ticket, its first message and files, and
 * (when alerts are on) the `ticket_created` team alert, committed with the ticket or not at all.
 */
export function openTicket(site: Site, ctx: WriteContext, o: TicketOpening): Promise<{ ticketId: number; messageId: number }> {
  return withNewPosts(ctx, async (withPosts) => {
    const ticketId = await insertTicket(withPosts, ticketRowsOf(o));
    const message = await insertMessage(withPosts, { ...firstMessageOf(o), ticketId });
    await attachFiles(site, withPosts, message.id, o.customer.userId, o.files);
    await enqueueTeamAlert(withPosts, { event: 'ticket_created', ticket_id: ticketId, message_id: message.id });
    return { ticketId, messageId: message.id };
  });
}

/**
 * Several new tickets in one transaction, row for row what openTicket() writes for each, in a few
 * statements for all of them instead of a few a ticket (emails arriving together, inbound/opening-batch.ts).
 */
export async function openTickets(site: Site, ctx: WriteContext, openings: TicketOpening[]): Promise<Array<{ ticketId: number; messageId: number }>> {
  // One alone costs fewer statements the one-at-a-time way (no IDs to read back).
  if (openings.length === 1) return [await openTicket(site, ctx, openings[0] as TicketOpening)];
  return withNewPosts(ctx, async (withPosts) => {
    const files = await Promise.all(openings.map((o) => saveFiles(site, withPosts, o.files)));
    const opened = await insertOpenings(withPosts, openings.map((o, i) => ({
      ticket: ticketRowsOf(o), message: firstMessageOf(o), files: (files[i] ?? []).map((file) => ({ authorId: o.customer.userId, ...file })),
    })));
    for (const { ticketId, messageId } of opened) await enqueueTeamAlert(withPosts, { event: 'ticket_created', ticket_id: ticketId, message_id: messageId });
    return opened;
  });
}

function ticketRowsOf(o: TicketOpening): NewTicketRows {
  return {
    subject: o.subject, customerId: o.customer.userId, customerName: o.customer.name, customerEmail: o.customer.email,
    source: o.source, priority: 'normal', mailbox: o.mailbox, siteId: o.siteId, rawFrom: o.rawFrom, requesterUnverified: o.requesterUnverified,
  };
}

function firstMessageOf(o: TicketOpening): Omit<NewMessageRows, 'ticketId'> {
  const { customer } = o;
  return {
    body: o.body, visibility: 'public', authorId: customer.userId, authorName: customer.name,
    authorEmail: customer.email, authorKind: o.authorKind, messageId: o.messageId ?? undefined, inReplyTo: o.inReplyTo,
  };
}

/** What a repeat must match: the content, with files by their hash. */
async function requestOf(input: NewTicket): Promise<unknown> {
  return { subject: input.subject, body: input.body, files: await fileFingerprints(input.files) };
}
