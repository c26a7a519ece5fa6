/**
 * The setup-failed notice (storage map: option `svc_setup_failed`). While it holds a reason, ticket
 * and mail routes answer 503 `storage_unavailable`. Understudy sets it when its storage check fails
 * and clears it once the check passes again; a database that stops answering gives the same 503
 * without the option, and recovers as soon as it answers.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { isUnavailableError } from '../wp/db/errors';
import { WpError } from '../wp/errors';
import { Site } from '../wp/site';
import { DeskPart, deskOf } from './desk';
import { uploadsDirOf } from './tickets/attachments';

export const SETUP_FAILED_OPTION = 'svc_setup_failed';
/** Marks the notices Understudy set itself: only those does it clear when its own check passes again. */
const OWN_NOTICE = 'Understudy: ';
const PLUGIN_TABLES = ['jobs', 'request_keys', 'rate_limits', 'mail_receipts'];
/** While the notice is on, the check runs again at most this often. */
const RECHECK_MS = 10_000;

export function storageUnavailable(): WpError {
  return new WpError('storage_unavailable', 'The support desk storage is not available right now. Try again later.', 503);
}

/** Why storage does not work, or null when it does: plugin tables present and the uploads folder writable. */
export async function storageProblem(site: Site): Promise<string | null> {
  for (const name of PLUGIN_TABLES) {
    if (!(await site.db.knex.schema.hasTable(site.db.tables.plugin('svc', name)))) return `Table ${site.db.tables.plugin('svc', name)} is missing.`;
  }
  const dir = uploadsDirOf(site.config);
  try {
    await fs.mkdir(dir, { recursive: true });
    const probe = path.join(dir, `.svc-write-test-${process.pid}`);
    await fs.writeFile(probe, '');
    await fs.rm(probe, { force: true });
  } catch (err) {
    return `The uploads folder ${dir} is not writable (${(err as Error).message}).`;
  }
  return null;
}

/** Runs the storage check and sets or clears the notice to match. Returns the problem, if any. */
export async function refreshSetupNotice(site: Site): Promise<string | null> {
  const problem = await storageProblem(site);
  const current = await site.options.getRaw(SETUP_FAILED_OPTION);
  if (problem && current !== OWN_NOTICE + problem) await site.options.update(SETUP_FAILED_OPTION, OWN_NOTICE + problem, 'no');
  if (!problem && current?.startsWith(OWN_NOTICE)) await site.options.delete(SETUP_FAILED_OPTION);
  return problem;
}

/** When this process last checked the site's storage while its own notice was on (performance.now()). */
const lastCheck: DeskPart<{ at: number }> = {
  name: 'storage recheck',
  make: () => ({ at: -Infinity }),
};

/**
 * The route guard: 503 while the notice is on or the database does not answer. A notice Understudy set
 * is checked again now and then and cleared once storage works; one WordPress set stays until it clears it.
 */
export const storageAvailability = {
  async check(site: Site): Promise<WpError | null> {
    try {
      const notice = await site.options.getRaw(SETUP_FAILED_OPTION);
      if (!notice) return null;
      if (!notice.startsWith(OWN_NOTICE)) return storageUnavailable();
      const last = deskOf(site).get(lastCheck);
      if (performance.now() - last.at < RECHECK_MS) return storageUnavailable();
      last.at = performance.now();
      return (await refreshSetupNotice(site)) ? storageUnavailable() : null;
    } catch (err) {
      if (isUnavailableError(err)) return storageUnavailable();
      throw err;
    }
  },
  onFailure(err: unknown): WpError | null {
    return isUnavailableError(err) ? storageUnavailable() : null;
  },
};
