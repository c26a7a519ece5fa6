/**
 * Turns a parsed wp-config into the site configuration Understudy needs (DB connection, table prefix,
 * salts, multisite), checking every value WordPress would reject and reporting all problems at once.
 */
import { parseDbHost } from './db-host';
import { DbHostParts, WpConfigFile, WpDbConfig, WpSalts, WpSiteConfig } from './types';
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
  const read = new ConfigReader(cfg);
  // In wp-config-sample.php's order, which is the order each kind of problem is listed in.
  const connection = dbConnection(read);
  const charset = dbCharset(read);
  const salts = checkedSalts(read);
  const tablePrefix = checkedTablePrefix(read);
  const multisite = isMultisite(read);
  read.throwProblems();
  return { file: cfg.file, db: { ...connection, charset }, tablePrefix: tablePrefix!, salts: salts as WpSalts, multisite };
}

/** The file's constants as WordPress would use them, with every reason one cannot be used, by kind. */
class ConfigReader {
  private readonly missing: string[] = [];
  private readonly unevaluable: string[] = [];
  private readonly invalid: string[] = [];
  private readonly dynamic: Record<string, string>;

  constructor(readonly cfg: WpConfigFile) {
    this.dynamic = cfg.dynamic ?? {};
  }

  has(name: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.cfg.constants, name);
  }

  isDynamic(name: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.dynamic, name);
  }

  /** The constant as PHP would use it as a string, or undefined (after recording why) if unusable. */
  stringConstant(name: string, allowNull: boolean): string | undefined {
    if (!this.has(name)) return this.isMissing(name);
    if (this.isDynamic(name)) return this.cannotEvaluate(name);
    const v = this.cfg.constants[name];
    if (v === null && !allowNull) return this.isMissing(`${name} (defined as null)`);
    return phpToString(v);
  }

  isMissing(what: string): undefined {
    this.missing.push(what);
    return undefined;
  }

  /** A name whose value needs PHP to run; a secret's source is not shown. */
  cannotEvaluate(name: string): undefined {
    this.unevaluable.push(SECRET_NAMES.has(name) ? `${name} (computed at runtime)` : `${name} (${this.dynamic[name]})`);
    return undefined;
  }

  isInvalid(what: string): undefined {
    this.invalid.push(what);
    return undefined;
  }

  throwProblems(): void {
    const problems: string[] = [];
    if (this.missing.length) problems.push(`missing ${this.missing.join(', ')}`);
    if (this.unevaluable.length) problems.push(`cannot evaluate ${this.unevaluable.join(', ')}`);
    if (this.invalid.length) problems.push(`invalid ${this.invalid.join(', ')}`);
    if (problems.length) throw new Error(`${this.cfg.file}: ${problems.join('; ')}`);
  }
}

/** DB_NAME, DB_USER, DB_PASSWORD and DB_HOST; undefined values are recorded problems. */
function dbConnection(read: ConfigReader): Omit<WpDbConfig, 'charset'> {
  const database = read.stringConstant('DB_NAME', false);
  const user = read.stringConstant('DB_USER', false);
  const password = read.stringConstant('DB_PASSWORD', true); // null or '' means "no password" to mysqli
  const dbHost = read.stringConstant('DB_HOST', false);
  let hostParts: DbHostParts = {};
  if (dbHost !== undefined) {
    try {
      hostParts = parseDbHost(dbHost);
    } catch (e) {
      read.isInvalid((e as Error).message);
    }
  }
  return { ...hostParts, user: user!, password: password!, database: database! };
}

/** DB_CHARSET, `utf8mb4` when absent, empty or `utf8` (as wpdb upgrades it). */
function dbCharset(read: ConfigReader): string {
  if (!read.has('DB_CHARSET')) return 'utf8mb4';
  if (read.isDynamic('DB_CHARSET')) {
    read.cannotEvaluate('DB_CHARSET');
    return 'utf8mb4';
  }
  const raw = phpToString(read.cfg.constants.DB_CHARSET).trim().toLowerCase();
  return raw === '' || raw === 'utf8' ? 'utf8mb4' : raw;
}

/** The eight keys and salts WordPress can use: defined, computable, not empty, not the placeholder, not shared. */
function checkedSalts(read: ConfigReader): Partial<WpSalts> {
  // WordPress compares all ten KEY/SALT constants (the eight plus legacy SECRET_KEY/SECRET_SALT).
  const keyValues = new Map<string, string>();
  for (const name of [...SALT_NAMES, 'SECRET_KEY', 'SECRET_SALT']) {
    if (read.has(name) && !read.isDynamic(name)) keyValues.set(name, phpToString(read.cfg.constants[name]));
  }
  const salts: Partial<WpSalts> = {};
  for (const name of SALT_NAMES) {
    if (!read.has(name)) read.isMissing(name);
    else if (read.isDynamic(name)) read.cannotEvaluate(name);
    else {
      const value = usableKey(read, name, keyValues);
      if (value !== undefined) salts[name] = value;
    }
  }
  return salts;
}

function usableKey(read: ConfigReader, name: string, keyValues: Map<string, string>): string | undefined {
  const value = keyValues.get(name)!;
  if (value === '') return read.isMissing(`${name} (empty)`);
  if (value === PLACEHOLDER_PHRASE) return read.isMissing(`${name} (placeholder '${PLACEHOLDER_PHRASE}')`);
  const twins = [...keyValues].filter(([other, v]) => other !== name && v === value).map(([other]) => other);
  return twins.length > 0 ? read.isMissing(`${name} (same value as ${twins.join(', ')})`) : value;
}

function checkedTablePrefix(read: ConfigReader): string | undefined {
  const { tablePrefix } = read.cfg;
  if (read.isDynamic('$table_prefix')) return read.cannotEvaluate('$table_prefix');
  if (tablePrefix === undefined) return read.isMissing('$table_prefix');
  if (/[^A-Za-z0-9_]/.test(tablePrefix)) return read.isInvalid(`$table_prefix '${tablePrefix}' (only A-Z, a-z, 0-9 and _ are allowed)`);
  return tablePrefix;
}

/** is_multisite(): MULTISITE if defined, else any of SUBDOMAIN_INSTALL, VHOST, SUNRISE being defined. */
function isMultisite(read: ConfigReader): boolean {
  if (!read.has('MULTISITE')) return read.has('SUBDOMAIN_INSTALL') || read.has('VHOST') || read.has('SUNRISE');
  if (read.isDynamic('MULTISITE')) {
    read.cannotEvaluate('MULTISITE');
    return false;
  }
  return phpTruthy(read.cfg.constants.MULTISITE);
}
