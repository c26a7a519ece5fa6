/** An outgoing email of a reply (agents only), retried or cancelled through its route. */
export const deliverySchema = {
  $id: 'delivery',
  type: 'object',
  properties: {
    id: { $ref: 'common#/$defs/id' },
    status: { type: 'string', enum: ['queued', 'sending', 'sent', 'failed', 'cancelled'] },
    attempts: { type: 'integer', arg_options: { minimum: 0 } },
    recipient: { type: 'string' },
    last_error: { type: 'string' },
    updated_at: { type: 'string' },
  },
} as const;
