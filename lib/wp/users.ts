/**
 * WP: WP_User lookups (get_user_by) and user meta over the shared users/usermeta tables.
 * A user is loaded with all of their meta in two queries, as WordPress primes its meta cache,
 * and kept for at most FRESHNESS_MS so that a role change, a revoked application password or a
 * destroyed session made by PHP takes effect within the 2-second bound.
 */
import { BoundedMemo } from './bounded-memo';
import { ChangeFeed } from './change-feed';
import { WordPressChanges } from './changes';
import { Database } from './db/database';
import { FreshCache } from './fresh-cache';
import { sanitizeUser } from './formatting';
import { PlainValue, maybeSerialize, maybeUnserialize, toPlain } from './php';

export interface WpUser {
  ID: number;
  user_login: string;
  user_pass: string;
  user_nicename: string;
  user_email: string;
  user_url: string;
  user_registered: string;
  display_name: string;
  /** Raw meta values by key, in row order (a key may repeat). */
  meta: Map<string, string[]>;
}

const USER_COLUMNS = ['ID', 'user_login', 'user_pass', 'user_nicename', 'user_email', 'user_url', 'user_registered', 'display_name'];

export class UserStore {
  private readonly byIdCache: FreshCache<number, WpUser | null>;
  private readonly idByField: FreshCache<string, number | null>;
  /** Logins as sent, sanitized. */
  private readonly sanitizedLogins = new BoundedMemo<string, string>(1000);

  /** `changes`: the site's feed, told of each user meta key written here (absent only for the demo seed's writes). */
  constructor(private readonly db: Database, private readonly changes?: ChangeFeed) {
    this.byIdCache = new FreshCache(undefined, undefined, 'users');
    this.idByField = new FreshCache(undefined, undefined, 'users');
  }

  /** WP: get_user_by('id'). */
  byId(id: number): Promise<WpUser | null> {
    if (!Number.isInteger(id) || id <= 0) return Promise.resolve(null);
    return this.byIdCache.get(id, () => this.load({ ID: id }));
  }

  /** The user as the database holds it now, past the cache: for a session PHP stored a moment ago. */
  reload(id: number): Promise<WpUser | null> {
    this.byIdCache.invalidate(id);
    return this.byId(id);
  }

  /** WP: get_user_by('login'): the login is sanitized first; matching follows the column's collation. */
  async byLogin(login: string): Promise<WpUser | null> {
    // Every request signed with an application password names its login: each is sanitized once.
    return this.byField('user_login', this.sanitizedLogins.get(login, sanitizeUserLogin));
  }

  /** WP: get_user_by('email'). */
  async byEmail(email: string): Promise<WpUser | null> {
    return this.byField('user_email', email.trim());
  }

  /** All users, ordered by login (for the CLI). */
  async list(): Promise<WpUser[]> {
    const { knex, tables } = this.db;
    const rows = await knex(tables.users).select(USER_COLUMNS).orderBy('user_login');
    const metaRows = await knex(tables.usermeta).select('user_id', 'meta_key', 'meta_value').orderBy('umeta_id');
    const metaByUser = new Map<number, Array<{ meta_key: string; meta_value: string }>>();
    for (const m of metaRows) {
      const list = metaByUser.get(Number(m.user_id)) ?? [];
      list.push(m);
      metaByUser.set(Number(m.user_id), list);
    }
    return rows.map((row: Record<string, unknown>) => toUser(row, metaByUser.get(Number(row.ID)) ?? []));
  }

  /**
   * WP: update_user_meta() for a key that holds one value; forgets the cached user. A key whose one
   * value is already this one is left alone (and reported to nobody), as update_metadata() does.
   */
  async updateMeta(userId: number, key: string, value: unknown): Promise<void> {
    const { knex, tables } = this.db;
    const raw = maybeSerialize(value);
    const rows = () => knex(tables.usermeta).where({ user_id: userId, meta_key: key });
    const stored: Array<{ meta_value: string | null }> = await rows().select('meta_value').limit(2);
    if (stored.length === 1 && stored[0]?.meta_value === raw) {
      this.byIdCache.invalidate(userId);
      return;
    }
    if (stored.length) await rows().update({ meta_value: raw });
    else await knex(tables.usermeta).insert({ user_id: userId, meta_key: key, meta_value: raw });
    await this.metaWritten(userId, key);
  }

  /** WP: delete_user_meta() for every value of a key. */
  async deleteMeta(userId: number, key: string): Promise<void> {
    const removed = await this.db.knex(this.db.tables.usermeta).where({ user_id: userId, meta_key: key }).del();
    this.byIdCache.invalidate(userId);
    if (removed) await this.changes?.publish(new WordPressChanges().userMetaKey(userId, key));
  }

  private async metaWritten(userId: number, key: string): Promise<void> {
    this.byIdCache.invalidate(userId);
    await this.changes?.publish(new WordPressChanges().userMetaKey(userId, key));
  }

  /** WP: clean_user_cache(): after this process rewrote or deleted a user, forget the row and every login/email lookup. */
  forget(userId: number): void {
    this.byIdCache.invalidate(userId);
    this.idByField.invalidate();
  }

  private async byField(column: 'user_login' | 'user_email', value: string): Promise<WpUser | null> {
    if (!value) return null;
    const id = await this.idByField.get(`${column}\0${value.toLowerCase()}`, async () => {
      // One query for the whole row: the user is then cached by ID as well.
      const user = await this.load({ [column]: value });
      if (user) this.byIdCache.prime(user.ID, user);
      return user ? user.ID : null;
    });
    return id === null ? null : this.byId(id);
  }

  private async load(where: Record<string, string | number>): Promise<WpUser | null> {
    const { knex, tables } = this.db;
    const row = await knex(tables.users).where(where).first(USER_COLUMNS);
    if (!row) return null;
    const meta = await knex(tables.usermeta).where({ user_id: row.ID }).orderBy('umeta_id').select('meta_key', 'meta_value');
    return toUser(row, meta);
  }
}

/** The first value of a meta key, unserialized as WordPress's get_user_meta($id, $key, true) does, as plain JS data. */
export function userMeta(user: WpUser, key: string): PlainValue | undefined {
  const values = user.meta.get(key);
  return values && values.length ? toPlain(maybeUnserialize(values[0] as string)) : undefined;
}

/**
 * WP: sanitize_user() in non-strict mode, as get_user_by('login') applies it before the lookup: tags
 * (script and style with their content), accents, octets and entities out, white space folded.
 */
export function sanitizeUserLogin(login: string): string {
  return sanitizeUser(login);
}

function toUser(row: Record<string, unknown>, meta: Array<{ meta_key: string; meta_value: string | null }>): WpUser {
  const map = new Map<string, string[]>();
  for (const m of meta) {
    const list = map.get(m.meta_key) ?? [];
    list.push(m.meta_value ?? '');
    map.set(m.meta_key, list);
  }
  return {
    ID: Number(row.ID),
    user_login: String(row.user_login),
    user_pass: String(row.user_pass),
    user_nicename: String(row.user_nicename),
    user_email: String(row.user_email),
    user_url: String(row.user_url),
    user_registered: String(row.user_registered),
    display_name: String(row.display_name),
    meta: map,
  };
}
