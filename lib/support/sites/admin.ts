/**
 * Managing connected sites (what `understudy site` does): making one with a fresh site-id and key,
 * changing its settings, rotating its key and deleting it. A new key is returned to the caller
 * exactly once; afterwards only its hash exists, so a lost key is replaced by rotating it.
 */
import { Site } from '../../wp/site';
import { hashBearerSecret, newBearerSecret } from '../bearer-secrets';
import { newSiteId } from './keys';
import { SITE_DEFAULTS, SiteSettings, SiteSettingsError, checkSiteSettings } from './settings';
import { ConnectedSite, deleteSite, findSite, insertSite, updateSite } from './store';

/** A refused request, with a message for the person who made it. */
export class SiteError extends Error {
  override name = 'SiteError';
}

/** A site with the key just issued: the only moment the key exists outside its holder's hands. */
export interface IssuedSiteKey {
  site: ConnectedSite;
  key: string;
}

/** How many fresh site-ids are tried before giving up (36^12 makes a second try already unlikely). */
const SITE_ID_TRIES = 5;

export async function createConnectedSite(site: Site, settings: Partial<SiteSettings> & { name: string }): Promise<IssuedSiteKey> {
  const checked = check(settings) as Partial<SiteSettings> & { name: string };
  const key = newBearerSecret();
  for (let i = 0; i < SITE_ID_TRIES; i++) {
    const siteId = newSiteId();
    if (await findSite(site.db, siteId)) continue;
    await insertSite(site, { ...SITE_DEFAULTS, ...checked, siteId, keyHash: hashBearerSecret(key) });
    return { site: await mustFind(site, siteId), key };
  }
  throw new Error('Could not find an unused site-id.');
}

export async function getConnectedSite(site: Site, siteId: string): Promise<ConnectedSite> {
  return mustFind(site, siteId);
}

export async function changeConnectedSite(site: Site, siteId: string, change: Partial<SiteSettings>): Promise<ConnectedSite> {
  const found = await mustFind(site, siteId);
  await updateSite(site, found.postId, check(change));
  return mustFind(site, siteId);
}

/** A new site key; the old one stops working at once (every lookup reads the stored hash). */
export async function rotateSiteKey(site: Site, siteId: string): Promise<IssuedSiteKey> {
  const found = await mustFind(site, siteId);
  const key = newBearerSecret();
  await updateSite(site, found.postId, { keyHash: hashBearerSecret(key) });
  return { site: await mustFind(site, siteId), key };
}

/** Deletes the site: its key and addresses stop working at once; its tickets stay, with their site-id. */
export async function deleteConnectedSite(site: Site, siteId: string): Promise<ConnectedSite> {
  const found = await mustFind(site, siteId);
  await deleteSite(site, found.postId);
  return found;
}

function check(change: Partial<SiteSettings>): Partial<SiteSettings> {
  try {
    return checkSiteSettings(change);
  } catch (err) {
    if (err instanceof SiteSettingsError) throw new SiteError(err.message);
    throw err;
  }
}

async function mustFind(site: Site, siteId: string): Promise<ConnectedSite> {
  const found = await findSite(site.db, siteId);
  if (!found) throw new SiteError(`No site has the site-id '${siteId}'.`);
  return found;
}
