/**
 * WP: deleting the signed-in user through `DELETE /wp/v2/users/me`, as WordPress 6.1 does it:
 * delete_current_item_permissions_check() and delete_item(), then wp_delete_user() with a user to
 * reassign the posts and links to. The writes go to the database in one transaction.
 */
import { writeWordPress } from '../../../change-feed';
import { WpError } from '../../../errors';
import type { RestRequest } from '../../route';
import { presentUser } from './present';
import { authorizationCode, currentUserRecord, invalidUserId } from './update';

/**
 * WP: delete_current_item_permissions_check(): the caller must exist (404 rest_user_invalid_id
 * otherwise, anonymous callers included) and hold `delete_users`, which on a multisite network only
 * super admins do.
 */
export async function canDeleteCurrentUser(req: RestRequest): Promise<true | WpError> {
  if (!(await currentUserRecord(req))) return invalidUserId();
  const allowed = req.site.config.multisite ? req.user.caps.isSuperAdmin : req.user.can('delete_users');
  if (!allowed) return new WpError('rest_user_cannot_delete', 'Sorry, you are not allowed to delete this user.', authorizationCode(req));
  return true;
}

/**
 * WP: delete_current_item(): `force` must be true (users have no trash); `reassign` names who gets
 * the user's posts and links (absint() of it; 0 hands them to no one, as WordPress does). Answers
 * `{deleted: true, previous: <the user in the edit context>}`.
 */
export async function deleteCurrentUser(req: RestRequest): Promise<Record<string, unknown>> {
  const { site } = req;
  if (site.config.multisite) throw new WpError('rest_cannot_delete', 'The user cannot be deleted.', 501);
  const user = await currentUserRecord(req);
  if (!user) throw invalidUserId();
  const reassign = Math.abs(Math.trunc(Number(req.params.reassign)));
  if (req.params.force !== true) {
    throw new WpError('rest_trash_not_supported', "Users do not support trashing. Set 'force=true' to delete.", 501);
  }
  if (reassign !== 0 && (reassign === user.ID || !(await site.users.byId(reassign)))) {
    throw new WpError('rest_user_invalid_reassign', 'Invalid user ID for reassignment.', 400);
  }
  const previous = await presentUser(site, user, await site.capabilities.forUser(user), 'edit', { secure: req.secure });

  const { knex, tables } = site.db;
  // Sites WordPress installed have a links table; a database Understudy made may not.
  const links = `${tables.blogPrefix}links`;
  const hasLinks = await knex.schema.hasTable(links);
  await writeWordPress(site, async (trx, changes) => {
    // The rows are read first for the record: each reassigned post, each meta key, the user's keys.
    const posts = await trx(tables.posts).where({ post_author: user.ID }).select('ID', 'post_type', 'post_parent');
    const metaKeys = await trx(tables.usermeta).where({ user_id: user.ID }).distinct('meta_key');
    await trx(tables.posts).where({ post_author: user.ID }).update({ post_author: reassign });
    if (hasLinks) await trx(links).where({ link_owner: user.ID }).update({ link_owner: reassign });
    await trx(tables.usermeta).where({ user_id: user.ID }).del();
    await trx(tables.users).where({ ID: user.ID }).del();
    for (const p of posts) changes.post(Number(p.ID), String(p.post_type), Number(p.post_parent));
    for (const m of metaKeys) changes.userMetaKey(user.ID, String(m.meta_key));
    changes.user(user.ID, { login: user.user_login, email: user.user_email, nicename: user.user_nicename });
  });
  site.users.forget(user.ID);
  return { deleted: true, previous };
}
