/**
 * The item schema of a connected site (post type svc_site; docs/sites.md), as the CLI prints it and
 * as the portal's config and any admin route will show it. The site key is no property: it is shown
 * once, beside the site, when it is issued (`site_key` in the CLI's answer), and never again.
 */
export const siteSchema = {
  $id: 'site',
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'svc_site',
  type: 'object',
  properties: {
    site_id: { description: 'The public identifier of the site, in every URL of its routes.', $ref: 'common#/$defs/site_id', readonly: true },
    name: { description: "The site's name, shown to its customers.", type: 'string', arg_options: { minLength: 1, maxLength: 200, pattern: '\\S' } },
    origins: {
      description: 'Listed addresses: the browser origins (scheme://host[:port]) whose pages may call the public routes.',
      type: 'array', items: { type: 'string', format: 'uri' }, arg_options: { maxItems: 50 },
    },
    portal: { description: 'The customer portal is on.', type: 'boolean' },
    new_tickets: { description: "New tickets may be opened from the site's pages.", type: 'boolean' },
    message_limit: { description: "The longest message a customer may send from the site's pages, in characters.", type: 'integer', arg_options: { minimum: 1, maximum: 65535 } },
    message_hint: { description: 'Plain text shown beside the message field.', type: 'string', arg_options: { maxLength: 500 } },
    customer_can_resolve: { description: 'Customers may resolve their tickets in the portal.', type: 'boolean' },
    customer_can_reopen: { description: 'Customers may reopen resolved tickets in the portal.', type: 'boolean' },
    doc_collections: { description: 'Slugs of the doc collections the site may show.', type: 'array', items: { type: 'string' }, arg_options: { maxItems: 100 } },
    created_at: { description: 'Site time, YYYY-MM-DD HH:MM:SS.', type: 'string', readonly: true },
    updated_at: { description: 'Last change, site time, YYYY-MM-DD HH:MM:SS.', type: 'string', readonly: true },
  },
} as const;
