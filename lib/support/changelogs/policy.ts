/**
 * Who may use the internal changelog routes, decided as WordPress's map_meta_cap() decides for a
 * custom post type (docs/changelogs.md). The plugin registers `svc_doc` and `svc_changelog` with
 * `map_meta_cap => true` and their primitive capabilities mapped onto `svc_manage` (WordPress roles
 * have no doc or changelog capabilities; support managers and administrators hold `svc_manage`):
 * - "can edit docs" is the `svc_doc` type's `edit_posts`;
 * - "can edit that changelog" is `edit_post` on the `svc_changelog` post, which map_meta_cap turns
 *   into `edit_posts` / `edit_published_posts` for its author and `edit_others_posts` (plus
 *   `edit_published_posts` or `edit_private_posts` by its status) for anyone else.
 */
import { CurrentUser } from '../../wp/auth/current-user';
import { Product } from './store';

type PrimitiveCap = 'edit_posts' | 'edit_others_posts' | 'edit_published_posts' | 'edit_private_posts';

/** WP: register_post_type()'s `capabilities` for svc_doc and svc_changelog. */
export const POST_TYPE_CAPS: Readonly<Record<PrimitiveCap, string>> = {
  edit_posts: 'svc_manage',
  edit_others_posts: 'svc_manage',
  edit_published_posts: 'svc_manage',
  edit_private_posts: 'svc_manage',
};

export function canEditDocs(user: CurrentUser): boolean {
  return user.id > 0 && user.can(POST_TYPE_CAPS.edit_posts);
}

export function canEditChangelog(user: CurrentUser, product: Pick<Product, 'authorId' | 'status'>): boolean {
  return user.id > 0 && editPostCaps(user.id, product).every((cap) => user.can(POST_TYPE_CAPS[cap]));
}

/** WP: map_meta_cap('edit_post', $user_id, $post_id) for a post type with map_meta_cap. */
function editPostCaps(userId: number, post: Pick<Product, 'authorId' | 'status'>): PrimitiveCap[] {
  if (post.authorId && post.authorId === userId) return post.status === 'publish' ? ['edit_published_posts'] : ['edit_posts'];
  const caps: PrimitiveCap[] = ['edit_others_posts'];
  if (post.status === 'publish' || post.status === 'future') caps.push('edit_published_posts');
  else if (post.status === 'private') caps.push('edit_private_posts');
  return caps;
}
