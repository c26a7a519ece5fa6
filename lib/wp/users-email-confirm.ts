/**
 * WP: applying a confirmed email change, as wp-admin/user-edit.php does for
 * `profile.php?newuseremail=<hash>`: the hash must equal (constant-time) the one in the signed-in
 * user's own `_new_email`; then the address becomes the account's and the meta is deleted. Unlike
 * WordPress, an address another account took meanwhile is refused plainly (WordPress's update fails
 * silently there); the pending request is dropped either way, as in WordPress.
 */
import { writeWordPress } from './change-feed';
import { hashEquals } from './passwords';
import { Site } from './site';
import { NEW_EMAIL_META, storedPendingEmail, userEmailForSave } from './users-email-change';
import { deleteUserMeta, updateUserRow, userIdByEmail } from './user-queries';

/** What opening the link did: `changed` (to `email`), `invalid` (no pending change with this hash: nothing changed), `taken`. */
export type EmailConfirmation =
  | { result: 'changed'; email: string }
  | { result: 'invalid' }
  | { result: 'taken'; email: string };

/** Confirms the pending email change of `userId` with `hash`; everything is read and written in one transaction. */
export async function confirmEmailChange(site: Site, userId: number, hash: unknown): Promise<EmailConfirmation> {
  const { tables } = site.db;
  const outcome = await writeWordPress(site, async (trx): Promise<EmailConfirmation> => {
    const pending = await storedPendingEmail(trx, site, userId);
    if (!pending || typeof hash !== 'string' || !hashEquals(pending.hash, hash)) return { result: 'invalid' };
    const email = userEmailForSave(pending.newemail);
    if (email === '') return { result: 'invalid' };
    const dropPending = () => deleteUserMeta(trx, site, userId, NEW_EMAIL_META);
    const owner = await userIdByEmail(trx, site, email);
    if (owner !== null && owner !== userId) {
      await dropPending();
      return { result: 'taken', email };
    }
    const current = await trx(tables.users).where({ ID: userId }).first('ID', 'user_login', 'user_email', 'user_nicename');
    if (!current) return { result: 'invalid' };
    // WP: wp_insert_user() empties the password-reset key whenever the address changes (compared exactly).
    if (String(current.user_email) !== email) await updateUserRow(trx, site, current, { user_email: email, user_activation_key: '' });
    await dropPending();
    return { result: 'changed', email };
  });
  if (outcome.result !== 'invalid') site.users.forget(userId);
  return outcome;
}
