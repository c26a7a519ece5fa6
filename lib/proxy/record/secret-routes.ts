/**
 * Routes whose request or answer bodies carry secrets (a whole email, a sign-in code, a token shown
 * once): such a body is replaced whole. A rule applies to the exchange's route key and to every REST
 * route the PHP site may have served the request as: WordPress takes `rest_route` from the POST body
 * before the query (WP::parse_request(), $_POST then $_GET), whatever the path, so `POST /` with
 * `rest_route=/support/v1/webhooks/inbound/…` in its body is the inbound route, not `page:/`.
 */
import { routeGlob } from '../../replay/route-key';
import { parsePhpQuery, phpArrayFromPairs } from '../../wp/http/php-query';
import { queryString } from '../../wp/http/request-info';

type SecretSide = 'request' | 'response' | 'both';

/** Globs match the route key (`/support/v1/sites/{site_id}/portal/session`) and raw REST paths alike. */
const SECRET_BODY_ROUTES: ReadonlyArray<{ glob: string; side: SecretSide }> = [
  { glob: 'page:/wp-login.php', side: 'request' },
  { glob: '/support/v1/sites/*/portal/code', side: 'both' },
  { glob: '/support/v1/sites/*/portal/session', side: 'both' },
  { glob: '/support/v1/sites/**', side: 'response' },
  { glob: '/support/v1/sites', side: 'response' },
  { glob: '/support/v1/mailboxes/**', side: 'response' },
  { glob: '/support/v1/mailboxes', side: 'response' },
  { glob: '/support/v1/webhooks/inbound/**', side: 'request' },
  { glob: '/support/v1/webhooks/relay/**', side: 'request' },
  { glob: '/support/v1/chat/messages', side: 'response' },
  { glob: '/wp/v2/users/*/application-passwords', side: 'response' },
  { glob: '/wp/v2/users/*/application-passwords/**', side: 'response' },
];

const RULES = SECRET_BODY_ROUTES.map((r) => ({ pattern: routeGlob(r.glob), side: r.side }));

/**
 * Which bodies of the exchange are replaced whole, if any. `fields`: the form or multipart body's
 * fields (PHP's $_POST), empty for other bodies.
 */
export function secretSides(route: string, url: string, fields: ReadonlyArray<[string, string]>): { request: boolean; response: boolean } {
  const routes = [route, ...restRoutesOf(url, fields)];
  const sides = RULES.filter((r) => routes.some((key) => r.pattern.test(key))).map((r) => r.side);
  return { request: sides.some((s) => s !== 'response'), response: sides.some((s) => s !== 'request') };
}

/**
 * The REST routes `rest_route` names, as PHP reads it: names decoded and mangled (`rest.route`,
 * `rest%5Froute`), the last of repeated ones kept, a list (`rest_route[]=`) ignored. Both the body's and
 * the query's are given: WordPress refuses the request when they differ, but the PHP site received both.
 */
function restRoutesOf(url: string, fields: ReadonlyArray<[string, string]>): string[] {
  const named = [phpArrayFromPairs(fields).rest_route, parsePhpQuery(queryString(url)).rest_route];
  return named.filter((r): r is string => typeof r === 'string').map((r) => r.replace(/\/+$/, '') || '/');
}
