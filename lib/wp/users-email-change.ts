/**
 * WP: asking for a new email address of one's own account, as WordPress's profile screen does it
 * (send_confirmation_on_profile_email()): the account keeps its address; the wanted one and a random
 * hash go into the user meta `_new_email`, PHP-serialized as `['hash' => …, 'newemail' => …]`, and a
 * link `<site>/wp-admin/profile.php?newuseremail=<hash>` is mailed to the wanted address. Opening the
 * link signed in as the same user applies it (./users-email-confirm.ts, or PHP's own profile.php: the
 * meta is in exactly the shape PHP reads). See docs/security.md, "Email changes".
 */
import { randomBytes } from 'node:crypto';
import { Knex } from 'knex';
import { MailMessage } from '../mail/mailer';
import { KSES_DATA_TAGS, kses, phpEmpty, phpTrim, sanitizeEmail } from './formatting';
import { maybeUnserialize, toPlain } from './php';
import { Site } from './site';
import { WpUser } from './users';

/** The user meta key (no blog prefix: it is network-wide, as in WordPress). */
export const NEW_EMAIL_META = '_new_email';

/** What `_new_email` holds: the confirmation hash and the address waiting for it. */
export interface PendingEmail {
  hash: string;
  newemail: string;
}

/** WP: the save filters of `user_email` (pre_user_email: trim, sanitize_email, kses), as wp_insert_user() applies them. */
export function userEmailForSave(raw: string): string {
  return kses(sanitizeEmail(phpTrim(phpEmpty(raw) ? '' : raw)), KSES_DATA_TAGS);
}

/**
 * The change `requested` asks of `user`, or null when it asks none (the saved address would be the
 * current one, compared exactly as WordPress's profile screen does, so a change of case also waits).
 * `newemail` is the address as asked for (sanitized, where the email goes); the save filters run once,
 * when it is confirmed. The hash has the shape of WordPress's (32 hex digits) but comes from a CSPRNG.
 */
export function pendingEmailFor(user: WpUser, requested: string): PendingEmail | null {
  const saved = userEmailForSave(requested);
  if (saved === '' || saved === user.user_email) return null;
  return { hash: randomBytes(16).toString('hex'), newemail: sanitizeEmail(phpTrim(requested)) };
}

/** WP: get_user_meta($id, '_new_email', true), read from the table (not a cache), or null unless it has both fields as strings. */
export async function storedPendingEmail(q: Knex | Knex.Transaction, site: Site, userId: number): Promise<PendingEmail | null> {
  const row = await q(site.db.tables.usermeta).where({ user_id: userId, meta_key: NEW_EMAIL_META }).orderBy('umeta_id').first('meta_value');
  if (!row) return null;
  const value = toPlain(maybeUnserialize(String(row.meta_value ?? '')));
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const { hash, newemail } = value as Record<string, unknown>;
  return typeof hash === 'string' && typeof newemail === 'string' ? { hash, newemail } : null;
}

/** The confirmation link: WordPress's admin_url('profile.php?newuseremail=<hash>'). */
export async function confirmationLink(site: Site, hash: string): Promise<string> {
  return `${await site.siteUrl()}/wp-admin/profile.php?newuseremail=${encodeURIComponent(hash)}`;
}

/** The email to the wanted address: who asked, the link, and that ignoring it changes nothing. */
export async function emailChangeMessage(site: Site, user: WpUser, pending: PendingEmail): Promise<MailMessage> {
  const siteName = oneLine(decodeSpecialChars(String((await site.options.get('blogname', '')) || '')));
  const text = [
    `Hello ${user.user_login},`,
    '',
    `You asked to change the email address of your account on ${siteName} to this address.`,
    '',
    'To confirm the change, open this link while you are signed in:',
    await confirmationLink(site, pending.hash),
    '',
    'If you did not ask for this, ignore this email: your account keeps its current address.',
    '',
    `This email was sent to ${pending.newemail}`,
    '',
    siteName,
    await site.homeUrl(),
  ].join('\n');
  return { to: pending.newemail, subject: `[${siteName}] Email Change Request`, text };
}

/**
 * Sends the confirmation email. As in WordPress, a failure to send does not undo the request (the
 * user can ask again); it is logged, without the hash.
 */
export async function sendEmailChangeConfirmation(site: Site, user: WpUser, pending: PendingEmail): Promise<void> {
  try {
    await site.mailer.send(await emailChangeMessage(site, user, pending));
  } catch (err) {
    site.logger.error('email change confirmation could not be sent', { user_id: user.ID, error: err instanceof Error ? err.message : String(err) });
  }
}

/** WP: wp_specialchars_decode($text, ENT_QUOTES) for the five entities it knows. */
function decodeSpecialChars(text: string): string {
  return text.replace(/&(?:lt|gt|quot|#0*39|#x0*27|amp);/gi, (entity) => {
    const name = entity.slice(1, -1).toLowerCase();
    if (name === 'lt') return '<';
    if (name === 'gt') return '>';
    if (name === 'quot') return '"';
    if (name === 'amp') return '&';
    return "'";
  });
}

/** A header-safe value: line breaks folded to spaces. */
function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}
