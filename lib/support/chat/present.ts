/** Chat resources as the routes show them (docs/chat.md): allowlists of plain-text fields. */
import { ChatMessage, ChatSource, ChatThread } from './store';

export interface PresentedMessage {
  id: string;
  role: 'visitor' | 'assistant';
  content: string;
  state: ChatMessage['state'];
  sources: ChatSource[];
  /** ISO 8601, UTC. */
  created_at: string;
}

export function presentMessage(m: ChatMessage): PresentedMessage {
  return {
    id: m.uuid, role: m.role, content: m.content, state: m.state,
    sources: m.sources.map((s) => ({ title: s.title, url: s.url })), created_at: isoDate(m.createdAt),
  };
}

/** GET /chat/threads/<uuid>: the conversation for whoever holds its token. */
export function presentThread(thread: ChatThread, messages: readonly ChatMessage[]) {
  return {
    thread: thread.uuid,
    created_at: isoDate(thread.createdAt),
    handed_off: thread.ticketId !== null,
    ticket_id: thread.ticketId,
    messages: messages.map(presentMessage),
  };
}

function isoDate(gmt: string): string {
  return `${gmt.replace(' ', 'T')}Z`.replace(/\.\d+Z$/, 'Z');
}
