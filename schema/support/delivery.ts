/**
 * The item schema of an outgoing email of a reply (agents only; docs/outbound.md), as a message's
 * `deliveries` show it and PATCH /tickets/<id>/deliveries/<delivery-id> answers it after a retry or a
 * cancel. Its status enum is the only place the statuses are written (lib/support/tickets/types.ts).
 */
export const deliverySchema = {
  $id: 'delivery',
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'svc_delivery',
  type: 'object',
  properties: {
    id: { description: 'Unique identifier for the delivery.', $ref: 'common#/$defs/id', context: ['view'], readonly: true },
    status: { description: 'Where the email is: queued, sending, sent, failed or cancelled.', type: 'string', enum: ['queued', 'sending', 'sent', 'failed', 'cancelled'], context: ['view'], readonly: true },
    // Not readonly: a retry or a cancel sends back the count it read.
    attempts: { description: 'How many times sending was tried.', type: 'integer', context: ['view'], arg_options: { minimum: 0 } },
    recipient: { description: 'The address the email goes to.', type: 'string', context: ['view'], readonly: true },
    last_error: { description: "The last failure's message, or ''.", type: 'string', context: ['view'], readonly: true },
    updated_at: { description: 'Last change, site time, YYYY-MM-DD HH:MM:SS.', type: 'string', context: ['view'], readonly: true },
  },
} as const;
