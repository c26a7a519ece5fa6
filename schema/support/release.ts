/**
 * The item schema of a release (post type svc_release, post_parent = its product; docs/changelogs.md),
 * as GET /support/v1/changelogs/<product> and POST …/admin/parse show it.
 */
export const releaseSchema = {
  $id: 'release',
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'svc_release',
  type: 'object',
  properties: {
    version: { description: 'The version, without a v prefix.', type: 'string', readonly: true },
    date: { description: 'Release day, YYYY-MM-DD (UTC), or null when the changelog gives none.', type: ['string', 'null'], readonly: true },
    stability: { description: 'A stable release or a pre-release.', type: 'string', enum: ['stable', 'pre-release'], readonly: true },
    url: { description: "The release's page, or ''.", type: 'string', readonly: true },
    summary: { description: 'Plain text: the first paragraph of the notes, else the first change.', type: 'string', readonly: true },
    changes: {
      description: 'The list items of the notes, as written (markdown, without HTML tags).',
      type: 'array',
      readonly: true,
      items: {
        type: 'object',
        properties: {
          type: { description: 'The Keep a Changelog section, or null.', type: ['string', 'null'], enum: ['added', 'changed', 'deprecated', 'removed', 'fixed', 'security', null] },
          text: { type: 'string' },
        },
      },
    },
    html: { description: 'The notes as HTML, sanitized (wp_kses with the post allowlist).', type: 'string', readonly: true },
  },
} as const;
