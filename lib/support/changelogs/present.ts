/** Products and releases as the contract shows them (allowlists). */
import { feedPath } from './feed-urls';
import { Change, NotesView } from './notes';
import { ParsedRelease } from './parse';
import { ProductSummary } from './releases';
import { Stability, StoredRelease } from './store';
import { isPrerelease } from './version';

export interface ReleaseView {
  version: string;
  date: string | null;
  stability: Stability;
  url: string;
  summary: string;
  changes: Change[];
  html: string;
}

export interface ProductView {
  slug: string;
  name: string;
  type: string;
  url: string;
  /** The newest stable release's version, else the newest release's, else null. */
  latest: string | null;
  releases: number;
  feed: string;
}

/** A product as the list shows it; `home` is the site's home URL (the feed's base). */
export function presentProduct({ product, latest, releases }: ProductSummary, home: string): ProductView {
  return { slug: product.slug, name: product.name, type: product.type, url: webPage(product.url), latest, releases, feed: `${home}${feedPath(product.slug)}` };
}

/** A release with its notes' view (rendered once: ./views.ts). */
export function presentRelease(r: Pick<StoredRelease, 'version' | 'date' | 'stability' | 'url'>, view: NotesView): ReleaseView {
  return { version: r.version, date: r.date, stability: r.stability, url: webPage(r.url), summary: view.summary, changes: view.changes, html: view.html };
}

/** A release parsed from text (admin/parse), in the public shape. */
export function presentParsedRelease(r: ParsedRelease, view: NotesView): ReleaseView {
  const stability: Stability = (r.prerelease ?? isPrerelease(r.version)) ? 'pre-release' : 'stable';
  return presentRelease({ version: r.version, date: r.date, stability, url: r.url ?? '' }, view);
}

/** A link is shown only when it is a web page (a PHP screen may have stored anything). */
function webPage(url: string): string {
  return /^https?:\/\//i.test(url) ? url : '';
}
