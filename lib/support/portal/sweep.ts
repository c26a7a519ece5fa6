/**
 * Expired sign-in codes and sessions are deleted at each sign-in: they open nothing (their checks
 * compare `expires_at`), and an expired code's 60-second resend wait has long passed (a code lives
 * 10 minutes). Any process may sweep; deleting a row twice is harmless.
 */
import { unixSeconds } from '../../wp/clock';
import { Site } from '../../wp/site';

export async function sweepExpiredPortalRows(site: Site): Promise<void> {
  const now = unixSeconds(site.clock);
  for (const table of ['portal_codes', 'portal_sessions']) {
    await site.db.knex(site.db.tables.plugin('svc', table)).where('expires_at', '<=', now).del();
  }
}
