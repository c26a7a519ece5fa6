/** A message of a ticket's conversation, with its attachments and (agents only) its deliveries. */
export const messageSchema = {
  $id: 'message',
  type: 'object',
  properties: {
    id: { $ref: 'common#/$defs/id' },
    body: { $ref: 'common#/$defs/body' },
    visibility: { type: 'string', enum: ['public', 'internal'] },
    author: {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        name: { type: 'string' },
        email: { type: 'string' },
        kind: { type: 'string', enum: ['customer', 'agent', 'system'] },
      },
    },
    created_at: { type: 'string' },
    attachments: {
      type: 'array',
      items: {
        type: 'object',
        properties: { id: { $ref: 'common#/$defs/id' }, filename: { type: 'string' }, mime_type: { type: 'string' }, url: { type: 'string', format: 'uri' } },
      },
    },
    deliveries: { description: 'Agents only: the emails of this reply.', type: 'array', items: { $ref: 'delivery' } },
  },
} as const;
