/** Where a product's feeds are: the formats and their paths under the site's home URL (docs/changelogs.md). */
export const FEED_FORMATS = ['rss2', 'atom', 'json'] as const;
export type FeedFormat = (typeof FEED_FORMATS)[number];

/** WP: feed links live under the post's own URL: `<home>/changelog/<slug>/feed/` (RSS 2.0), `…/feed/atom/`, `…/feed/json/`. */
export function feedPath(slug: string, format: FeedFormat = 'rss2'): string {
  const base = `/changelog/${encodeURIComponent(slug)}/feed/`;
  return format === 'rss2' ? base : `${base}${format}/`;
}
