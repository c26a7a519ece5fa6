/**
 * What the support/v1 ticket routes take that their item schemas (./ticket.ts, ./message.ts,
 * ./delivery.ts) cannot say by themselves: which properties each operation takes and in its own
 * words, the list's collection params, and the args that are no item property (the ids in the URL,
 * the version sent back, request_key, a delivery's action). routes/support/common.ts builds each
 * operation's args from these with argsForOperation() (lib/wp/rest/item-schema.ts): a `$ref` to an
 * item property is that property's argument as argsForItemSchema() derives it (create for the
 * POSTs, edit otherwise), a `$ref` to ./common.ts is the shared definition, and keywords written
 * beside a `$ref` replace the target's.
 */

export const ticketOperations = {
  list: {
    status: { description: 'Limit to tickets with this status.', $ref: 'ticket#/properties/status' },
    search: { description: 'Find tickets by subject, customer name or email, or message text.', $ref: 'common#/$defs/search', maxLength: 200 },
    page: { $ref: 'common#/$defs/page' },
    per_page: { description: 'Maximum number of tickets to return in the result set.', $ref: 'common#/$defs/per_page', default: 20 },
    assignment: { description: 'Agents only: tickets assigned to you (mine) or to nobody (unassigned).', type: 'string', enum: ['mine', 'unassigned'] },
    priority: { description: 'Agents only: limit to tickets with this priority.', $ref: 'ticket#/properties/priority' },
  },
  create: {
    subject: { $ref: 'ticket#/properties/subject', required: true },
    body: { description: 'The first message.', $ref: 'message#/properties/body', required: true },
    request_key: { description: "A key of the client's choosing: repeating the request with it returns the ticket stored the first time.", $ref: 'common#/$defs/request_key' },
  },
  item: {
    id: { $ref: 'common#/$defs/ticket_id' },
  },
  update: {
    id: { $ref: 'common#/$defs/ticket_id' },
    version: { $ref: 'common#/$defs/ticket_version', required: true },
    status: { description: 'New status.', $ref: 'ticket#/properties/status' },
    priority: { description: 'Agents only: new priority.', $ref: 'ticket#/properties/priority' },
    assignee: { description: "Agents only: the agent's user ID, or 0 or null to unassign.", $ref: 'ticket#/properties/assignee' },
  },
  reply: {
    id: { $ref: 'common#/$defs/ticket_id' },
    body: { description: 'Text of the reply.', $ref: 'message#/properties/body', required: true },
    version: { $ref: 'common#/$defs/ticket_version', required: true },
    request_key: { description: "A key of the client's choosing: repeating the request with it returns the reply stored the first time.", $ref: 'common#/$defs/request_key' },
    visibility: { description: 'public, or internal for an agent-only note.', $ref: 'message#/properties/visibility', default: 'public' },
  },
  delivery: {
    id: { $ref: 'common#/$defs/ticket_id' },
    delivery_id: { description: 'Unique identifier for the delivery.', $ref: 'common#/$defs/id' },
    action: { description: 'retry a failed delivery, or cancel one not yet sent.', type: 'string', enum: ['retry', 'cancel'], required: true },
    attempts: { description: "The delivery's attempt count as last read; a different count is refused.", $ref: 'delivery#/properties/attempts', required: true },
  },
  attachment: {
    id: { $ref: 'common#/$defs/ticket_id' },
    file_id: { description: 'Unique identifier for the attachment.', $ref: 'common#/$defs/id' },
    inline: { description: 'Show an image in the browser instead of downloading it (PNG, JPEG, GIF, WebP and AVIF only).', type: 'boolean', default: false },
  },
} as const;
