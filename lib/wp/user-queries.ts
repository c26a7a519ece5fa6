/**
 * The users table as WordPress queries it: email_exists(), get_user_by('slug'), the nicename
 * de-duplication of wp_insert_user(), and update_user_meta() for single-valued keys.
 */
import { Knex } from 'knex';
import { changesOf } from './change-feed';
import { phpTrim } from './formatting';
import { maybeSerialize } from './php';
import { Site } from './site';

export type Query = Knex | Knex.Transaction;

/** `column = value` as WordPress's tables compare it: case-insensitively (MySQL's `_ci` collations). */
function whereCi(builder: Knex.QueryBuilder, site: Site, column: string, value: string): Knex.QueryBuilder {
  return site.db.dialect === 'sqlite' ? builder.whereRaw(`LOWER(??) = LOWER(?)`, [column, value]) : builder.where(column, value);
}

/** WP: email_exists(): the ID of the user with this (trimmed) email, or null. */
export async function userIdByEmail(q: Query, site: Site, email: string): Promise<number | null> {
  const value = phpTrim(email);
  if (value === '') return null;
  const row = await whereCi(q(site.db.tables.users), site, 'user_email', value).first('ID');
  return row ? Number(row.ID) : null;
}

/** WP: get_user_by('slug'): the ID of the user with this nicename, or null. */
export async function userIdByNicename(q: Query, site: Site, nicename: string): Promise<number | null> {
  if (nicename === '') return null;
  const row = await whereCi(q(site.db.tables.users), site, 'user_nicename', nicename).first('ID');
  return row ? Number(row.ID) : null;
}

/** WP: wp_insert_user()'s nicename de-duplication: `-2`, `-3`, … until no other login holds it. */
export async function uniqueNicename(q: Query, site: Site, nicename: string, login: string): Promise<string> {
  const taken = async (candidate: string) => {
    const row = await whereCi(q(site.db.tables.users), site, 'user_nicename', candidate).whereNot('user_login', login).first('ID');
    return Boolean(row);
  };
  if (!(await taken(nicename))) return nicename;
  for (let suffix = 2; ; suffix++) {
    const base = [...nicename].slice(0, 49 - String(suffix).length).join('');
    const candidate = `${base}-${suffix}`;
    if (!(await taken(candidate))) return candidate;
  }
}

/**
 * WP: update_user_meta() for a single-valued key: added when absent, left alone when the one stored
 * value is already this one, otherwise every row of the key rewritten.
 */
export async function setUserMeta(q: Query, site: Site, userId: number, key: string, value: unknown): Promise<void> {
  const table = site.db.tables.usermeta;
  const raw = maybeSerialize(value);
  const rows = await q(table).where({ user_id: userId, meta_key: key }).select('meta_value');
  if (rows.length === 0) {
    await q(table).insert({ user_id: userId, meta_key: key, meta_value: raw });
  } else if (rows.length > 1 || rows[0].meta_value !== raw) {
    await q(table).where({ user_id: userId, meta_key: key }).update({ meta_value: raw });
  } else {
    return;
  }
  changesOf(q).userMetaKey(userId, key);
}

/** WP: delete_user_meta() for every value of a key; true when there was one. */
export async function deleteUserMeta(q: Query, site: Site, userId: number, key: string): Promise<boolean> {
  const removed = await q(site.db.tables.usermeta).where({ user_id: userId, meta_key: key }).del();
  if (removed) changesOf(q).userMetaKey(userId, key);
  return removed > 0;
}

/** The columns a user is cached by besides the ID (WordPress's userlogins, useremail and userslugs groups). */
export interface UserKeys {
  ID: number;
  user_login: string;
  user_email: string;
  user_nicename: string;
}

/**
 * WP: wp_update_user() at the row level: sets `columns` on the user, who is recorded by their keys
 * before and after. Nothing is written (nor recorded) when `user`, as read, already holds every value.
 */
export async function updateUserRow(q: Query, site: Site, user: UserKeys, columns: Partial<Omit<UserKeys, 'ID'>> & Record<string, unknown>): Promise<void> {
  const stored = user as unknown as Record<string, unknown>;
  if (Object.entries(columns).every(([column, value]) => column in stored && String(stored[column]) === String(value))) return;
  await q(site.db.tables.users).where({ ID: user.ID }).update(columns);
  changesOf(q)
    .user(user.ID, { login: user.user_login, email: user.user_email, nicename: user.user_nicename })
    .user(user.ID, { login: columns.user_login, email: columns.user_email, nicename: columns.user_nicename });
}
