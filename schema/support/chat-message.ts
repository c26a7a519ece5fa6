/**
 * The item schema of a chat message (post type svc_chat_msg, post_parent = its conversation;
 * docs/chat.md), as `message` and `reply` of POST /chat/messages and `messages` of
 * GET /chat/threads/<uuid> show it. Its enums are the only place a role and a state are written
 * (lib/support/chat/threads.ts types them from here). Every text is plain.
 */
export const chatMessageSchema = {
  $id: 'chat_message',
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'svc_chat_msg',
  type: 'object',
  properties: {
    id: { description: 'The message (a uuid, its post_name).', type: 'string', format: 'uuid', context: ['view'], readonly: true },
    role: { description: "Who wrote it: the visitor, or the assistant's answer.", type: 'string', enum: ['visitor', 'assistant'], context: ['view'], readonly: true },
    content: { description: 'The text, plain.', type: 'string', context: ['view'], readonly: true },
    state: {
      description: 'complete; interrupted (the visitor left or the provider stopped mid-answer: what came is kept); failed (the provider gave nothing); no_answer (nothing relevant in the docs, no model asked).',
      type: 'string', enum: ['complete', 'interrupted', 'failed', 'no_answer'], context: ['view'], readonly: true,
    },
    sources: {
      description: 'The docs an answer actually cites, in the order first cited (none for a visitor message).',
      type: 'array',
      context: ['view'],
      readonly: true,
      items: {
        type: 'object',
        properties: {
          title: { description: "The doc's title, plain text.", type: 'string' },
          url: { description: "The doc's permalink.", type: 'string', format: 'uri' },
        },
      },
    },
    created_at: { description: 'When it was stored, ISO 8601 UTC.', type: 'string', format: 'date-time', context: ['view'], readonly: true },
  },
} as const;
