/**
 * WP: WP_REST_Users_Controller::prepare_item_for_response() for the fields a client reads to check
 * who it is signed in as: the `view`/`embed` fields, plus the `edit` fields for the user themself.
 */
import { createHash } from 'node:crypto';
import { UserCapabilities } from './capabilities';
import { Site } from './site';
import { WpUser, userMeta } from './users';

export type UserContext = 'view' | 'embed' | 'edit';

export async function presentUser(site: Site, user: WpUser, caps: UserCapabilities, context: UserContext): Promise<Record<string, unknown>> {
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
    data.locale = metaText(user, 'locale') || String(await site.options.get('WPLANG', '') || 'en_US');
    data.nickname = metaText(user, 'nickname');
  }
  data.slug = user.user_nicename;
  if (edit) {
    data.registered_date = `${user.user_registered.replace(' ', 'T')}+00:00`;
    data.roles = caps.roles;
    data.capabilities = caps.allcaps;
    data.extra_capabilities = ownCapabilities(site, user);
  }
  if (await site.options.get('show_avatars', '1')) data.avatar_urls = await avatarUrls(site, user.user_email);
  if (context !== 'embed') data.meta = [];
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

/** WP: get_author_posts_url(): /author/<nicename>/ with pretty permalinks, ?author=<id> otherwise. */
async function authorLink(site: Site, user: WpUser): Promise<string> {
  const home = await site.homeUrl();
  const pretty = Boolean(await site.options.get('permalink_structure', ''));
  return pretty ? `${home}/author/${user.user_nicename}/` : `${home}/?author=${user.ID}`;
}

/**
 * WP 6.1: get_avatar_data(): an MD5 of the trimmed, lower-cased email on one of three gravatar
 * hosts (chosen by the hash's first hex digit), with the site's default image and rating.
 */
async function avatarUrls(site: Site, email: string): Promise<Record<string, string>> {
  const hash = createHash('md5').update(email.trim().toLowerCase()).digest('hex');
  const server = parseInt(hash[0] as string, 16) % 3;
  const fallback = avatarDefault(String(await site.options.get('avatar_default', 'mystery')));
  const rating = String(await site.options.get('avatar_rating', 'G')).toLowerCase();
  const urls: Record<string, string> = {};
  for (const size of [24, 48, 96]) {
    const query = [`s=${size}`, fallback ? `d=${encodeURIComponent(fallback)}` : '', rating ? `r=${rating}` : ''].filter(Boolean).join('&');
    urls[String(size)] = `http://${server}.gravatar.com/avatar/${hash}?${query}`;
  }
  return urls;
}

function avatarDefault(option: string): string {
  if (['mystery', 'mm', 'mysteryman'].includes(option)) return 'mm';
  if (option === 'gravatar_default') return '';
  return option;
}
