/**
 * Replaying a capture of a WordPress network: the target finds each exchange's site from its Host and
 * path, as WordPress does, so each exchange is sent with the Host it was captured with. Route keys
 * are read within the site: WordPress answers `/two/wp-json/x` on the site at `/two/` as the REST
 * route `/x`, and `/two/wp-admin/admin-ajax.php` as admin-ajax. Without the network's tables the
 * replay cannot tell a site's path from a page's, so it takes what comes before the first `wp-json`
 * segment (or `index.php/wp-json`), or before `/wp-admin/admin-ajax.php`, as the site's path; a proxy
 * recording carries the route the proxy read, which needs no such reading.
 */
import type { CapturedRequest, HeaderList } from './capture';

/** The captured Host (the URL's, which a recording takes from the Host header) as a header to send. */
export function capturedHost(request: CapturedRequest): HeaderList {
  return [['Host', new URL(request.url).host]];
}

/**
 * The URL as the site reads it: `http://example.test/two/wp-json/x?y` → `/wp-json/x?y`, and
 * `/two/wp-admin/admin-ajax.php` → `/wp-admin/admin-ajax.php`; anything else is its path and query.
 */
export function urlWithinSite(url: string): string {
  const { pathname, search } = new URL(url);
  const rest = /^\/(?:index\.php\/)?wp-json(?:\/|$)/.test(pathname) ? null : /^(?:\/[^/]+)+?(\/(?:index\.php\/)?wp-json(?:\/.*)?)$/.exec(pathname);
  const ajax = /^\/.+(\/wp-admin\/admin-ajax\.php)$/.exec(pathname);
  return (rest?.[1] ?? ajax?.[1] ?? pathname) + search;
}
