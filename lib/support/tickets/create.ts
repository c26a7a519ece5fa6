/**
 * Opening a ticket: the ticket, its first message and any files, the `ticket_created` event for the
 * team alert, and the request key, all in one transaction committed before the answer.
 */
import { inTransaction } from '../../wp/db/transaction';
import { Site } from '../../wp/site';
import { enqueueJob } from '../jobs/enqueue';
import { Actor } from './actor';
import { RequestKey, claimRequestKey, recordRequestResult, requestHash, storedResult } from './idempotency';
import { ticketNotFound } from './policy';
import { findTicket, loadConversation } from './store';
import { Conversation, IncomingFile } from './types';
import { attachFiles, checkFileCount, writeContext } from './write-context';
import { insertMessage, insertTicket } from './writes';

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

export async function createTicket(site: Site, actor: Actor, input: NewTicket): Promise<OpenedTicket> {
  checkFileCount(input.files);
  const rk: RequestKey | null = input.requestKey
    ? { userId: actor.userId, scope: 'ticket', key: input.requestKey, request: requestOf(input) }
    : null;
  const id = await inTransaction(site.db, async (trx) => {
    const ctx = await writeContext(site, trx);
    if (rk && !(await claimRequestKey(trx, site.db, rk, ctx.nowSeconds))) return null;
    const ticketId = await insertTicket(ctx, {
      subject: input.subject, customerId: actor.userId, customerName: actor.name, customerEmail: actor.email,
      source: input.source, priority: 'normal',
    });
    const message = await insertMessage(ctx, {
      ticketId, body: input.body, visibility: 'public', authorId: actor.userId, authorName: actor.name,
      authorEmail: actor.email, authorKind: actor.agent ? 'agent' : 'customer',
    });
    await attachFiles(site, ctx, message.id, actor.userId, input.files);
    await enqueueJob(trx, site.db.tables, 'team_alert', { event: 'ticket_created', ticket_id: ticketId, message_id: message.id }, ctx.nowSeconds);
    if (rk) await recordRequestResult(trx, site.db, rk, ticketId);
    return ticketId;
  });
  const ticketId = id ?? (await storedResult(site.db, rk as RequestKey));
  const ticket = await findTicket(site.db, ticketId);
  if (!ticket) throw ticketNotFound();
  return { conversation: await loadConversation(site.db, ticket, true), replayed: id === null };
}

/** What a repeat must match: the content, with files by their hash. */
function requestOf(input: NewTicket): unknown {
  return { subject: input.subject, body: input.body, files: (input.files ?? []).map((f) => [f.filename, requestHash(f.data.toString('base64'))]) };
}
