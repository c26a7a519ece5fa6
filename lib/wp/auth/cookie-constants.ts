/**
 * WP: the cookie constants, as wp_cookie_constants() (default-constants.php) and, on a network,
 * ms_cookie_constants() (ms-default-constants.php, which runs first and so wins) define them. Which
 * cookies a browser sends where follows from them: on a subdirectory network the logged-in and auth
 * cookies sit on the network's path, so every site of it receives them. WordPress defines each one
 * only when wp-config.php has not, and derives the later ones from the earlier ones as defined.
 */
import { CookieNames, cookieHash, cookieNames } from './cookies';

export interface CookieConstants {
  /** COOKIEHASH: the md5 of get_site_option('siteurl'), empty when that is. */
  hash: string;
  /** AUTH_COOKIE, SECURE_AUTH_COOKIE, LOGGED_IN_COOKIE. */
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

/** What wp-config.php defines of the cookie constants and the addresses they derive from. */
export interface DefinedCookieConstants {
  COOKIEHASH?: string;
  AUTH_COOKIE?: string;
  SECURE_AUTH_COOKIE?: string;
  LOGGED_IN_COOKIE?: string;
  COOKIEPATH?: string;
  SITECOOKIEPATH?: string;
  ADMIN_COOKIE_PATH?: string;
  PLUGINS_COOKIE_PATH?: string;
  COOKIE_DOMAIN?: string | false;
  WP_CONTENT_URL?: string;
  WP_PLUGIN_URL?: string;
}

/**
 * A single site. `siteUrl` and `home` as get_option() gives them (WP_SITEURL and WP_HOME, when defined,
 * replace the stored values, untrailingslashed).
 */
export function singleSiteCookieConstants(siteUrl: string, home: string, defined: DefinedCookieConstants = {}): CookieConstants {
  const siteCookiePath = defined.SITECOOKIEPATH ?? urlPath(`${siteUrl}/`);
  return finish(siteUrl, {
    hash: defined.COOKIEHASH ?? cookieHash(siteUrl), cookiePath: defined.COOKIEPATH ?? urlPath(`${home}/`), siteCookiePath,
    adminCookiePath: defined.ADMIN_COOKIE_PATH ?? `${siteCookiePath}wp-admin`, cookieDomain: defined.COOKIE_DOMAIN ?? false,
  }, defined);
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
}

/** A site of a network: every path is the network's; ADMIN_COOKIE_PATH gains `wp-admin` only on a subdomain install's site at a bare domain. */
export function networkCookieConstants(inputs: NetworkCookieInputs, defined: DefinedCookieConstants = {}): CookieConstants {
  const siteCookiePath = defined.SITECOOKIEPATH ?? inputs.networkPath;
  const sitePath = urlPathOnly(inputs.siteUrl).replace(/^\/+|\/+$/g, '');
  const adminCookiePath = defined.ADMIN_COOKIE_PATH
    ?? (!inputs.subdomainInstall || sitePath !== '' ? siteCookiePath : `${siteCookiePath}wp-admin`);
  return finish(inputs.siteUrl, {
    hash: defined.COOKIEHASH ?? cookieHash(inputs.networkSiteUrl), cookiePath: defined.COOKIEPATH ?? inputs.networkPath, siteCookiePath,
    adminCookiePath, cookieDomain: defined.COOKIE_DOMAIN ?? (inputs.subdomainInstall ? `.${inputs.networkCookieDomain}` : false),
  }, defined);
}

/**
 * The cookie names alone (what Understudy reads): those wp-config.php defines, the others from its
 * COOKIEHASH, else from the md5 of `siteUrlForHash`: singleSiteUrl() on a single site, the network's
 * `siteurl` option as stored on a network.
 */
export function definedCookieNames(siteUrlForHash: string | null, defined: DefinedCookieConstants = {}): CookieNames {
  return namesOf(defined.COOKIEHASH ?? cookieHash(siteUrlForHash), defined);
}

/**
 * WP: get_option('siteurl') on a single site: WP_SITEURL when wp-config.php defines it
 * (_config_wp_siteurl()), else the stored option; both untrailingslashed (get_option() strips the
 * option's slash, the filter WP_SITEURL's).
 */
export function singleSiteUrl(siteUrlConstant: string | undefined, storedOption: string): string {
  return untrailingslash(siteUrlConstant ?? storedOption);
}

/** The names from the hash and PLUGINS_COOKIE_PATH from WP_PLUGIN_URL (WP_CONTENT_URL, default siteurl/wp-content, + /plugins). */
function finish(siteUrl: string, partial: Omit<CookieConstants, 'names' | 'pluginsCookiePath'>, defined: DefinedCookieConstants): CookieConstants {
  const pluginUrl = defined.WP_PLUGIN_URL ?? `${defined.WP_CONTENT_URL ?? `${siteUrl}/wp-content`}/plugins`;
  return { ...partial, names: namesOf(partial.hash, defined), pluginsCookiePath: defined.PLUGINS_COOKIE_PATH ?? urlPath(pluginUrl) };
}

function namesOf(hash: string, defined: DefinedCookieConstants): CookieNames {
  const names = cookieNames(hash);
  return {
    auth: defined.AUTH_COOKIE ?? names.auth, secureAuth: defined.SECURE_AUTH_COOKIE ?? names.secureAuth, loggedIn: defined.LOGGED_IN_COOKIE ?? names.loggedIn,
  };
}

/** WP: untrailingslashit(): without the trailing slashes and backslashes. */
function untrailingslash(url: string): string {
  return url.replace(/[/\\]+$/, '');
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
