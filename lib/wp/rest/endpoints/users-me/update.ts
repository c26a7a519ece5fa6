/**
 * WP: updating the signed-in user through `POST|PUT|PATCH /wp/v2/users/me`, as WordPress 6.1 does it:
 * WP_REST_Users_Controller::update_current_item_permissions_check() and update_item(), then
 * wp_update_user() / wp_insert_user() with the save filters of the profile fields, WP_User::set_role()
 * and add_role() for `roles`, and the `persisted_preferences` meta field. Everything is checked
 * first; the writes then go to the database in one transaction.
 *
 * One deliberate difference: a new `email` is not applied at once, as WordPress's REST controller
 * would, but waits for the new address to confirm it, as WordPress's profile screen does
 * (./users-email-change.ts; docs/security.md, "Email changes").
 */
import { Knex } from 'knex';
import userSchemaJson from '../../../../../schema/wp/user.json';
import { writeWordPress } from '../../../change-feed';
import { WpError } from '../../../errors';
import {
  KSES_DATA_TAGS, KSES_USER_DESCRIPTION_TAGS, escUrlRaw, isValidUsername, kses, mbStrlen, phpEmpty, phpTrim,
  sanitizeEmail, sanitizeTextField, sanitizeTitle, sanitizeUser, specialCharsNoQuotes, stripAllTags,
} from '../../../formatting';
import { hashPasswordForSite } from '../../../password-format';
import { ParamErrorDetail } from '../../args';
import type { RestRequest } from '../../route';
import { Site } from '../../../site';
import { presentUser } from './present';
import { deleteUserMeta, setUserMeta, uniqueNicename, updateUserRow, userIdByEmail, userIdByNicename } from '../../../user-queries';
import { WpUser, userMeta } from '../../../users';
import { NEW_EMAIL_META, pendingEmailFor, sendEmailChangeConfirmation } from '../../../users-email-change';

// ---------------------------------------------------------------------------------------------
// Schema and arguments
// ---------------------------------------------------------------------------------------------

/**
 * WP: WP_REST_Users_Controller::get_item_schema() on a site with avatars shown: the `locale` enum is
 * '', `en_US` and the installed `languages`. The update's args are derived from it
 * (argsForItemSchema(…, 'edit'), ../../item-schema.ts).
 */
export function userItemSchema(languages: readonly string[]): Record<string, unknown> {
  const schema = userSchemaJson as { properties: Record<string, Record<string, unknown>> };
  const locale = schema.properties.locale as { enum: string[] };
  return { ...schema, properties: { ...schema.properties, locale: { ...locale, enum: [...locale.enum, ...languages] } } };
}

// ---------------------------------------------------------------------------------------------
// Permission
// ---------------------------------------------------------------------------------------------

/**
 * WP: get_user(get_current_user_id()): the caller's row as the database holds it now, or null for an
 * anonymous caller, a user deleted meanwhile, or (multisite) a user who is not a member of this site.
 */
export async function currentUserRecord(req: RestRequest): Promise<WpUser | null> {
  if (req.user.id <= 0) return null;
  const user = await req.site.users.byId(req.user.id);
  if (!user) return null;
  if (req.site.config.multisite && !user.meta.has(req.site.db.tables.capabilitiesKey)) return null;
  return user;
}

export function invalidUserId(): WpError {
  return new WpError('rest_user_invalid_id', 'Invalid user ID.', 404);
}

/** WP: rest_authorization_required_code(). */
export function authorizationCode(req: RestRequest): number {
  return req.user.id > 0 ? 403 : 401;
}

/**
 * WP: update_current_item_permissions_check(): the caller must exist (an anonymous caller gets 404
 * rest_user_invalid_id, as WordPress answers); sending `roles` needs `promote_users`. Editing oneself
 * needs no capability (map_meta_cap() grants edit_user on oneself).
 */
export async function canUpdateCurrentUser(req: RestRequest): Promise<true | WpError> {
  if (!(await currentUserRecord(req))) return invalidUserId();
  if (!phpEmpty(req.params.roles) && !req.user.can('promote_users')) {
    return new WpError('rest_cannot_edit_roles', 'Sorry, you are not allowed to edit roles of this user.', authorizationCode(req));
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// The update
// ---------------------------------------------------------------------------------------------

/** The user meta keys wp_update_user() carries over and wp_insert_user() rewrites, in its order. */
const PROFILE_META_KEYS = [
  'nickname', 'first_name', 'last_name', 'description', 'rich_editing', 'syntax_highlighting', 'comment_shortcuts',
  'admin_color', 'use_ssl', 'show_admin_bar_front', 'locale',
] as const;


/** WP: update_current_item(): the caller's profile changed as asked; answers the user in the `edit` context. */
export async function updateCurrentUser(req: RestRequest): Promise<Record<string, unknown>> {
  const { site } = req;
  const user = await currentUserRecord(req);
  if (!user) throw invalidUserId();
  const p = sanitizedParams(req.params);
  const { knex } = site.db;

  // WP: update_item()'s own checks, in its order.
  if (typeof p.email === 'string') {
    const owner = await userIdByEmail(knex, site, p.email);
    if (owner !== null && owner !== user.ID) throw new WpError('rest_user_invalid_email', 'Invalid email address.', 400);
  }
  if (!phpEmpty(p.username) && p.username !== user.user_login) {
    throw new WpError('rest_user_invalid_argument', 'Username is not editable.', 400);
  }
  if (!phpEmpty(p.slug) && p.slug !== user.user_nicename && (await userIdByNicename(knex, site, phpTrim(p.slug as string))) !== null) {
    throw new WpError('rest_user_invalid_slug', 'Invalid slug.', 400);
  }
  const roles = p.roles === undefined ? undefined : (p.roles as unknown[]).map(String);
  if (roles && roles.length > 0) await checkRoleUpdate(req, user.ID, roles);

  const newPassHash = typeof p.password === 'string' && p.password !== user.user_pass ? await hashPasswordForSite(site.options, p.password) : null;
  // CASE: a new address is only asked for: it waits in `_new_email` until it confirms the link mailed
  // to it. The other fields are saved as usual, and the answer shows the account's current address.
  const pendingEmail = typeof p.email === 'string' ? pendingEmailFor(user, p.email) : null;
  const profile = pendingEmail ? withoutEmail(p) : p;

  await writeWordPress(site, async (trx) => {
    await writeProfile(trx, site, user, profile, newPassHash);
    if (pendingEmail) await setUserMeta(trx, site, user.ID, NEW_EMAIL_META, pendingEmail);
    if (roles !== undefined) await writeRoles(trx, site, user, roles);
    if (p.meta && typeof p.meta === 'object' && Object.hasOwn(p.meta as object, 'persisted_preferences')) {
      await writePreferences(trx, site, user.ID, (p.meta as Record<string, unknown>).persisted_preferences);
    }
  });
  site.users.forget(user.ID);
  if (pendingEmail) await sendEmailChangeConfirmation(site, user, pendingEmail);

  const fresh = await site.users.byId(user.ID);
  if (!fresh) throw invalidUserId();
  return presentUser(site, fresh, await site.capabilities.forUser(fresh), 'edit', { secure: req.secure });
}

/** The params without `email`: the profile is written with the address it has. */
function withoutEmail(params: Record<string, unknown>): Record<string, unknown> {
  const { email: _pending, ...rest } = params;
  return rest;
}

/**
 * WP: the arguments after sanitize_params(): the sanitize callbacks of the user schema (and the
 * `format` sanitizers), including the two that can refuse a value: check_username() and
 * check_user_password(). Absent (or null) params stay absent.
 */
function sanitizedParams(params: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const messages: Record<string, string> = {};
  const details: Record<string, ParamErrorDetail> = {};
  const refuse = (key: string, code: string, message: string) => {
    messages[key] = message;
    details[key] = { code, message, data: { status: 400 } };
  };
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    switch (key) {
      case 'username':
        if (!isValidUsername(String(value))) {
          refuse(key, 'rest_user_invalid_username', 'This username is invalid because it uses illegal characters. Please enter a valid username.');
        } else {
          out[key] = String(value);
        }
        break;
      case 'password': {
        const password = String(value);
        if (phpEmpty(password)) refuse(key, 'rest_user_invalid_password', 'Passwords cannot be empty.');
        else if (password.includes('\\')) refuse(key, 'rest_user_invalid_password', 'Passwords cannot contain the "\\" character.');
        else out[key] = password;
        break;
      }
      case 'name':
      case 'first_name':
      case 'last_name':
      case 'nickname':
        out[key] = sanitizeTextField(value);
        break;
      case 'email':
        out[key] = sanitizeEmail(String(value));
        break;
      case 'url':
        out[key] = escUrlRaw(String(value));
        break;
      case 'slug':
        out[key] = sanitizeTitle(String(value));
        break;
      default:
        out[key] = value;
    }
  }
  if (Object.keys(messages).length > 0) {
    throw new WpError('rest_invalid_param', `Invalid parameter(s): ${Object.keys(messages).join(', ')}`, 400, { params: messages, details });
  }
  return out;
}

/**
 * WP: check_role_update(): every role must exist, and a user changing their own roles must keep
 * `edit_users` (so an administrator cannot demote themselves by accident).
 */
async function checkRoleUpdate(req: RestRequest, userId: number, roles: string[]): Promise<void> {
  const defined = await req.site.capabilities.roles();
  for (const role of roles) {
    const definition = Object.hasOwn(defined, role) ? defined[role] : undefined;
    if (!definition) throw new WpError('rest_user_invalid_role', `The role ${role} does not exist.`, 400);
    const networkAdmin = req.site.config.multisite && req.user.can('manage_sites');
    if (!networkAdmin && req.user.id === userId && !definition.capabilities.edit_users) {
      throw new WpError('rest_user_invalid_role', 'Sorry, you are not allowed to give users that role.', authorizationCode(req));
    }
  }
}

/** The save filters of a name field (pre_user_display_name, pre_user_first_name, …). */
function filterName(value: string): string {
  return specialCharsNoQuotes(kses(sanitizeTextField(value), KSES_DATA_TAGS));
}

function metaString(user: WpUser, key: string): string {
  const value = userMeta(user, key);
  if (value === undefined || value === null || value === false) return '';
  if (value === true) return '1';
  return typeof value === 'object' ? 'Array' : String(value);
}

/**
 * WP: wp_update_user() + wp_insert_user() for an existing user: the request's fields over the stored
 * ones, every field through its save filter, the users row rewritten and the profile meta keys
 * (re)written. Failures are WordPress's (500, as its errors carry no status).
 */
async function writeProfile(trx: Knex.Transaction, site: Site, user: WpUser, p: Record<string, unknown>, newPassHash: string | null): Promise<void> {
  const given = (key: string, fallback: string): string => (typeof p[key] === 'string' ? (p[key] as string) : fallback);

  const login = phpTrim(sanitizeUser(user.user_login, true));
  if (login === '') throw new WpError('empty_user_login', 'Cannot create a user with an empty login name.', 500);
  if (mbStrlen(login) > 60) throw new WpError('user_login_too_long', 'Username may not be longer than 60 characters.', 500);

  const wantedNicename = given('slug', user.user_nicename);
  let nicename = sanitizeTitle(phpEmpty(wantedNicename) ? [...login].slice(0, 50).join('') : sanitizeUser(wantedNicename, true));
  if (mbStrlen(nicename) > 50) throw new WpError('user_nicename_too_long', 'Nicename may not be longer than 50 characters.', 500);
  nicename = await uniqueNicename(trx, site, nicename, login);

  const rawEmail = given('email', user.user_email);
  const email = kses(sanitizeEmail(phpTrim(phpEmpty(rawEmail) ? '' : rawEmail)), KSES_DATA_TAGS);
  if (email.toLowerCase() !== user.user_email.toLowerCase() && (await userIdByEmail(trx, site, email)) !== null) {
    throw new WpError('existing_user_email', 'Sorry, that email address is already used!', 500);
  }

  const rawUrl = given('url', user.user_url);
  const url = kses(escUrlRaw(stripAllTags(phpEmpty(rawUrl) ? '' : rawUrl)), KSES_DATA_TAGS);
  if (mbStrlen(url) > 100) throw new WpError('user_url_too_long', 'User URL may not be longer than 100 characters.', 500);

  const stored = (key: string) => metaString(user, key);
  const nickname = given('nickname', stored('nickname'));
  const firstName = given('first_name', stored('first_name'));
  const lastName = given('last_name', stored('last_name'));
  const displayName = given('name', user.display_name);
  const description = given('description', stored('description'));
  const commentShortcuts = stored('comment_shortcuts');
  const meta: Record<(typeof PROFILE_META_KEYS)[number], unknown> = {
    nickname: filterName(phpEmpty(nickname) ? login : nickname),
    first_name: filterName(phpEmpty(firstName) ? '' : firstName),
    last_name: filterName(phpEmpty(lastName) ? '' : lastName),
    description: kses(phpEmpty(description) ? '' : description, KSES_USER_DESCRIPTION_TAGS),
    rich_editing: phpEmpty(stored('rich_editing')) ? 'true' : stored('rich_editing'),
    syntax_highlighting: phpEmpty(stored('syntax_highlighting')) ? 'true' : stored('syntax_highlighting'),
    comment_shortcuts: phpEmpty(commentShortcuts) || commentShortcuts === 'false' ? 'false' : 'true',
    admin_color: (phpEmpty(stored('admin_color')) ? 'fresh' : stored('admin_color')).replace(/[^a-z0-9 _.\-@]/gi, ''),
    use_ssl: phpEmpty(stored('use_ssl')) ? 0 : true,
    show_admin_bar_front: phpEmpty(stored('show_admin_bar_front')) ? 'true' : stored('show_admin_bar_front'),
    locale: given('locale', stored('locale')),
  };

  const userPass = newPassHash ?? user.user_pass;
  const row: Record<string, unknown> = {
    user_pass: userPass,
    user_nicename: nicename,
    user_email: email,
    user_url: url,
    display_name: filterName(phpEmpty(displayName) ? login : displayName),
  };
  if (email !== user.user_email || userPass !== user.user_pass) row.user_activation_key = '';
  await updateUserRow(trx, site, user, row);
  for (const key of PROFILE_META_KEYS) await setUserMeta(trx, site, user.ID, key, meta[key]);
}

/**
 * WP: `roles` in the request: wp_insert_user() calls set_role(false), which takes every role away and
 * keeps the other capabilities, then the controller adds each requested role in turn (so `[]` leaves
 * the user with no role). The user level follows the resulting capabilities.
 */
async function writeRoles(trx: Knex.Transaction, site: Site, user: WpUser, roles: string[]): Promise<void> {
  const defined = await site.capabilities.roles();
  const stored = userMeta(user, site.db.tables.capabilitiesKey);
  const caps: Record<string, unknown> = stored && typeof stored === 'object' && !Array.isArray(stored) ? { ...stored } : {};
  for (const key of Object.keys(caps)) if (Object.hasOwn(defined, key)) delete caps[key];
  for (const role of roles) if (!phpEmpty(role) && !Object.hasOwn(caps, role)) caps[role] = true;

  const allcaps: Record<string, unknown> = {};
  for (const key of Object.keys(caps)) if (Object.hasOwn(defined, key)) Object.assign(allcaps, defined[key]?.capabilities);
  Object.assign(allcaps, caps);
  let level = 0;
  for (const key of Object.keys(allcaps)) {
    const m = /^level_(10|[0-9])$/i.exec(key);
    if (m) level = Math.max(level, Number(m[1]));
  }
  await setUserMeta(trx, site, user.ID, site.db.tables.capabilitiesKey, caps);
  await setUserMeta(trx, site, user.ID, `${site.db.tables.blogPrefix}user_level`, level);
}

/**
 * WP: WP_REST_Meta_Fields::update_value() for `persisted_preferences`: null deletes it; an object is
 * stored (its `_modified` through sanitize_text_field()), unless it is already what is stored.
 */
async function writePreferences(trx: Knex.Transaction, site: Site, userId: number, value: unknown): Promise<void> {
  const key = `${site.db.tables.blogPrefix}persisted_preferences`;
  if (value === null) {
    await deleteUserMeta(trx, site, userId, key);
    return;
  }
  let prefs: unknown = value;
  if (prefs && typeof prefs === 'object' && !Array.isArray(prefs) && typeof (prefs as Record<string, unknown>)._modified === 'string') {
    prefs = { ...(prefs as Record<string, unknown>), _modified: sanitizeTextField((prefs as Record<string, unknown>)._modified) };
  }
  await setUserMeta(trx, site, userId, key, prefs === '' ? [] : prefs);
}
