/**
 * What the support desk checks when a server starts: its storage (which sets or clears the
 * setup-failed notice) and whether the opt-in `svc_*` indexes are there (a large site's ticket list
 * needs them; everything works without).
 */
import { Logger } from '../logger';
import { Site } from '../wp/site';
import { indexStatus } from './db-indexes';
import { startSupportWorker } from './jobs/start';
import { refreshSetupNotice } from './storage-check';

export async function checkSupportDeskAtStartup(site: Site, logger: Logger): Promise<void> {
  const problem = await refreshSetupNotice(site);
  if (problem) logger.error(`Support desk storage check failed; ticket and mail routes answer 503 until it passes: ${problem}`);
  const missing = (await indexStatus(site.db)).filter((s) => !s.present).map((s) => `${s.table}.${s.index.name}`);
  if (missing.length) {
    logger.info(`Optional svc_* indexes are missing (${missing.join(', ')}): ticket lists stay correct but are slow on large sites. Add them with: understudy db index add`);
  }
}

/** A running support desk: its job worker, when there is one. */
export interface SupportDesk {
  stop(): Promise<void>;
}

/**
 * What every server process of the site runs: the start-up check, then the job worker (team alerts,
 * reply emails; docs/outbound.md), unless this process must not send anything (a proxy shadowing
 * writes into a copy of the database).
 */
export async function startSupportDesk(site: Site, logger: Logger, options: { worker: boolean } = { worker: true }): Promise<SupportDesk> {
  await checkSupportDeskAtStartup(site, logger);
  const worker = options.worker ? startSupportWorker(site) : null;
  return { stop: async () => { await worker?.stop(); } };
}
