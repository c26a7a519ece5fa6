/** Chat's resources: a handed-off thread whose answer cites a doc, with a minted token. */
import { DEFAULT_CHAT_LIMITS, ChatSettings } from '../../../lib/support/chat/settings';
import { presentChatAnswer, presentChatConfig, presentHandoff, presentMessage, presentThread } from '../../../lib/support/chat/present';
import { ChatMessage, ChatThread } from '../../../lib/support/chat/store';
import { chatAnswerSchema } from '../../../schema/support/chat-answer';
import { chatConfigSchema } from '../../../schema/support/chat-config';
import { chatHandoffSchema } from '../../../schema/support/chat-handoff';
import { chatMessageSchema } from '../../../schema/support/chat-message';
import { chatThreadSchema } from '../../../schema/support/chat-thread';
import { Presented } from './presented';

const thread: ChatThread = {
  postId: 10, uuid: '3f1c2b9e-6d4a-4f7e-9a51-0c2d8e7b6a14', tokenHash: 'x'.repeat(64), createdAt: '2026-11-22 12:00:00', ticketId: 5, pageUrl: '', pageTitle: '',
};
const answer: ChatMessage = {
  postId: 12, uuid: '9b2e4c1a-7f3d-4e8b-a6c5-1d0f2e3a4b5c', role: 'assistant', content: 'Unplug it [1].', state: 'complete',
  sources: [{ title: 'Safety', url: 'http://example.org/docs/safety/' }], createdAt: '2026-11-22 12:00:03',
};
const settings: ChatSettings = {
  enabled: true, handoff: true,
  provider: { baseUrl: 'http://127.0.0.1:9/v1', model: 'm', apiKey: 'k', firstByteMs: 1000, totalMs: 2000 },
  wording: { greeting: 'Hi', placeholder: 'Ask', handoffOffer: 'A person', noAnswer: 'None' },
  branding: { name: 'Help', color: '#2271b1', avatarUrl: 'https://example.org/a.png' },
  limits: DEFAULT_CHAT_LIMITS, heartbeatSeconds: 15,
};

export function presentChatSchemas(): Presented[] {
  const reply = presentMessage(answer);
  return [
    { schema: chatMessageSchema, value: reply },
    { schema: chatThreadSchema, value: presentThread(thread, [answer]) },
    { schema: chatAnswerSchema, value: presentChatAnswer({ thread: thread.uuid, token: 't'.repeat(43), message: reply }, { reply, handoff_offered: true }) },
    { schema: chatHandoffSchema, value: presentHandoff(thread, { ticketId: 5, created: true }) },
    { schema: chatConfigSchema, value: presentChatConfig(settings) },
  ];
}
