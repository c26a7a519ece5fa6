/**
 * What the support/v1 portal sign-in routes take (docs/portal.md), built into args by
 * routes/support/portal.ts with argsForOperation().
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
} as const;
