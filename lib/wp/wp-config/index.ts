/**
 * Reads a WordPress wp-config.php without running PHP, and turns it into the site configuration
 * Understudy needs. The modules: tokenizer, evaluator, parser, DB_HOST handling and the site-config
 * checks; parse.ts describes what is understood.
 */
export type { DbHostParts, WpConfigArray, WpConfigData, WpConfigFile, WpConfigValue, WpDbConfig, WpSalts, WpSiteConfig } from './types';
export { SALT_NAMES, PLACEHOLDER_PHRASE, siteConfigFromWpConfig } from './site-config';
export { DEFAULT_MYSQL_SOCKETS, connectionTarget, parseDbHost, resolveLocalhostSocket } from './db-host';
export { phpToString, phpTruthy } from './values';
export { parseWpConfig, readWpConfig } from './parse';
export { cookieConfigOfEnv, cookieConfigOfWpConfig } from './cookie-constants';
export type { CookieConfig } from './cookie-constants';
export { installedLanguages } from './languages';
