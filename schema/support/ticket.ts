/**
 * The item schema of the support/v1 ticket routes (post type svc_ticket), as OPTIONS shows it once
 * its `$ref`s are resolved and its `arg_options` left out (routes/support/common.ts). Its enums are
 * the only place the ticket statuses and priorities are written (lib/support/tickets/types.ts types
 * them from here); the routes' args `$ref` its properties (./ticket-args.ts).
 */
export const ticketSchema = {
  $id: 'ticket',
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'svc_ticket',
  type: 'object',
  properties: {
    id: { description: 'Unique identifier for the ticket.', $ref: 'common#/$defs/id', readonly: true },
    subject: { description: 'What the ticket is about.', type: 'string', arg_options: { minLength: 1, maxLength: 200, pattern: '\\S' } },
    status: { description: 'open, waiting (for the customer) or resolved.', type: 'string', enum: ['open', 'waiting', 'resolved'] },
    priority: { type: 'string', enum: ['normal', 'high', 'urgent'] },
    source: { description: 'Where the ticket came from.', type: 'string', enum: ['web', 'api', 'email', 'portal', 'site', 'chat'], readonly: true },
    customer_name: { type: 'string', readonly: true },
    customer_email: { $ref: 'common#/$defs/email', readonly: true },
    created_at: { description: 'Site time, YYYY-MM-DD HH:MM:SS.', type: 'string', readonly: true },
    updated_at: { description: 'Last activity, site time, YYYY-MM-DD HH:MM:SS.', type: 'string', readonly: true },
    version: { description: 'Concurrency check: send it back with every change.', $ref: 'common#/$defs/version', readonly: true },
    assignee: { description: "Agents only: the assigned agent's user ID, or null.", type: ['integer', 'null'], arg_options: { minimum: 0 } },
    requester_unverified: {
      description: 'Agents only, present only when nothing proved the requester owns the address: how they were given (chat_handoff, site_form, inbound_webhook).',
      type: 'string', readonly: true,
    },
    site_id: { description: 'Agents only, single ticket: the connected site the ticket was opened on, or null.', type: ['string', 'null'], readonly: true },
    page_url: { description: 'Agents only, single ticket: the page a connected site opened the ticket from, or null.', type: ['string', 'null'], readonly: true },
    metadata: { description: "Agents only, single ticket: what a connected site's server sent with the ticket, or null.", type: ['object', 'array', 'null'], readonly: true },
    raw_from: { description: 'Agents only, single ticket: the From header of an email that named no usable sender (the ticket then has no customer), or null.', type: ['string', 'null'], readonly: true },
    messages: { description: 'The conversation, oldest first (single ticket only).', type: 'array', readonly: true, items: { $ref: 'message' } },
  },
} as const;
