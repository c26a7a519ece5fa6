/**
 * What GET /sites/<site-id>/portal/config shows before sign-in (docs/portal.md): the connected site's
 * portal settings a customer may see, each the site's own property (./site.ts). The route's
 * arguments are in ./portal-args.ts.
 */
export const portalConfigSchema = {
  $id: 'portal_config',
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'svc_portal_config',
  type: 'object',
  properties: {
    site_name: { $ref: 'site#/properties/name', context: ['view'], readonly: true },
    new_tickets: { $ref: 'site#/properties/new_tickets', context: ['view'], readonly: true },
    message_limit: { $ref: 'site#/properties/message_limit', context: ['view'], readonly: true },
    message_hint: { $ref: 'site#/properties/message_hint', context: ['view'], readonly: true },
    customer_can_resolve: { $ref: 'site#/properties/customer_can_resolve', context: ['view'], readonly: true },
    customer_can_reopen: { $ref: 'site#/properties/customer_can_reopen', context: ['view'], readonly: true },
    time_zone: {
      description: "The WordPress site's time zone, in which ticket dates are given: a zone name, or an offset such as +05:30 (wp_timezone_string()).",
      type: 'string', context: ['view'], readonly: true,
    },
  },
} as const;
