/**
 * The item schema of a changelog product (post type svc_changelog; docs/changelogs.md), as
 * GET /support/v1/changelogs lists it. Every field is derived from the stored product and its releases.
 */
export const changelogSchema = {
  $id: 'changelog',
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'svc_changelog',
  type: 'object',
  properties: {
    slug: { description: 'The product in URLs (the post_name).', type: 'string', readonly: true },
    name: { description: "The product's name.", type: 'string', readonly: true },
    type: { description: 'What the product is (plugin, theme, app …), as the site admin set it.', type: 'string', readonly: true },
    url: { description: "The product's page, or ''.", type: 'string', readonly: true },
    latest: { description: "The newest stable release's version, else the newest release's, else null.", type: ['string', 'null'], readonly: true },
    releases: { description: 'How many releases are published.', type: 'integer', readonly: true },
    feed: { description: "The changelog's RSS 2.0 feed (Atom at feed/atom/, JSON Feed at feed/json/).", type: 'string', format: 'uri', readonly: true },
  },
} as const;
