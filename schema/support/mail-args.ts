/** What the internal support/v1 mail routes take (routes/support/mail-admin.ts), built into args with argsForOperation(). */
export const mailOperations = {
  /** GET /mail/admin/ignored */
  ignored: {
    reason: { description: 'Limit to messages ignored for this reason.', $ref: 'mail_receipt#/properties/reason' },
    mailbox: { description: 'Limit to messages of this mailbox (its key).', $ref: 'mail_receipt#/properties/mailbox' },
    page: { $ref: 'common#/$defs/page' },
    per_page: { description: 'Maximum number of messages to return in the result set.', $ref: 'common#/$defs/per_page', default: 20 },
  },
  /** POST /mail/admin/ignored/<receipt-id>/ticket */
  open: {
    receipt_id: { $ref: 'mail_receipt#/properties/receipt_id' },
  },
} as const;
