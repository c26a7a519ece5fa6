/**
 * What the support/v1 changelog routes take (docs/changelogs.md), built into args by
 * routes/support/changelogs.ts and changelogs-admin.ts with argsForOperation().
 */
export const changelogOperations = {
  /** GET /changelogs/<product> */
  releases: {
    product: { description: 'The product (its slug).', type: 'string', minLength: 1, maxLength: 200 },
    page: { $ref: 'common#/$defs/page' },
    per_page: { $ref: 'common#/$defs/per_page', maximum: 50 },
    stable: { description: 'Leave pre-releases out (true or 1).', type: 'boolean', default: false },
    since: { description: 'Only releases newer than this version.', type: 'string', minLength: 1, maxLength: 100 },
  },
  /** POST /changelogs/admin/parse */
  parse: {
    text: { description: 'Changelog text: a readme.txt, a Keep a Changelog file or markdown with version headings.', type: 'string', maxLength: 2097152, required: true },
  },
  /** POST /changelogs/admin/probe */
  probe: {
    url: { description: 'The source: a readme.txt, a CHANGELOG.md, or GitHub-releases-style JSON (http or https).', type: 'string', minLength: 1, maxLength: 2048, required: true },
    kind: { description: 'How to read it (auto: JSON as GitHub releases, other text as a changelog).', type: 'string', enum: ['auto', 'readme', 'changelog', 'github'], default: 'auto' },
  },
  /** POST /changelogs/admin/<id>/sync */
  sync: {
    id: { description: 'The product (its post ID).', $ref: 'common#/$defs/id' },
  },
} as const;
