/**
 * What the support/v1 portal routes take (docs/portal.md), built into args by routes/support/portal.ts
 * and routes/support/portal-tickets.ts with argsForOperation(). The ticket operations `$ref` the ticket
 * and message item schemas: the portal calls a message's body `message`, as the contract names it.
 */
const siteId = { description: 'The connected site (its 12-character site-id).', $ref: 'common#/$defs/site_id' } as const;
const email = { description: "The customer's email address.", $ref: 'common#/$defs/email', maxLength: 254, required: true } as const;

export const portalOperations = {
  /** GET /sites/<site-id>/portal/config, DELETE /sites/<site-id>/portal/session */
  site: { site_id: siteId },
  /** POST /sites/<site-id>/portal/code */
  code: { site_id: siteId, email },
  /** POST /sites/<site-id>/portal/session */
  session: {
    site_id: siteId,
    email,
    code: { description: 'The 6-digit code emailed to the address.', type: 'string', minLength: 1, maxLength: 32, required: true },
  },
  /** GET /sites/<site-id>/portal/tickets */
  tickets: {
    site_id: siteId,
    page: { $ref: 'common#/$defs/page' },
    per_page: { description: 'Maximum number of tickets to return in the result set.', $ref: 'common#/$defs/per_page', default: 20, maximum: 50 },
  },
  /** POST /sites/<site-id>/portal/tickets */
  open: {
    site_id: siteId,
    subject: { $ref: 'ticket#/properties/subject', required: true },
    message: { description: 'The first message.', $ref: 'message#/properties/body', required: true },
  },
  /** GET /sites/<site-id>/portal/tickets/<id> */
  ticket: { site_id: siteId, id: { $ref: 'common#/$defs/ticket_id' } },
  /** PATCH /sites/<site-id>/portal/tickets/<id> */
  status: {
    site_id: siteId,
    id: { $ref: 'common#/$defs/ticket_id' },
    version: { $ref: 'common#/$defs/ticket_version', required: true },
    status: { description: 'resolved to resolve the ticket, open to reopen it (as the site allows).', type: 'string', enum: ['open', 'resolved'], required: true },
  },
  /** POST /sites/<site-id>/portal/tickets/<id>/messages */
  reply: {
    site_id: siteId,
    id: { $ref: 'common#/$defs/ticket_id' },
    message: { description: 'Text of the reply.', $ref: 'message#/properties/body', required: true },
    version: { $ref: 'common#/$defs/ticket_version', required: true },
  },
  /** GET /sites/<site-id>/portal/tickets/<id>/attachments/<file-id> */
  attachment: {
    site_id: siteId,
    id: { $ref: 'common#/$defs/ticket_id' },
    file_id: { description: 'Unique identifier for the attachment.', $ref: 'common#/$defs/id' },
    inline: { description: 'Show an image in the browser instead of downloading it (PNG, JPEG, GIF, WebP and AVIF only).', type: 'boolean', default: false },
  },
} as const;
