/**
 * What WordPress core 6.1 removes from its object cache when PHP makes the change a WordPressChanges
 * records, as (group, key) pairs in WordPress's own terms; each drop-in's adapter turns them into
 * its keys. Read from 6.1's cache-cleaning functions (see docs/object-cache.md for each):
 *
 * - a post (clean_post_cache(), which every insert, update, trash and delete of a post reaches):
 *   `posts:<ID>` and `post_meta:<ID>`; through clean_object_term_cache(), the post's
 *   `<taxonomy>_relationships:<ID>` for each taxonomy of its type and `terms:last_changed`;
 *   `general:wp_get_archives`; for a page also `posts:all_page_ids`; then a new `posts:last_changed`.
 *   Through _transition_post_status() (a post published, unpublished, or changed while published),
 *   the `timeinfo` keys `lastpostmodified:<tz>`, `lastpostdate:<tz>` and `lastpostdate:<tz>:<type>`.
 *   6.1 does not clean the parent: wp_insert_post() cleans only the post it wrote.
 * - post meta (update_metadata(), add_metadata(), delete_metadata()): `post_meta:<ID>`, and the
 *   actions they fire set a new `posts:last_changed` (wp_cache_set_posts_last_changed()).
 * - an option (update_option(), add_option(), delete_option()): PHP rewrites `options:alloptions`
 *   when the option is autoloaded, otherwise `options:<name>`, and takes the name out of
 *   `options:notoptions`. Understudy does not know which applied, so all three go.
 * - a user (clean_user_cache()): `users:<ID>`, `userlogins:<login>`, `userslugs:<nicename>`,
 *   `useremail:<email>`, for the old and the new values when a write changed one.
 * - user meta (update_metadata() for users): `user_meta:<ID>`; 6.1 keeps no user query cache.
 * - a term (clean_term_cache()): `terms:<ID>`, and a new `terms:last_changed`.
 * - a comment (clean_comment_cache()): `comment:<ID>`, and a new `comment:last_changed`; when an
 *   approved comment is added or changes status (wp_insert_comment(),
 *   _clear_modified_cache_on_transition_comment_status()), `timeinfo:lastcommentmodified:<tz>`.
 *
 * Where PHP stores a new value (rebuilt `alloptions`, `notoptions` without the name, a fresh
 * `last_changed`), Understudy deletes instead: it never stores a value PHP would trust unless it is
 * byte-for-byte what PHP would store, and every one of these keys is rebuilt by PHP when missing
 * (wp_load_alloptions() reads the table again; get_option() treats a missing `notoptions` as empty;
 * wp_cache_get_last_changed() makes a new `last_changed` with microtime()). A deleted
 * `last_changed` orphans every query result keyed with the old one (`wp_query-<md5>-<last_changed>`),
 * exactly as a new value does.
 */
import { WordPressChanges } from '../changes';

/** One entry of WordPress's object cache, as wp_cache_delete( $key, $group ) names it. */
export interface CacheKey {
  group: string;
  key: string;
}

export interface CoreInvalidation {
  /** Entries to delete, each once. */
  keys: CacheKey[];
  /** Groups whose `last_changed` must change (deleted by the adapters, see above). */
  lastChanged: string[];
}

/**
 * The groups WordPress 6.1 declares global (wp_start_object_cache(), wp_cache_add_global_groups()):
 * shared by every site of a network, so keyed without the blog prefix.
 */
export const CORE_GLOBAL_GROUPS: readonly string[] = [
  'blog-details', 'blog-id-cache', 'blog-lookup', 'blog_meta', 'global-posts', 'networks', 'sites',
  'site-details', 'site-options', 'site-transient', 'rss', 'users', 'useremail', 'userlogins',
  'usermeta', 'user_meta', 'userslugs',
];

/** The groups WordPress 6.1 keeps in memory only (wp_cache_add_non_persistent_groups()). */
export const CORE_NON_PERSISTENT_GROUPS: readonly string[] = ['counts', 'plugins'];

/** Post type → its taxonomies (get_object_taxonomies()). */
export type PostTypeTaxonomies = Readonly<Record<string, readonly string[]>>;

/**
 * The taxonomies get_object_taxonomies() answers on a site with only core's registrations. A
 * plugin's are registered in PHP, which Understudy does not run: the caller adds them
 * (`pluginTaxonomies`), and core's stay.
 */
export const CORE_POST_TYPE_TAXONOMIES: PostTypeTaxonomies = {
  post: ['category', 'post_tag', 'post_format'],
  nav_menu_item: ['nav_menu'],
};

/**
 * The timezones of the `timeinfo` dates WordPress deletes: _transition_post_status() when a published
 * post changes or a post is published or unpublished (the feeds' Last-Modified, get_lastpostmodified(),
 * get_lastpostdate(), and the latest post date per post type), and the comment functions when an
 * approved comment changes (get_lastcommentmodified()). Whether the post was published or the comment
 * approved is not recorded: they go for every post and comment (a delete PHP did not need only makes
 * it read the date from the table again).
 */
const TIMEINFO_TIMEZONES = ['server', 'gmt', 'blog'];

export function coreInvalidation(changes: WordPressChanges, pluginTaxonomies: PostTypeTaxonomies = {}): CoreInvalidation {
  const keys = new KeyList();
  const lastChanged = new Set<string>();
  for (const post of changes.posts.values()) {
    keys.add('posts', post.id).add('post_meta', post.id).add('general', 'wp_get_archives');
    for (const taxonomy of taxonomiesOf(post.type, pluginTaxonomies)) keys.add(`${taxonomy}_relationships`, post.id);
    if (post.type === 'page') keys.add('posts', 'all_page_ids');
    for (const timezone of TIMEINFO_TIMEZONES) {
      keys.add('timeinfo', `lastpostmodified:${timezone}`).add('timeinfo', `lastpostdate:${timezone}`).add('timeinfo', `lastpostdate:${timezone}:${post.type}`);
    }
    lastChanged.add('posts').add('terms');
  }
  for (const postId of changes.postMeta.keys()) {
    keys.add('post_meta', postId);
    lastChanged.add('posts');
  }
  for (const name of changes.options) keys.add('options', 'alloptions').add('options', 'notoptions').add('options', name);
  for (const user of changes.users.values()) {
    keys.add('users', user.id);
    for (const login of user.logins) keys.add('userlogins', login);
    for (const nicename of user.nicenames) keys.add('userslugs', nicename);
    for (const email of user.emails) keys.add('useremail', email);
  }
  for (const userId of changes.userMeta.keys()) keys.add('user_meta', userId);
  for (const termId of changes.terms) {
    keys.add('terms', termId);
    lastChanged.add('terms');
  }
  for (const commentId of changes.comments) {
    keys.add('comment', commentId);
    for (const timezone of TIMEINFO_TIMEZONES) keys.add('timeinfo', `lastcommentmodified:${timezone}`);
    lastChanged.add('comment');
  }
  return { keys: keys.list, lastChanged: [...lastChanged] };
}

/** Core's taxonomies of the post type, then those a plugin registers for it. */
function taxonomiesOf(postType: string, pluginTaxonomies: PostTypeTaxonomies): string[] {
  return [...new Set([...CORE_POST_TYPE_TAXONOMIES[postType] ?? [], ...pluginTaxonomies[postType] ?? []])];
}

/** (group, key) pairs in first-seen order, without repeats. */
class KeyList {
  readonly list: CacheKey[] = [];
  private readonly seen = new Set<string>();

  add(group: string, key: string | number): this {
    const id = `${group}\u0000${key}`;
    if (!this.seen.has(id)) {
      this.seen.add(id);
      this.list.push({ group, key: String(key) });
    }
    return this;
  }
}
