/**
 * WP: the cookie constants, as wp_cookie_constants() (default-constants.php) and, on a network,
 * ms_cookie_constants() (ms-default-constants.php, which runs first and so wins) define them. Which
 * cookies a browser sends where follows from them: on a subdirectory network the logged-in and auth
 * cookies sit on the network's path, so every site of it receives them.
 */
import { CookieNames, cookieHash, cookieNames } from './cookies';

export interface CookieConstants {
  /** COOKIEHASH: the md5 of get_site_option('siteurl'), empty when that is. */
  hash: string;
  names: CookieNames;
  /** COOKIEPATH: the logged-in cookie's path. */
  cookiePath: string;
  /** SITECOOKIEPATH: the logged-in cookie's second path, when it differs. */
  siteCookiePath: string;
  /** ADMIN_COOKIE_PATH: one of the auth cookie's paths. */
  adminCookiePath: string;
  /** PLUGINS_COOKIE_PATH: the auth cookie's other path. */
  pluginsCookiePath: string;
  /** COOKIE_DOMAIN: the cookies' Domain attribute, false for host-only cookies. */
  cookieDomain: string | false;
}

/**
 * A single site. `siteUrl` and `home` as get_option() gives them (WP_SITEURL and WP_HOME, when defined,
 * replace the stored values, untrailingslashed); `contentUrl`: WP_CONTENT_URL when defined.
 */
export function singleSiteCookieConstants(siteUrl: string, home: string, contentUrl?: string): CookieConstants {
  const hash = cookieHash(siteUrl);
  const siteCookiePath = urlPath(`${siteUrl}/`);
  return {
    hash, names: cookieNames(hash), cookiePath: urlPath(`${home}/`), siteCookiePath,
    adminCookiePath: `${siteCookiePath}wp-admin`, pluginsCookiePath: pluginsCookiePath(siteUrl, contentUrl), cookieDomain: false,
  };
}

export interface NetworkCookieInputs {
  /** The network's `siteurl` option (wp_sitemeta), as stored. */
  networkSiteUrl: string | null;
  /** The network's path (wp_site, or PATH_CURRENT_SITE). */
  networkPath: string;
  /** WP_Network's cookie_domain: its domain without `www.` (network.ts, cookieDomainOf()). */
  networkCookieDomain: string;
  subdomainInstall: boolean;
  /** The site's own `siteurl` option (multisite ignores WP_SITEURL). */
  siteUrl: string;
  contentUrl?: string;
}

/** A site of a network: every path is the network's; ADMIN_COOKIE_PATH gains `wp-admin` only on a subdomain install's site at a bare domain. */
export function networkCookieConstants(inputs: NetworkCookieInputs): CookieConstants {
  const hash = cookieHash(inputs.networkSiteUrl);
  const sitePath = urlPathOnly(inputs.siteUrl).replace(/^\/+|\/+$/g, '');
  const adminCookiePath = !inputs.subdomainInstall || sitePath !== '' ? inputs.networkPath : `${inputs.networkPath}wp-admin`;
  return {
    hash, names: cookieNames(hash), cookiePath: inputs.networkPath, siteCookiePath: inputs.networkPath, adminCookiePath,
    pluginsCookiePath: pluginsCookiePath(inputs.siteUrl, inputs.contentUrl),
    cookieDomain: inputs.subdomainInstall ? `.${inputs.networkCookieDomain}` : false,
  };
}

/** WP_PLUGIN_URL's path: WP_CONTENT_URL (default: siteurl + /wp-content) + /plugins. */
function pluginsCookiePath(siteUrl: string, contentUrl?: string): string {
  return urlPath(`${contentUrl ?? `${siteUrl}/wp-content`}/plugins`);
}

/** WordPress's `preg_replace( '|https?://[^/]+|i', '', $url )`: the address without scheme and host. */
function urlPath(url: string): string {
  return url.replace(/https?:\/\/[^/]+/gi, '');
}

/** PHP's parse_url( $url, PHP_URL_PATH ), for an address with a scheme: its path, '' when none. */
function urlPathOnly(url: string): string {
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^?#]*)/i.exec(url);
  return match ? match[1] ?? '' : url.split(/[?#]/)[0] ?? '';
}
