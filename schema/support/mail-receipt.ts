/**
 * An ignored message as the internal mail routes show it to agents (routes/support/mail-admin.ts;
 * docs/mail-intake.md, "Ignored mail stays findable"): a receipt of `{p}svc_mail_receipts` whose
 * outcome is `ignored`.
 */
export const mailReceiptSchema = {
  $id: 'mail_receipt',
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'svc_mail_receipt',
  type: 'object',
  properties: {
    // Not readonly: the routes' args take these (a receipt in the URL, the list's filters).
    receipt_id: { description: 'The receipt ID the mail webhook answered with.', type: 'string', pattern: '^[0-9a-f]{32}$' },
    mailbox: { description: 'Key of the mailbox the message arrived in.', type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,62}$' },
    reason: {
      description: 'Why intake stored no conversation for it.',
      type: 'string',
      enum: ['delivery_report', 'mailer_daemon', 'null_sender', 'auto_submitted', 'autoreply_header', 'precedence', 'own_address', 'loop', 'duplicate', 'unreadable', 'no_sender'],
    },
    raw_from: { description: 'The From header as written, or null when the message could not be read.', type: ['string', 'null'], readonly: true },
    subject: { description: 'The subject, or null when the message could not be read.', type: ['string', 'null'], readonly: true },
    received_at: { description: 'When it arrived, ISO 8601 UTC.', type: 'string', readonly: true },
    ticket_id: { description: 'The ticket an agent opened from it, or null.', type: ['integer', 'null'], readonly: true },
    message_kept: { description: 'Whether the message as received is still stored (a ticket can be opened from it).', type: 'boolean', readonly: true },
  },
} as const;
