/**
 * What the support/v1 connected-site routes take (docs/sites.md), built into args by
 * routes/support/sites.ts with argsForOperation(): `$ref`s to the ticket and message item schemas
 * and to ./common.ts, and what no item property says (the site's page, a server's metadata and files).
 */
const siteId = { description: 'The connected site (its 12-character site-id).', $ref: 'common#/$defs/site_id' } as const;

export const siteOperations = {
  /** POST /sites/<site-id>/tickets */
  ticket: {
    site_id: siteId,
    email: { description: "The customer's email address.", $ref: 'common#/$defs/email', maxLength: 254, required: true },
    name: { description: "The customer's name.", type: 'string', minLength: 1, maxLength: 200, pattern: '\\S', required: true },
    subject: { $ref: 'ticket#/properties/subject', required: true },
    message: { description: 'The first message.', $ref: 'message#/properties/body', required: true },
    page_url: { description: 'The page the customer wrote from (http or https).', type: 'string', format: 'uri', maxLength: 2048, pattern: '^https?://\\S+$' },
    metadata: { description: "Server requests only: any JSON object, kept with the ticket and shown to agents.", type: 'object' },
    attachments: {
      description: 'Server requests only: files, base64. Their type comes from their bytes, as for every ticket attachment.',
      type: 'array',
      maxItems: 10,
      items: {
        type: 'object',
        properties: {
          filename: { type: 'string', minLength: 1, maxLength: 255 },
          content_type: { type: 'string', maxLength: 255 },
          data: { type: 'string' },
        },
        required: ['filename', 'data'],
        additionalProperties: false,
      },
    },
  },
} as const;
