/**
 * What the mail webhooks answer with 202 (POST /webhooks/relay/<route-key>, POST /webhooks/inbound/<route-key>;
 * docs/mail-intake.md, "Responses"): the receipt of the stored message (`{p}svc_mail_receipts`). A
 * repeat answers the first receipt. GET on the inbound route is a connection test, no receipt.
 */
export const inboundReceiptSchema = {
  $id: 'inbound_receipt',
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'svc_mail_receipt',
  type: 'object',
  properties: {
    receipt_id: { description: 'The receipt ID: 32 hex digits.', type: 'string', context: ['view'], readonly: true },
    outcome: { description: 'What became of the message.', type: 'string', enum: ['ticket_created', 'reply_added', 'note_added', 'ignored'], context: ['view'], readonly: true },
    ticket_id: { description: 'The ticket the message opened or joined, or null.', type: ['integer', 'null'], context: ['view'], readonly: true },
    reason: { description: 'Only when ignored: why intake stored no conversation for it.', $ref: 'mail_receipt#/properties/reason', context: ['view'], readonly: true },
  },
} as const;
