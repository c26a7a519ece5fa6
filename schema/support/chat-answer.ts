/**
 * What POST /chat/messages answers as one JSON object (`stream: false`; docs/chat.md): the stored
 * question and the stored answer. A stream sends the same fields in its `start` and `done` events.
 */
export const chatAnswerSchema = {
  $id: 'chat_answer',
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'svc_chat_answer',
  type: 'object',
  properties: {
    thread: { $ref: 'chat_thread#/properties/thread' },
    token: {
      description: "The conversation's token, minted for a first message sent without one: shown once, in this answer only.",
      type: 'string', context: ['view'], readonly: true,
    },
    message: { description: "The visitor's message as stored.", $ref: 'chat_message' },
    reply: { description: "The assistant's answer as stored, with the sources it cites.", $ref: 'chat_message' },
    handoff_offered: { description: 'The widget should offer a person (handoff is on and the docs had no answer).', type: 'boolean', context: ['view'], readonly: true },
  },
} as const;
