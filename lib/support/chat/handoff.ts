/**
 * POST /chat/handoff (docs/chat.md, "Handoff"): the conversation becomes a ticket, source `chat`, whose
 * first message holds the visitor's note, the transcript and the sources the answers cited; the
 * customer is the WordPress user with that email when there is one, under the account's own name, and
 * the ticket is marked as from an unverified requester (nothing proves the visitor owns the address).
 * The thread is frozen (no more answers) in the same transaction, and a second handoff of it answers
 * the same ticket.
 */
import { Site } from '../../wp/site';
import { openTicket } from '../tickets/create';
import { unprovenRequester } from '../tickets/requester';
import { writeSupport } from '../write';
import { ChatMessage, ChatThread, holdConversation, markHandedOff } from './store';
import { threadNotFound } from './tokens';

export interface HandoffRequest {
  email: string;
  name?: string;
  note?: string;
}

export interface Handoff {
  ticketId: number;
  /** False when an earlier handoff of the thread had already opened the ticket. */
  created: boolean;
}

export async function handOff(site: Site, thread: ChatThread, input: HandoffRequest): Promise<Handoff> {
  if (thread.ticketId !== null) return { ticketId: thread.ticketId, created: false };
  // Anyone holding the thread's token may name any address: the requester is unproven.
  const customer = await unprovenRequester(site, input.email, input.name?.trim() || input.email);
  return writeSupport(site, {}, async (ctx) => {
    // The thread's row is held (MySQL) so that two handoffs at once open one ticket.
    const held = await holdConversation(ctx.trx, site.db, thread.uuid);
    if (!held) throw threadNotFound();
    const { thread: current, messages } = held;
    if (current.ticketId !== null) return { ticketId: current.ticketId, created: false };
    const { ticketId } = await openTicket(site, ctx, {
      subject: subjectOf(messages), body: transcript(current, messages, input.note?.trim() ?? ''), source: 'chat',
      customer: { ...customer, email: input.email }, authorKind: 'customer', requesterUnverified: 'chat_handoff',
    });
    await markHandedOff(ctx, current.postId, ticketId);
    return { ticketId, created: true };
  });
}

/** The visitor's first question, shortened. */
function subjectOf(messages: readonly ChatMessage[]): string {
  const first = messages.find((m) => m.role === 'visitor')?.content.replace(/\s+/g, ' ').trim() ?? '';
  const chars = [...first];
  return `Chat: ${chars.length > 80 ? `${chars.slice(0, 79).join('')}…` : first || 'conversation'}`;
}

/** The first message of the ticket: plain text, as an agent reads it. */
export function transcript(thread: ChatThread, messages: readonly ChatMessage[], note: string): string {
  const lines: string[] = [];
  if (note) lines.push(note, '');
  lines.push('--- Chat transcript ---');
  if (thread.pageUrl) lines.push(`Page: ${thread.pageTitle ? `${thread.pageTitle} ` : ''}${thread.pageUrl}`);
  for (const m of messages) {
    const who = m.role === 'visitor' ? 'Visitor' : 'Assistant';
    const state = m.state === 'interrupted' ? ' (interrupted)' : m.state === 'failed' ? ' (no answer: the assistant failed)' : '';
    lines.push('', `${who}${state}: ${m.content}`);
  }
  const cited = [...new Map(messages.flatMap((m) => m.sources).map((s) => [s.url, s])).values()];
  if (cited.length) lines.push('', '--- Sources cited ---', ...cited.map((s) => `- ${s.title}: ${s.url}`));
  return lines.join('\n');
}
