/**
 * Email threading for a ticket's conversation (RFC 5322 section 3.6.4): each message keeps its
 * Message-ID (`_svc_message_id`), and an emailed reply names the message it answers (`In-Reply-To`)
 * and the thread before it (`References`), so the customer's mail client files it with the rest.
 */
import { Conversation, Message } from '../tickets/types';

/** How many Message-IDs `References` carries at most: the first one and the latest ones (long threads stay readable). */
const MAX_REFERENCES = 20;

export interface ThreadHeaders {
  inReplyTo?: string;
  references?: string[];
}

/**
 * The threading headers of `message`. Only public messages count: the customer never received
 * internal notes, so naming them would point their mail client at messages it cannot have.
 */
export function threadHeadersFor(conversation: Conversation, message: Message): ThreadHeaders {
  const index = conversation.messages.findIndex((m) => m.id === message.id);
  const earlier = conversation.messages.slice(0, index < 0 ? 0 : index)
    .filter((m) => m.visibility === 'public' && m.messageId)
    .map((m) => m.messageId as string);
  const parent = earlier[earlier.length - 1] ?? message.inReplyTo ?? undefined;
  if (!parent) return {};
  const chain = earlier.length ? earlier : [parent];
  const references = chain.length > MAX_REFERENCES ? [chain[0] as string, ...chain.slice(-(MAX_REFERENCES - 1))] : chain;
  return { inReplyTo: parent, references };
}

/** `Re: <subject> [#<id>]`; the tag is what mail intake matches a reply to its ticket by. */
export function replySubject(subject: string, ticketId: number): string {
  const tag = `[#${ticketId}]`;
  const base = subject.replace(/^\s*((re|aw|sv|fw|fwd)\s*:\s*)+/i, '').trim();
  return base.includes(tag) ? `Re: ${base}` : `Re: ${base} ${tag}`.replace(/\s+\[#/, ' [#');
}
