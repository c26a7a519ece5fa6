/**
 * The shapes wp-config reading produces: the raw parse of the file (WpConfigFile) and the checked site
 * configuration built from it (WpSiteConfig, with its DB connection and salts). They live apart so the
 * parser, DB_HOST and site-config modules can share them without importing one another.
 */
export type WpConfigValue = string | number | boolean | null;

/** A PHP array literal of computable values, in PHP's order, with PHP's integer and string keys. */
export type WpConfigArray = Map<string | number, WpConfigData>;

export type WpConfigData = WpConfigValue | WpConfigArray;

export interface WpConfigFile {
  /** The path the source came from, used in error messages. */
  file: string;
  /** Every constant the file defines. Dynamic (not computable) values are `null`; see `dynamic`. */
  constants: Record<string, WpConfigValue>;
  /** `$table_prefix` if assigned a computable value; `undefined` if never assigned or dynamic. */
  tablePrefix: string | undefined;
  /**
   * Names (constants, or `$table_prefix`) whose value could not be computed without running PHP,
   * mapped to the PHP source of that value. Optional so hand-built configs need not carry it.
   */
  dynamic?: Record<string, string>;
  /**
   * Constants whose value is an array literal (`WP_REDIS_GLOBAL_GROUPS`, …). They are also in `constants`
   * as `null` and in `dynamic`, since no scalar reader can use them.
   */
  arrays?: Record<string, WpConfigArray>;
  /** The global variables read besides `$table_prefix` (READ_VARIABLES in parse.ts), when computable. */
  variables?: Record<string, WpConfigData>;
}

export interface DbHostParts {
  host?: string;
  port?: number;
  socketPath?: string;
  /**
   * True when PHP's mysqli would connect through its default Unix socket: no socket in DB_HOST and the
   * host is `localhost` or empty (mysqli ignores a port then). The caller picks the socket with
   * `resolveLocalhostSocket()` and falls back to TCP 127.0.0.1 (see `connectionTarget()`).
   */
  defaultSocket?: boolean;
}

export interface WpSalts {
  AUTH_KEY: string;
  SECURE_AUTH_KEY: string;
  LOGGED_IN_KEY: string;
  NONCE_KEY: string;
  AUTH_SALT: string;
  SECURE_AUTH_SALT: string;
  LOGGED_IN_SALT: string;
  NONCE_SALT: string;
}

export interface WpDbConfig extends DbHostParts {
  user: string;
  password: string;
  database: string;
  /** DB_CHARSET lower-cased; missing or empty → `utf8mb4`; `utf8` → `utf8mb4` (wpdb::determine_charset). */
  charset: string;
}

export interface WpSiteConfig {
  file: string;
  db: WpDbConfig;
  tablePrefix: string;
  salts: WpSalts;
  multisite: boolean;
}
