/**
 * What POST /chat/handoff answers (docs/chat.md, "Handoff"): the conversation, now a ticket. The
 * route's arguments are in ./chat-args.ts.
 */
export const chatHandoffSchema = {
  $id: 'chat_handoff',
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'svc_chat_handoff',
  type: 'object',
  properties: {
    thread: { $ref: 'chat_thread#/properties/thread' },
    handed_off: { $ref: 'chat_thread#/properties/handed_off' },
    ticket_id: { description: 'The ticket the conversation became.', type: 'integer', context: ['view'], readonly: true },
    created: { description: 'This request opened the ticket (false: an earlier handoff did, and this one changed nothing).', type: 'boolean', context: ['view'], readonly: true },
  },
} as const;
