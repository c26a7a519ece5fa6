/**
 * Reads a WordPress wp-config.php without running PHP, and turns it into the site configuration
 * Understudy needs. The code lives in ./wp-config/ (tokenizer, evaluator, parser, DB_HOST handling,
 * site-config checks; parse.ts describes what is understood); this facade keeps one import path for it.
 */
export type { DbHostParts, WpConfigFile, WpConfigValue, WpDbConfig, WpSalts, WpSiteConfig } from './wp-config/types';
export { SALT_NAMES, PLACEHOLDER_PHRASE, siteConfigFromWpConfig } from './wp-config/site-config';
export { DEFAULT_MYSQL_SOCKETS, connectionTarget, parseDbHost, resolveLocalhostSocket } from './wp-config/db-host';
export { phpToString, phpTruthy } from './wp-config/values';
export { parseWpConfig, readWpConfig } from './wp-config/parse';
