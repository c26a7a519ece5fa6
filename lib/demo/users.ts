/**
 * Demo users as WordPress writes a new user: the users row, the usermeta of wp_insert_user() and
 * set_role(), and one application password stored as WordPress 6.8+ stores it.
 */
import { Knex } from 'knex';
import { Database } from '../wp/db/database';
import { mysqlDateTime } from '../wp/dates';
import { OptionStore } from '../wp/options';
import { wpFastHash } from '../wp/passwords';
import { PhpValue, serialize, toPlain } from '../wp/php';
import { DemoUser } from './fixture';

const DAY_MS = 86_400_000;

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
    display_name: `${user.first_name} ${user.last_name}`.trim() || user.login,
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
  const meta: Array<[string, string]> = [
    ['nickname', user.login],
    ['first_name', user.first_name],
    ['last_name', user.last_name],
    ['description', ''],
    ['rich_editing', 'true'],
    ['syntax_highlighting', 'true'],
    ['comment_shortcuts', 'false'],
    ['admin_color', 'fresh'],
    ['use_ssl', '0'],
    ['show_admin_bar_front', 'true'],
    ['locale', ''],
    [db.tables.capabilitiesKey, serialize({ [user.role]: true })],
    [`${db.tables.blogPrefix}user_level`, String(level)],
    ['_application_passwords', serialize([appPassword])],
  ];
  await trx(db.tables.usermeta).insert(meta.map(([meta_key, meta_value]) => ({ user_id: userId, meta_key, meta_value })));
  return userId;
}
