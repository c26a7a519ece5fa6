/**
 * What POST /docs/<id>/feedback answers (docs/docs.md, "Feedback"): the visitor's vote as stored
 * (table {p}svc_doc_votes). Its arguments are in ./doc.ts (`docOperations.feedback`).
 */
export const docFeedbackSchema = {
  $id: 'doc_feedback',
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'svc_doc_feedback',
  type: 'object',
  properties: {
    id: { description: 'The doc voted on (its post ID).', type: 'integer', context: ['view'], readonly: true },
    helpful: { description: 'Whether the doc helped.', type: 'boolean', context: ['view'], readonly: true },
    replaced: { description: "The visitor's earlier vote on this doc today was replaced by this one.", type: 'boolean', context: ['view'], readonly: true },
    day: { description: 'The site-local day the vote counts for, YYYY-MM-DD.', type: 'string', context: ['view'], readonly: true },
  },
} as const;
