/**
 * `portal_code_email` jobs (`{site_id, email, sealed}`): email a portal sign-in code. The code travels
 * sealed (lib/support/portal/secret.ts); a site deleted or switched off meanwhile gets nothing. A code
 * is only useful for 10 minutes, so a failed send is retried briefly and then dropped.
 */
import { JobHandler, PermanentJobError } from '../../../jobs/handler';
import { ClaimedJob } from '../../../jobs/queue';
import { Site } from '../../../wp/site';
import { composeCodeEmail } from '../../portal/email';
import { unsealCode } from '../../portal/secret';
import { findSite } from '../../sites/store';

export const portalCodeHandler: JobHandler = {
  retryDelays: [15, 60, 180],
  async run(site: Site, job: ClaimedJob): Promise<void> {
    const { site_id: siteId, email, sealed } = (job.payload ?? {}) as { site_id?: unknown; email?: unknown; sealed?: unknown };
    if (typeof siteId !== 'string' || typeof email !== 'string' || typeof sealed !== 'string') throw new PermanentJobError('The job names no code (payload.site_id, email, sealed).');
    const portal = await findSite(site.db, siteId);
    if (!portal || !portal.portal) return;
    let code: string;
    try {
      code = await unsealCode(site, siteId, sealed);
    } catch {
      throw new PermanentJobError('The sealed code cannot be opened (the salts changed?).');
    }
    await site.mailer.send(await composeCodeEmail(site, portal, email, code));
  },
};
