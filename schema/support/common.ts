/**
 * The definitions the support/v1 schemas share, named by `$ref: 'common#/$defs/<name>'` (resolved by
 * lib/wp/rest/schema-refs.ts). Those that are also item properties (id, version, body, email)
 * keep what only holds for a value a client sends in `arg_options`, as WordPress item schemas do:
 * an argument gets it, OPTIONS does not show it. Those only ever sent (request_key, and
 * WordPress's collection params page, per_page, search) are written as arguments.
 */
export const commonSchema = {
  $id: 'common',
  $defs: {
    /** A post ID: a ticket, a message, a delivery, an attachment. */
    id: { type: 'integer', arg_options: { minimum: 1 } },
    /** A ticket's concurrency version, sent back with every change. */
    version: { type: 'integer', arg_options: { minimum: 0 } },
    /** A ticket in a route's URL (`<id>`), the desk's and the portal's. */
    ticket_id: { description: 'Unique identifier for the ticket.', $ref: 'common#/$defs/id' },
    /** The version a change of a ticket is made from (an operation says whether it requires it). */
    ticket_version: { description: "The ticket's version as last read; a stale version is refused.", $ref: 'common#/$defs/version' },
    /** A client's idempotency key: the same request repeated with it is stored once. */
    request_key: { type: 'string', minLength: 1, maxLength: 191 },
    /** The text of a message (a ticket's first one, a reply). */
    body: { type: 'string', arg_options: { minLength: 1, maxLength: 65535, pattern: '\\S' } },
    email: { type: 'string', format: 'email' },
    /** A connected site's identifier in paths (`<site-id>`, the svc_site's post_name). */
    site_id: { type: 'string', minLength: 12, maxLength: 12 },
    /** A chat thread in paths (`<uuid>`, the svc_chat's post_name). */
    uuid: { type: 'string', format: 'uuid' },
    // WP: WP_REST_Controller::get_collection_params().
    page: { description: 'Current page of the collection.', type: 'integer', default: 1, minimum: 1 },
    per_page: { description: 'Maximum number of items to be returned in result set.', type: 'integer', default: 10, minimum: 1, maximum: 100 },
    search: { description: 'Limit results to those matching a string.', type: 'string' },
  },
} as const;
