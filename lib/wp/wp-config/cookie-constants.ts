/**
 * What wp-config.php (or the environment, with the same names) defines of the cookie constants, and
 * WP_SITEURL, which a single site's COOKIEHASH derives from. WordPress defines each constant only when
 * wp-config.php has not (auth/cookie-constants.ts derives the rest). A value PHP computes when it runs
 * (from `$_SERVER`, say) cannot be known here: WordPress's default is used for it.
 */
import type { DefinedCookieConstants } from '../auth/cookie-constants';
import { WpConfigFile, WpConfigValue } from './types';
import { phpToString } from './values';

const COOKIE_CONSTANTS = ['COOKIEHASH', 'AUTH_COOKIE', 'SECURE_AUTH_COOKIE', 'LOGGED_IN_COOKIE', 'COOKIEPATH', 'SITECOOKIEPATH',
  'ADMIN_COOKIE_PATH', 'PLUGINS_COOKIE_PATH', 'COOKIE_DOMAIN', 'WP_CONTENT_URL', 'WP_PLUGIN_URL'] as const satisfies ReadonlyArray<keyof DefinedCookieConstants>;

export interface CookieConfig {
  /** The cookie constants defined, by name (absent: WordPress's default). */
  cookieConstants: DefinedCookieConstants;
  /** WP_SITEURL as defined; on a single site it replaces the `siteurl` option, untrailingslashed. */
  siteUrlConstant?: string;
}

/** From a parsed wp-config.php: the constants it defines with values known without running PHP. */
export function cookieConfigOfWpConfig(cfg: Pick<WpConfigFile, 'constants' | 'dynamic'>): CookieConfig {
  return cookieConfigOf((name) => (Object.prototype.hasOwnProperty.call(cfg.constants, name) && cfg.dynamic?.[name] === undefined
    ? cfg.constants[name] : undefined));
}

/** From the environment: the names set (COOKIE_DOMAIN as a string: a domain, or empty for host-only cookies). */
export function cookieConfigOfEnv(env: Record<string, string | undefined>): CookieConfig {
  return cookieConfigOf((name) => env[name]);
}

function cookieConfigOf(valueOf: (name: string) => WpConfigValue | undefined): CookieConfig {
  const cookieConstants: DefinedCookieConstants = {};
  for (const name of COOKIE_CONSTANTS) {
    const value = valueOf(name);
    if (value === undefined) continue;
    if (name === 'COOKIE_DOMAIN') cookieConstants.COOKIE_DOMAIN = value === false ? false : phpToString(value);
    else cookieConstants[name] = phpToString(value);
  }
  const siteUrl = valueOf('WP_SITEURL');
  return { cookieConstants, ...(siteUrl !== undefined ? { siteUrlConstant: phpToString(siteUrl) } : {}) };
}
