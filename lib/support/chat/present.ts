/**
 * Chat resources as the routes show them (docs/chat.md): allowlists of plain-text fields, each the
 * properties of its item schema (schema/support/chat-*.ts), in its order.
 */
import { Handoff } from './handoff';
import { ChatSettings } from './settings';
import { ChatMessage, ChatSource, ChatThread } from './store';

export interface PresentedMessage {
  id: string;
  role: ChatMessage['role'];
  content: string;
  state: ChatMessage['state'];
  sources: ChatSource[];
  /** ISO 8601, UTC. */
  created_at: string;
}

/** schema/support/chat-message.ts */
export function presentMessage(m: ChatMessage): PresentedMessage {
  return {
    id: m.uuid, role: m.role, content: m.content, state: m.state,
    sources: m.sources.map((s) => ({ title: s.title, url: s.url })), created_at: isoDate(m.createdAt),
  };
}

/** GET /chat/threads/<uuid>: the conversation for whoever holds its token (schema/support/chat-thread.ts). */
export function presentThread(thread: ChatThread, messages: readonly ChatMessage[]) {
  return {
    thread: thread.uuid,
    created_at: isoDate(thread.createdAt),
    handed_off: thread.ticketId !== null,
    ticket_id: thread.ticketId,
    messages: messages.map(presentMessage),
  };
}

/** What a stream's `start` event carries: the stored question, and a token minted for it. */
export interface AnswerStart {
  thread: string;
  token?: string;
  message: PresentedMessage;
}

/** What a stream's `done` event carries: the stored answer. */
export interface AnswerDone {
  reply: PresentedMessage;
  handoff_offered: boolean;
}

/** POST /chat/messages as one JSON object: the stream's `start` and `done` together (schema/support/chat-answer.ts). */
export function presentChatAnswer(start: AnswerStart, done: AnswerDone): Record<string, unknown> {
  return { thread: start.thread, ...(start.token ? { token: start.token } : {}), message: start.message, reply: done.reply, handoff_offered: done.handoff_offered };
}

/** POST /chat/handoff (schema/support/chat-handoff.ts). */
export function presentHandoff(thread: ChatThread, handoff: Handoff) {
  return { thread: thread.uuid, handed_off: true, ticket_id: handoff.ticketId, created: handoff.created };
}

/** GET /chat/config: what the widget may know of the settings, never the provider or the limits (schema/support/chat-config.ts). */
export function presentChatConfig(s: ChatSettings) {
  return {
    enabled: s.enabled, handoff: s.handoff,
    name: s.branding.name, color: s.branding.color, avatar_url: s.branding.avatarUrl,
    greeting: s.wording.greeting, placeholder: s.wording.placeholder, handoff_offer: s.wording.handoffOffer,
  };
}

function isoDate(gmt: string): string {
  return `${gmt.replace(' ', 'T')}Z`.replace(/\.\d+Z$/, 'Z');
}
