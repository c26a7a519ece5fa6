/**
 * WP: wp_insert_user() for a new user, then WP_User::set_role(): the users row and the usermeta
 * WordPress writes, in its order (what real WordPress wrote is in fixtures/oracle/wp-oracle.sql).
 * Used by `understudy user create` and by the demo seed.
 */
import { randomInt } from 'node:crypto';
import { Knex } from 'knex';
import { writeWordPress } from './change-feed';
import { Database } from './db/database';
import { mysqlDateTime } from './dates';
import { sanitizeUser } from './formatting/users';
import { sanitizeTitle } from './formatting/titles';
import { OptionStore } from './options';
import { hashPasswordForSite } from './password-format';
import { PhpValue, serialize, toPlain } from './php';
import { Site } from './site';

export interface NewUser {
  login: string;
  email: string;
  role: string;
  firstName?: string;
  lastName?: string;
  displayName?: string;
}

/** A user WordPress would refuse to insert (wp_insert_user()'s WP_Error, or WP-CLI's checks before it). */
export class UserInsertError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
    this.name = 'UserInsertError';
  }
}

/** WP: the `user_level` each role implies: its highest `level_N` capability (0 when it has none). */
export async function roleLevels(options: OptionStore, db: Database): Promise<Record<string, number>> {
  const stored = toPlain((await options.get(db.tables.userRolesOption, {})) as PhpValue);
  const roles = stored && typeof stored === 'object' ? (stored as Record<string, { capabilities?: Record<string, unknown> }>) : {};
  const levels: Record<string, number> = {};
  for (const [slug, role] of Object.entries(roles)) {
    let level = 0;
    for (const [cap, granted] of Object.entries(role?.capabilities ?? {})) {
      const match = /^level_(\d+)$/.exec(cap);
      if (match && granted) level = Math.max(level, Number(match[1]));
    }
    levels[slug] = level;
  }
  return levels;
}

/** WP: the usermeta of wp_insert_user() (its additional user keys, defaults), then set_role()'s two keys. */
export function newUserMeta(db: Database, user: { login: string; firstName: string; lastName: string }, role: string, level: number): Array<[string, string]> {
  return [
    ['nickname', user.login],
    ['first_name', user.firstName],
    ['last_name', user.lastName],
    ['description', ''],
    ['rich_editing', 'true'],
    ['syntax_highlighting', 'true'],
    ['comment_shortcuts', 'false'],
    ['admin_color', 'fresh'],
    ['use_ssl', '0'],
    ['show_admin_bar_front', 'true'],
    ['locale', ''],
    [db.tables.capabilitiesKey, serialize({ [role]: true })],
    [`${db.tables.blogPrefix}user_level`, String(level)],
  ];
}

/** WP: wp_insert_user()'s display name for a new user: "First Last", either alone, else the login. */
export function defaultDisplayName(login: string, firstName: string, lastName: string): string {
  if (firstName && lastName) return `${firstName} ${lastName}`;
  return firstName || lastName || login;
}

const PASSWORD_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!@#$%^&*()';

/** WP: wp_generate_password(24) as WP-CLI's `user create` calls it (special characters, no extra ones). */
export function generatePassword(length = 24): string {
  let out = '';
  for (let i = 0; i < length; i++) out += PASSWORD_CHARS[randomInt(PASSWORD_CHARS.length)];
  return out;
}

/**
 * Inserts a new user as wp_insert_user() does and gives them `role`: the login sanitized strictly,
 * at most 60 characters and unused; the email unused; a nicename made unique with -2, -3…; the
 * password hashed as this site's WordPress hashes (bcrypt from 6.8, phpass before). Returns the ID.
 */
export async function insertUser(site: Site, user: NewUser, password: string): Promise<number> {
  const login = sanitizeUser(user.login, true);
  if (!login) throw new UserInsertError('empty_user_login', 'Cannot create a user with an empty login name.');
  if ([...login].length > 60) throw new UserInsertError('user_login_too_long', 'Username may not be longer than 60 characters.');
  const nicenameBase = sanitizeTitle([...login].slice(0, 50).join(''));
  const levels = await roleLevels(site.options, site.db);
  const hash = await hashPasswordForSite(site.options, password);
  const firstName = user.firstName ?? '';
  const lastName = user.lastName ?? '';
  return writeWordPress(site, async (trx, changes) => {
    const users = site.db.tables.users;
    if (await trx(users).where({ user_login: login }).first('ID')) throw new UserInsertError('existing_user_login', 'Sorry, that username already exists!');
    if (user.email && await trx(users).where({ user_email: user.email }).first('ID')) {
      throw new UserInsertError('existing_user_email', 'Sorry, that email address is already used!');
    }
    const nicename = await uniqueNicename(trx, users, nicenameBase);
    const [id] = await trx(users).insert({
      user_login: login, user_pass: hash, user_nicename: nicename, user_email: user.email, user_url: '',
      user_registered: mysqlDateTime(site.clock.now()), user_activation_key: '', user_status: 0,
      display_name: user.displayName || defaultDisplayName(login, firstName, lastName),
    });
    const userId = Number(id);
    const meta = newUserMeta(site.db, { login, firstName, lastName }, user.role, levels[user.role] ?? 0);
    await trx(site.db.tables.usermeta).insert(meta.map(([meta_key, meta_value]) => ({ user_id: userId, meta_key, meta_value })));
    changes.user(userId, { login, email: user.email, nicename });
    for (const [key] of meta) changes.userMetaKey(userId, key);
    return userId;
  });
}

/** WP: wp_insert_user()'s unique nicename: the base, else base-2, base-3… */
async function uniqueNicename(trx: Knex.Transaction, users: string, base: string): Promise<string> {
  let candidate = base;
  for (let suffix = 2; await trx(users).where({ user_nicename: candidate }).first('ID'); suffix++) candidate = `${base.slice(0, 49 - String(suffix).length)}-${suffix}`;
  return candidate;
}
