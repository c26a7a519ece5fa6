/**
 * What the support/v1 chat routes take (docs/chat.md), built into args by routes/support/chat.ts and
 * chat-admin.ts with argsForOperation(). Every text is plain: it is stored and shown as text, never as HTML.
 */
const thread = { description: 'The conversation: a uuid the widget makes for a new one.', $ref: 'common#/$defs/uuid', required: true } as const;
const token = {
  description: "The conversation's token (16 to 128 printable ASCII characters); the first message may leave it out and is answered a new one.",
  type: 'string', pattern: '^[\\x21-\\x7e]{16,128}$',
} as const;

export const chatOperations = {
  /** GET /chat/config, POST /chat/admin/test|learn, GET /chat/admin/learning */
  none: {},
  /** POST /chat/messages */
  message: {
    message: { description: "The visitor's question, plain text.", type: 'string', minLength: 1, maxLength: 4000, pattern: '\\S', required: true },
    thread,
    token,
    page_url: { description: 'The page the visitor asks from.', type: 'string', format: 'uri', maxLength: 2048 },
    page_title: { description: "That page's title.", type: 'string', maxLength: 300 },
    stream: { description: 'Answer as server-sent events (true) or as one JSON object.', type: 'boolean', default: false },
  },
  /** GET /chat/threads/<uuid> (the token in X-Chat-Token) */
  thread: {
    uuid: { description: 'The conversation.', $ref: 'common#/$defs/uuid' },
  },
  /** POST /chat/handoff */
  handoff: {
    thread,
    token: { ...token, required: true },
    email: { description: 'Where the person answers.', $ref: 'common#/$defs/email', maxLength: 254, required: true },
    name: { description: "The visitor's name.", type: 'string', maxLength: 200 },
    note: { description: 'Anything the visitor adds for the person, plain text.', type: 'string', maxLength: 4000 },
  },
} as const;
