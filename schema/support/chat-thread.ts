/**
 * The item schema of a chat conversation (post type svc_chat; docs/chat.md), as
 * GET /chat/threads/<uuid> shows it to the holder of its token.
 */
export const chatThreadSchema = {
  $id: 'chat_thread',
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'svc_chat',
  type: 'object',
  properties: {
    thread: { description: 'The conversation (a uuid, its post_name).', type: 'string', format: 'uuid', context: ['view'], readonly: true },
    created_at: { description: 'When it began, ISO 8601 UTC.', type: 'string', format: 'date-time', context: ['view'], readonly: true },
    handed_off: { description: 'It was handed to a person: it takes no more messages.', type: 'boolean', context: ['view'], readonly: true },
    ticket_id: { description: 'The ticket it was handed off to, or null.', type: ['integer', 'null'], context: ['view'], readonly: true },
    messages: { description: 'The conversation, oldest first.', type: 'array', context: ['view'], readonly: true, items: { $ref: 'chat_message' } },
  },
} as const;
