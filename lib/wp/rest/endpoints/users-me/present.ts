/**
 * WP: WP_REST_Users_Controller::prepare_item_for_response(): a user as the REST API shows it, in the
 * `view`, `embed` or `edit` context, with the fields in WordPress's order.
 */
import { createHash } from 'node:crypto';
import type { FromSchema } from 'json-schema-to-ts';
import { contextArg } from '../../../../../schema/wp/context-arg';
import { UserCapabilities } from '../../../capabilities';
import { PhpValue, maybeUnserialize, toPlain } from '../../../php';
import { isRestDate } from '../../../formatting';
import { permalinkFront, userTrailingSlashIt } from '../../../rewrite';
import { Site } from '../../../site';
import { WpUser, userMeta } from '../../../users';

/** The `context` param's values (schema/wp/context-arg.ts). */
export type UserContext = FromSchema<typeof contextArg>;

export interface PresentUserOptions {
  /** The request came over HTTPS (is_ssl()): avatars then point at secure.gravatar.com. */
  secure?: boolean;
}

export async function presentUser(
  site: Site, user: WpUser, caps: UserCapabilities, context: UserContext, options: PresentUserOptions = {},
): Promise<Record<string, unknown>> {
  const edit = context === 'edit';
  const data: Record<string, unknown> = { id: user.ID };
  if (edit) data.username = user.user_login;
  data.name = user.display_name;
  if (edit) {
    data.first_name = metaText(user, 'first_name');
    data.last_name = metaText(user, 'last_name');
    data.email = user.user_email;
  }
  data.url = user.user_url;
  data.description = metaText(user, 'description');
  data.link = await authorLink(site, user);
  if (edit) {
    // WP: get_user_locale(): the user's own locale, else the site's.
    data.locale = metaText(user, 'locale') || String(await site.options.get('WPLANG', '') || 'en_US');
    data.nickname = metaText(user, 'nickname');
  }
  data.slug = user.user_nicename;
  if (edit) {
    data.roles = caps.roles;
    data.registered_date = phpIsoDate(user.user_registered);
    data.capabilities = caps.allcaps;
    data.extra_capabilities = ownCapabilities(site, user);
  }
  if (await site.options.get('show_avatars', '1')) data.avatar_urls = await avatarUrls(site, user.user_email, options.secure === true);
  if (context !== 'embed') data.meta = edit ? { persisted_preferences: persistedPreferences(site, user) } : [];
  const base = await site.restUrl('/wp/v2/users');
  data._links = { self: [{ href: `${base}/${user.ID}` }], collection: [{ href: base }] };
  return data;
}

function metaText(user: WpUser, key: string): string {
  const value = userMeta(user, key);
  return value === undefined || value === null ? '' : String(value);
}

/** The user's own capability keys (roles included), as WordPress keeps them in usermeta. */
function ownCapabilities(site: Site, user: WpUser): Record<string, boolean> {
  const own = userMeta(user, site.db.tables.capabilitiesKey);
  const out: Record<string, boolean> = {};
  if (own && typeof own === 'object') for (const [k, v] of Object.entries(own)) out[k] = Boolean(v);
  return out;
}

/**
 * WP 6.1: the `persisted_preferences` user meta field (registered for the block editor, `edit` context
 * only): its stored value when it is an object whose `_modified` is a date, `[]` (the registered
 * default) when there is none, and null when the stored value does not fit the field's schema.
 */
function persistedPreferences(site: Site, user: WpUser): unknown {
  const raw = user.meta.get(`${site.db.tables.blogPrefix}persisted_preferences`)?.[0];
  if (raw === undefined) return [];
  const value = toPlain(maybeUnserialize(raw) as PhpValue);
  if (value === '') return [];
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) return value;
  const modified = (value as Record<string, unknown>)._modified;
  if (modified !== undefined && (typeof modified !== 'string' || !isRestDate(modified))) return null;
  return value;
}

/** WP: gmdate('c', strtotime($user_registered)) for the stored UTC `Y-m-d H:i:s`; a zero date rolls back as PHP's does. */
export function phpIsoDate(mysqlDate: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(mysqlDate);
  const date = new Date(0);
  if (m) {
    const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
    date.setUTCFullYear(y as number, (mo as number) - 1, d as number);
    date.setUTCHours(h as number, mi as number, s as number, 0);
  }
  const year = date.getUTCFullYear();
  const yyyy = year < 0 ? `-${String(-year).padStart(4, '0')}` : String(year).padStart(4, '0');
  const two = (n: number) => String(n).padStart(2, '0');
  return `${yyyy}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}T${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}+00:00`;
}

/**
 * WP: get_author_posts_url(): with pretty permalinks, the structure's front, `author/<nicename>` and a
 * slash when the structure ends with one (`/blog/author/<nicename>/` on a subdirectory network's main
 * site); ?author=<id> otherwise.
 */
async function authorLink(site: Site, user: WpUser): Promise<string> {
  const home = await site.homeUrl();
  const structure = String((await site.options.get('permalink_structure', '')) || '');
  if (!structure) return `${home}/?author=${user.ID}`;
  const link = userTrailingSlashIt(`${permalinkFront(structure)}author/${user.user_nicename}`, structure);
  return `${home}/${link.replace(/^\/+/, '')}`;
}

/**
 * WP 6.1: get_avatar_data(): an MD5 of the trimmed, lower-cased email on one of three gravatar
 * hosts (chosen by the hash's first hex digit), or on secure.gravatar.com over HTTPS, with the
 * site's default image and rating.
 */
async function avatarUrls(site: Site, email: string, secure: boolean): Promise<Record<string, string>> {
  const hash = createHash('md5').update(email.trim().toLowerCase()).digest('hex');
  const server = parseInt(hash[0] as string, 16) % 3;
  const host = secure ? 'https://secure.gravatar.com' : `http://${server}.gravatar.com`;
  const fallback = avatarDefault(String(await site.options.get('avatar_default', 'mystery')));
  const rating = String(await site.options.get('avatar_rating', 'G')).toLowerCase();
  const urls: Record<string, string> = {};
  for (const size of [24, 48, 96]) {
    const query = [`s=${size}`, fallback ? `d=${encodeURIComponent(fallback)}` : '', rating ? `r=${rating}` : ''].filter(Boolean).join('&');
    urls[String(size)] = `${host}/avatar/${hash}?${query}`;
  }
  return urls;
}

function avatarDefault(option: string): string {
  if (['mystery', 'mm', 'mysteryman'].includes(option)) return 'mm';
  if (option === 'gravatar_default') return '';
  return option;
}
