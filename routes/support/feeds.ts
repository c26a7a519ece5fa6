/**
 * Changelog feeds, at the paths WordPress gives a post's feeds (docs/changelogs.md):
 * - `GET /changelog/<product>/feed/` RSS 2.0 (also `…/feed/rss2/`);
 * - `GET /changelog/<product>/feed/atom/` Atom 1.0;
 * - `GET /changelog/<product>/feed/json/` JSON Feed 1.1.
 * Each answer carries a strong ETag of its bytes and Last-Modified (the latest change of the product
 * or a release in it); If-None-Match, else If-Modified-Since, gets a 304 when nothing changed.
 */
import { createHash } from 'node:crypto';
import { buildFeed } from '../../lib/support/changelogs/feed';
import { FEED_FORMATS, FeedFormat } from '../../lib/support/changelogs/feed-urls';
import { findProductBySlug } from '../../lib/support/changelogs/store';
import { PageAnswer, PageDeclaration, PageRequest } from '../../lib/wp/pages';

const COMMON_HEADERS = { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'public, no-cache' };

export const changelogFeedPage: PageDeclaration = { path: '/changelog/:product/feed', handler: (req) => feedAnswer(req, 'rss2') };

export const changelogFeedFormatPage: PageDeclaration = {
  path: '/changelog/:product/feed/:format',
  handler: async (req) => {
    const format = String(req.params.format);
    return (FEED_FORMATS as readonly string[]).includes(format) ? feedAnswer(req, format as FeedFormat) : null;
  },
};

async function feedAnswer(req: PageRequest, format: FeedFormat): Promise<PageAnswer> {
  const product = await findProductBySlug(req.site.db, String(req.params.product));
  if (!product) return { status: 404, headers: { ...COMMON_HEADERS, 'Content-Type': 'text/plain; charset=UTF-8' }, body: 'No changelog has this name.\n' };
  const built = await buildFeed(req.site, product, format);
  const headers = {
    ...COMMON_HEADERS,
    'Content-Type': built.contentType,
    ETag: `"${createHash('sha256').update(built.body).digest('base64url').slice(0, 27)}"`,
    'Last-Modified': built.lastModified.toUTCString(),
  };
  if (notModified(req, headers.ETag, built.lastModified)) return { status: 304, headers, body: '' };
  return { status: 200, headers, body: built.body };
}

/** RFC 9110 §13.2.2: If-None-Match decides when sent (weak comparison); else If-Modified-Since, to the second. */
function notModified(req: PageRequest, etag: string, lastModified: Date): boolean {
  const tags = req.header('if-none-match');
  if (tags !== undefined) return tags.trim() === '*' || tags.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
  const since = Date.parse(req.header('if-modified-since') ?? '');
  return Number.isFinite(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}
