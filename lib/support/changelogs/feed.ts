/**
 * A product's changelog as a feed (RSS 2.0, Atom 1.0 or JSON Feed 1.1) built with the `feed` library:
 * the FEED_SIZE newest releases by version, each with its summary and its sanitized HTML notes as
 * stored (./views.ts: a feed never renders markdown), undated releases dated by their order
 * (./feed-dates.ts). The text is a function of the stored rows alone (the feed's `updated` is its
 * newest release date, never the time of the request), so an unchanged changelog gives the same
 * bytes, and the same ETag.
 */
import { feedModule } from './esm';
import { escHtml } from '../../wp/formatting';
import { Site } from '../../wp/site';
import { feedDates, gmtDate } from './feed-dates';
import { FeedFormat, feedPath } from './feed-urls';
import { presentRelease } from './present';
import { productReleases } from './releases';
import { Product } from './store';
import { withViews } from './views';

export const FEED_SIZE = 20;

export const FEED_CONTENT_TYPES: Readonly<Record<FeedFormat, string>> = {
  rss2: 'application/rss+xml; charset=UTF-8',
  atom: 'application/atom+xml; charset=UTF-8',
  json: 'application/feed+json; charset=UTF-8',
};

export interface BuiltFeed {
  body: string;
  contentType: string;
  /** The latest change of the product or of a release in the feed (for Last-Modified). */
  lastModified: Date;
}

export async function buildFeed(site: Site, product: Product, format: FeedFormat): Promise<BuiltFeed> {
  const home = await site.homeUrl();
  const releases = await withViews(site, (await productReleases(site, product, { page: 1, perPage: FEED_SIZE, stable: false })).releases);
  const dates = feedDates(releases);
  const modified = [product.modifiedGmt, ...releases.map((r) => r.modifiedGmt)].map(gmtDate);
  const link = product.url || `${home}${feedPath(product.slug)}`;
  const { Feed } = feedModule();
  const feed = new Feed({
    id: `${home}${feedPath(product.slug)}`,
    title: `${product.name} changelog`,
    description: `Releases of ${product.name}`,
    link,
    updated: latest(dates.length ? dates : [gmtDate(product.modifiedGmt)]),
    generator: 'Understudy',
    feedLinks: { rss: `${home}${feedPath(product.slug)}`, atom: `${home}${feedPath(product.slug, 'atom')}`, json: `${home}${feedPath(product.slug, 'json')}` },
  });
  // RSS and Atom carry an item's title and summary as HTML (the library writes them so): plain text is escaped.
  const text = format === 'json' ? (s: string) => s : escHtml;
  for (const [i, release] of releases.entries()) {
    const view = presentRelease(release, release.rendered);
    feed.addItem({
      title: text(`${product.name} ${view.version}${view.stability === 'pre-release' ? ' (pre-release)' : ''}`),
      // WP: the post's guid, which never changes.
      id: `${home}/?post_type=svc_release&p=${release.postId}`,
      link: view.url || link,
      date: dates[i] as Date,
      published: dates[i] as Date,
      description: text(view.summary),
      content: view.html,
    });
  }
  const body = format === 'atom' ? feed.atom1() : format === 'json' ? jsonFeed11(feed.json1()) : feed.rss2();
  return { body, contentType: FEED_CONTENT_TYPES[format], lastModified: latest(modified) };
}

/**
 * The library writes JSON Feed 1.0's version URL; what it writes of our items (no author, no
 * attachments) is also JSON Feed 1.1, which these feeds are, so the version says 1.1.
 */
function jsonFeed11(json1: string): string {
  const feed = JSON.parse(json1) as { version: string };
  feed.version = 'https://jsonfeed.org/version/1.1';
  return JSON.stringify(feed, null, 4);
}

function latest(dates: Date[]): Date {
  return new Date(Math.max(...dates.map((d) => d.getTime())));
}
