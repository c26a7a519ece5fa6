/**
 * A doc as GET /docs/search lists it (post type svc_doc; docs/docs.md), and what the docs routes take,
 * built into args by routes/support/docs.ts with argsForOperation(). Every text is plain: titles and
 * excerpts come without tags or entities, to be escaped by whoever shows them.
 */
export const docSchema = {
  $id: 'doc',
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'svc_doc',
  type: 'object',
  properties: {
    id: { description: 'The doc (its post ID).', type: 'integer', readonly: true },
    title: { description: 'The title, plain text.', type: 'string', readonly: true },
    excerpt: { description: "Plain text: the doc's own excerpt, else the first 55 words of its body.", type: 'string', readonly: true },
    url: { description: "The doc's permalink on the site.", type: 'string', format: 'uri', readonly: true },
    collection: { description: 'The slug of the collection the doc is shown in, or null when it is in none.', type: ['string', 'null'], readonly: true },
  },
} as const;

export const docOperations = {
  /** GET /docs/search */
  search: {
    q: { description: 'What to look for: words, the start of a word, a phrase; typos in longer words are forgiven.', type: 'string', minLength: 1, maxLength: 200, pattern: '\\S', required: true },
    collection: { description: "Only docs in this collection (its term slug).", type: 'string', minLength: 1, maxLength: 200 },
    site: { description: "Only docs of the collections this connected site may show (its site-id); an unknown site finds nothing.", type: 'string', minLength: 1, maxLength: 64 },
  },
  /** POST /docs/<id>/feedback */
  feedback: {
    id: { description: 'The doc.', $ref: 'common#/$defs/id' },
    helpful: { description: 'Whether the doc helped.', type: 'boolean', required: true },
    comment: { description: 'What the reader adds, plain text.', type: 'string', maxLength: 1000 },
  },
} as const;
