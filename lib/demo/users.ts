/**
 * Demo users as WordPress writes a new user: the users row, the usermeta of wp_insert_user() and
 * set_role(), and one application password stored as WordPress 6.8+ stores it.
 */
import { Knex } from 'knex';
import { Database } from '../wp/db/database';
import { mysqlDateTime } from '../wp/dates';
import { wpFastHash } from '../wp/passwords';
import { serialize } from '../wp/php';
import { defaultDisplayName, newUserMeta } from '../wp/user-insert';
import { DemoUser } from './fixture';

const DAY_MS = 86_400_000;

/** WP: wp_insert_user() for a new user with a role, then one application password for them. */
export async function insertDemoUser(trx: Knex.Transaction, db: Database, now: number, user: DemoUser, hash: string, level: number): Promise<number> {
  const [id] = await trx(db.tables.users).insert({
    user_login: user.login,
    user_pass: hash,
    user_nicename: user.login.toLowerCase().replace(/[^a-z0-9_-]+/g, '-').slice(0, 50),
    user_email: user.email,
    user_url: '',
    user_registered: mysqlDateTime(now - user.registered_days_ago * DAY_MS),
    user_activation_key: '',
    user_status: 0,
    display_name: defaultDisplayName(user.login, user.first_name, user.last_name),
  });
  const userId = Number(id);
  const appPassword = {
    uuid: user.application_password.uuid,
    app_id: '',
    name: user.application_password.name,
    password: wpFastHash(user.application_password.password),
    created: Math.floor(now / 1000),
    last_used: null,
    last_ip: null,
  };
  // The keys and order wp_insert_user() writes, then the role (set_role), then the application password.
  const meta = [
    ...newUserMeta(db, { login: user.login, firstName: user.first_name, lastName: user.last_name }, user.role, level),
    ['_application_passwords', serialize([appPassword])],
  ];
  await trx(db.tables.usermeta).insert(meta.map(([meta_key, meta_value]) => ({ user_id: userId, meta_key, meta_value })));
  return userId;
}
