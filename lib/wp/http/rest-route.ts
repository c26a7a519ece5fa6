/**
 * Which REST route a request names, read as WordPress reads it, so that the proxy routes and
 * Understudy answers exactly the requests that PHP would serve as that route:
 * - WP::parse_request() takes the public query var `rest_route` from $_POST, else $_GET, else the
 *   pretty permalink's rewrite (`^wp-json/(.*)?` → `index.php?rest_route=/$matches[1]`), and
 *   rest_api_loaded() serves it when it is not empty().
 * - $_GET and $_POST are PHP's decoding (php-query.ts): the name is percent-decoded too
 *   (`%72est_route`), the last duplicate wins, `rest.route` and `rest[route` are `rest_route`, and
 *   `rest_route[]` is an array (refused by rest_api_loaded()).
 * - Only WordPress's front controllers run parse_request(): index.php (which nginx's
 *   `try_files … /index.php?$args` makes of every path that is no file) and the few root files that
 *   call wp(). Any other `.php` file (admin-ajax.php, wp-login.php, wp-admin's pages) ignores it.
 * - Nothing under /wp-admin/ is taken to read it: the directory's index.php and its files do not
 *   (admin-ajax.php/x runs admin-ajax on Apache); the rare path there that is no file and reaches
 *   index.php is left to PHP, which answers it as it always did (docs/deploy.md).
 * It assumes WordPress at the site's root, as `understudy nginx` does.
 */
import { posix } from 'node:path';
import { FORM_BODY_COUNT, PhpQueryValue, parsePhpQuery, phpArrayFromPairs, phpUrldecode } from './php-query';
import { BoundedMemo } from '../bounded-memo';

export type RestRouteReading =
  | { kind: 'none' }
  /** rest_route is given but empty() ('' or '0'): no REST request, even on a /wp-json/ path. */
  | { kind: 'empty' }
  | { kind: 'route'; route: string }
  /** rest_route is an array: WordPress (6.8+) answers 400 `rest_path_invalid_type`. */
  | { kind: 'invalid' };

/** The PHP files at the root that call wp() and so read rest_route like index.php. */
const FRONT_CONTROLLERS = new Set(['index.php', 'wp-blog-header.php', 'wp-trackback.php', 'wp-signup.php', 'wp-activate.php']);

/**
 * WP: rest_api_register_rewrites(), in their order; WP::parse_request() tries each on the path
 * (slashes trimmed) as sent, then urldecode()d. The dot of `index.php` is unescaped there too.
 */
const PRETTY_RULES: Array<{ pattern: RegExp; query: (m: RegExpExecArray) => string }> = [
  { pattern: /^wp-json\/?$/, query: () => 'rest_route=/' },
  { pattern: /^wp-json\/([^\n]*)/, query: (m) => `rest_route=/${m[1] ?? ''}` },
  { pattern: /^index.php\/wp-json\/?$/, query: () => 'rest_route=/' },
  { pattern: /^index.php\/wp-json\/([^\n]*)/, query: (m) => `rest_route=/${m[1] ?? ''}` },
];

/**
 * The REST route of a request. `path` is the raw path (percent-encoding as sent), `query` the raw
 * query string, `post` PHP's $_POST (null unless a form POST body was read).
 */
export function restRouteOf(path: string, query: string, post: Record<string, PhpQueryValue> | null = null): RestRouteReading {
  if (post) return readRestRoute(path, query, post);
  // Every request is read, and clients ask for the same few URLs again and again.
  return readings.get(`${path}?${query}`, () => readRestRoute(path, query, null));
}

/** The readings of URLs without a form body. */
const readings = new BoundedMemo<string, Readonly<RestRouteReading>>(1000);

function readRestRoute(path: string, query: string, post: Record<string, PhpQueryValue> | null): RestRouteReading {
  if (!readsQueryVars(path)) return { kind: 'none' };
  const get = parsePhpQuery(query).rest_route;
  // CASE: $_GET and $_POST both set and different: WordPress dies ("A variable mismatch"); $_GET is taken here (docs/deploy.md).
  const value = get ?? post?.rest_route ?? prettyRestRoute(path);
  if (value === undefined) return { kind: 'none' };
  if (value === '' || value === '0') return { kind: 'empty' };
  if (typeof value !== 'string') return Object.keys(value).length ? { kind: 'invalid' } : { kind: 'empty' };
  return { kind: 'route', route: value };
}

/** Whether a POST body could still name the route: the URL's query does not, and WordPress reads it here. */
export function bodyMayNameRestRoute(path: string, query: string): boolean {
  return readsQueryVars(path) && parsePhpQuery(query).rest_route === undefined;
}

/** PHP fills $_POST only for a POST whose media type (up to `;`, `,` or a space, any case) is a form's. */
export function phpReadsForm(method: string | undefined, contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(/[;, ]/, 1)[0]?.toLowerCase();
  return method === 'POST' && (type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data');
}

/** $_POST of a form body read whole: urlencoded as PHP decodes it, multipart's plain fields (files skipped). */
export function formFields(body: string, contentType: string | undefined): Record<string, PhpQueryValue> {
  if (!/^multipart\//i.test(contentType ?? '')) return parsePhpQuery(body, FORM_BODY_COUNT);
  const boundary = /boundary=(?:"([^"]+)"|([^;,\s]+))/i.exec(contentType ?? '');
  if (!boundary) return {};
  const pairs: Array<[string, string]> = [];
  for (const part of body.split(`--${boundary[1] ?? boundary[2]}`)) {
    const head = /^\r?\n((?:[^\r\n]+\r?\n)*?)\r?\n/.exec(part);
    const name = head && /content-disposition:\s*form-data;[^\r\n]*?\bname="([^"]*)"/i.exec(head[1] as string);
    if (!head || !name || /\bfilename=/i.test(head[1] as string)) continue;
    pairs.push([name[1] as string, part.slice(head[0].length).replace(/\r?\n$/, '')]);
  }
  return phpArrayFromPairs(pairs);
}

/** Whether WordPress's front controller answers this path (and so reads rest_route). */
function readsQueryVars(path: string): boolean {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // nginx decodes what it can; a malformed escape stays as written.
  }
  // nginx merges slashes and resolves dot segments before it looks for the file.
  const normal = posix.normalize(decoded);
  if (normal === '/wp-admin' || normal.startsWith('/wp-admin/')) return false;
  if (!decoded.endsWith('.php')) return true;
  return FRONT_CONTROLLERS.has(decoded.slice(decoded.lastIndexOf('/') + 1));
}

/** WP: the rewrite's query, `addslashes()`d and parse_str()'d: the path is decoded once more here. */
function prettyRestRoute(path: string): PhpQueryValue | undefined {
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  for (const rule of PRETTY_RULES) {
    const match = rule.pattern.exec(trimmed) ?? rule.pattern.exec(phpUrldecode(trimmed));
    if (match) return parsePhpQuery(addslashes(rule.query(match))).rest_route;
  }
  return undefined;
}

/** PHP's addslashes(). */
function addslashes(text: string): string {
  return text.replace(/[\\'"\0]/g, '\\$&');
}
