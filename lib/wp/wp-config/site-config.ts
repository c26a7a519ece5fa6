/**
 * Turns a parsed wp-config into the site configuration Understudy needs (DB connection, table prefix,
 * salts, multisite), checking every value WordPress would reject and reporting all problems at once.
 */
import { parseDbHost } from './db-host';
import { DbHostParts, WpConfigFile, WpSalts, WpSiteConfig } from './types';
import { phpToString, phpTruthy } from './values';

/** The eight secret constants every site must define, in wp-config-sample.php order. */
export const SALT_NAMES = [
  'AUTH_KEY',
  'SECURE_AUTH_KEY',
  'LOGGED_IN_KEY',
  'NONCE_KEY',
  'AUTH_SALT',
  'SECURE_AUTH_SALT',
  'LOGGED_IN_SALT',
  'NONCE_SALT',
] as const satisfies readonly (keyof WpSalts)[];

/** The placeholder wp-config-sample.php ships with; WordPress treats a key holding it as unusable. */
export const PLACEHOLDER_PHRASE = 'put your unique phrase here';

/** Values never shown in error messages. */
const SECRET_NAMES = new Set<string>(['DB_PASSWORD', ...SALT_NAMES, 'SECRET_KEY', 'SECRET_SALT']);

/**
 * Checks a parsed wp-config and turns it into what Understudy needs. Throws one Error naming the file and
 * every problem: `<file>: missing A, B (placeholder …); cannot evaluate C (getenv(…)); invalid D (…)`.
 * Keys that are empty, still the sample placeholder, or equal to another KEY/SALT constant (all holders of
 * a shared value) are unusable to WordPress and reported as missing.
 */
export function siteConfigFromWpConfig(cfg: WpConfigFile): WpSiteConfig {
  const missing: string[] = [];
  const unevaluable: string[] = [];
  const invalid: string[] = [];
  const dynamic = cfg.dynamic ?? {};
  const has = (name: string): boolean => Object.prototype.hasOwnProperty.call(cfg.constants, name);
  const isDynamic = (name: string): boolean => Object.prototype.hasOwnProperty.call(dynamic, name);
  const describeDynamic = (name: string): string =>
    SECRET_NAMES.has(name) ? `${name} (computed at runtime)` : `${name} (${dynamic[name]})`;

  /** The constant as PHP would use it as a string, or undefined (after recording why) if unusable. */
  const stringConstant = (name: string, allowNull: boolean): string | undefined => {
    if (!has(name)) {
      missing.push(name);
      return undefined;
    }
    if (isDynamic(name)) {
      unevaluable.push(describeDynamic(name));
      return undefined;
    }
    const v = cfg.constants[name];
    if (v === null && !allowNull) {
      missing.push(`${name} (defined as null)`);
      return undefined;
    }
    return phpToString(v);
  };

  const database = stringConstant('DB_NAME', false);
  const user = stringConstant('DB_USER', false);
  const password = stringConstant('DB_PASSWORD', true); // null or '' means "no password" to mysqli
  const dbHost = stringConstant('DB_HOST', false);
  let hostParts: DbHostParts = {};
  if (dbHost !== undefined) {
    try {
      hostParts = parseDbHost(dbHost);
    } catch (e) {
      invalid.push((e as Error).message);
    }
  }

  let charset = 'utf8mb4';
  if (has('DB_CHARSET')) {
    if (isDynamic('DB_CHARSET')) unevaluable.push(describeDynamic('DB_CHARSET'));
    else {
      const raw = phpToString(cfg.constants.DB_CHARSET).trim().toLowerCase();
      charset = raw === '' || raw === 'utf8' ? 'utf8mb4' : raw;
    }
  }

  // Salts: WordPress compares all ten KEY/SALT constants (the eight plus legacy SECRET_KEY/SECRET_SALT).
  const keyValues = new Map<string, string>();
  for (const name of [...SALT_NAMES, 'SECRET_KEY', 'SECRET_SALT']) {
    if (has(name) && !isDynamic(name)) keyValues.set(name, phpToString(cfg.constants[name]));
  }
  const salts: Partial<WpSalts> = {};
  for (const name of SALT_NAMES) {
    if (!has(name)) {
      missing.push(name);
      continue;
    }
    if (isDynamic(name)) {
      unevaluable.push(describeDynamic(name));
      continue;
    }
    const value = keyValues.get(name)!;
    if (value === '') {
      missing.push(`${name} (empty)`);
    } else if (value === PLACEHOLDER_PHRASE) {
      missing.push(`${name} (placeholder '${PLACEHOLDER_PHRASE}')`);
    } else {
      const twins = [...keyValues].filter(([other, v]) => other !== name && v === value).map(([other]) => other);
      if (twins.length > 0) missing.push(`${name} (same value as ${twins.join(', ')})`);
      else salts[name] = value;
    }
  }

  let tablePrefix = cfg.tablePrefix;
  if (Object.prototype.hasOwnProperty.call(dynamic, '$table_prefix')) {
    unevaluable.push(`$table_prefix (${dynamic.$table_prefix})`);
  } else if (tablePrefix === undefined) {
    missing.push('$table_prefix');
  } else if (/[^A-Za-z0-9_]/.test(tablePrefix)) {
    invalid.push(`$table_prefix '${tablePrefix}' (only A-Z, a-z, 0-9 and _ are allowed)`);
  }

  // is_multisite(): MULTISITE if defined, else any of SUBDOMAIN_INSTALL, VHOST, SUNRISE being defined.
  let multisite = false;
  if (has('MULTISITE')) {
    if (isDynamic('MULTISITE')) unevaluable.push(describeDynamic('MULTISITE'));
    else multisite = phpTruthy(cfg.constants.MULTISITE);
  } else {
    multisite = has('SUBDOMAIN_INSTALL') || has('VHOST') || has('SUNRISE');
  }

  const problems: string[] = [];
  if (missing.length) problems.push(`missing ${missing.join(', ')}`);
  if (unevaluable.length) problems.push(`cannot evaluate ${unevaluable.join(', ')}`);
  if (invalid.length) problems.push(`invalid ${invalid.join(', ')}`);
  if (problems.length) throw new Error(`${cfg.file}: ${problems.join('; ')}`);

  return {
    file: cfg.file,
    db: { ...hostParts, user: user!, password: password!, database: database!, charset },
    tablePrefix: tablePrefix!,
    salts: salts as WpSalts,
    multisite,
  };
}
