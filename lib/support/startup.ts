/**
 * What the support desk checks when a server starts: its storage (which sets or clears the
 * setup-failed notice) and whether the opt-in `svc_*` indexes are there (a large site's ticket list
 * and mail intake need them; everything works without). The job worker is started beside it (lib/worker.ts).
 */
import { Logger } from '../logger';
import { Site } from '../wp/site';
import { indexStatus } from './db-indexes';
import { refreshSetupNotice } from './storage-check';

export async function checkSupportDeskAtStartup(site: Site, logger: Logger): Promise<void> {
  const problem = await refreshSetupNotice(site);
  if (problem) logger.error(`Support desk storage check failed; ticket and mail routes answer 503 until it passes: ${problem}`);
  const missing = (await indexStatus(site.db)).filter((s) => !s.present).map((s) => `${s.table}.${s.index.name}`);
  if (missing.length) {
    logger.info(`Optional svc_* indexes are missing (${missing.join(', ')}): ticket lists and mail intake stay correct but are slow on large sites. Add them with: understudy db index add`);
  }
}
