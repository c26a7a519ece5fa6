/**
 * A portal session (table {p}svc_portal_sessions; docs/portal.md, "Signing in"), as
 * POST /sites/<site-id>/portal/session answers it; DELETE on the route answers only `signed_out`.
 * The token is shown once, in the answer that opens the session: only its hash is stored.
 */
export const portalSessionSchema = {
  $id: 'portal_session',
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'svc_portal_session',
  type: 'object',
  properties: {
    token: { description: 'The session token, for Authorization: Bearer or X-Svc-Portal. Shown once.', type: 'string', context: ['view'], readonly: true },
    email: { description: 'The address the code proved, trimmed, its ASCII letters in lowercase.', type: 'string', format: 'email', context: ['view'], readonly: true },
    expires_in: { description: 'Seconds until the session ends.', type: 'integer', context: ['view'], readonly: true },
    expires_at: { description: 'When the session ends, ISO 8601 UTC.', type: 'string', format: 'date-time', context: ['view'], readonly: true },
    signed_out: { description: "DELETE's answer only: the session is ended.", type: 'boolean', context: ['view'], readonly: true },
  },
} as const;
