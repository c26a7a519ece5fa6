/**
 * What POST /sites/<site-id>/portal/code answers (docs/portal.md, "Signing in"): the same for every
 * address, so whether anyone has it is not told.
 */
export const portalCodeSchema = {
  $id: 'portal_code',
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'svc_portal_code',
  type: 'object',
  properties: {
    sent: { description: 'Always true: a code is on its way if the address may sign in.', type: 'boolean', context: ['view'], readonly: true },
    expires_in: { description: 'Seconds a code stays valid.', type: 'integer', context: ['view'], readonly: true },
    resend_after: { description: 'Seconds before another code may be asked for.', type: 'integer', context: ['view'], readonly: true },
  },
} as const;
