/**
 * Where the public chat routes may be called from in a browser (docs/chat.md, "Origins"): this site's
 * own pages and the listed addresses of every connected site, read within the freshness bound (a
 * changed address list is honoured within a second, in every process). A connected site's pages are
 * answered from the doc collections that site may show, as docs search's `site` filter does.
 */
import { FRESHNESS_MS, FreshCache } from '../../wp/fresh-cache';
import { Site } from '../../wp/site';
import { DeskPart, deskOf } from '../desk';
import { ConnectedSite, listSites } from '../sites/store';

interface Callers {
  /** This site's own origins (home and site URL). */
  own: string[];
  sites: ConnectedSite[];
}

const cachedCallers: DeskPart<FreshCache<'all', Callers>> = {
  name: 'chat callers',
  make: () => new FreshCache<'all', Callers>(FRESHNESS_MS, 1),
};

function callers(site: Site): Promise<Callers> {
  return deskOf(site).get(cachedCallers).get('all', async () => ({
    own: [await site.homeUrl(), String(await site.options.get('siteurl', ''))].flatMap(originOf),
    sites: await listSites(site.db),
  }));
}

export async function chatOrigins(site: Site): Promise<string[]> {
  const { own, sites } = await callers(site);
  return [...new Set([...own, ...sites.flatMap((s) => s.origins)])];
}

/**
 * The doc collections a chat from `origin` may be answered from: null (every doc) for this site's own
 * pages and for requests without Origin; else those of the connected sites listing the origin.
 */
export async function collectionsForOrigin(site: Site, origin: string | undefined): Promise<Set<string> | null> {
  if (origin === undefined) return null;
  const { own, sites } = await callers(site);
  if (own.includes(origin)) return null;
  return new Set(sites.filter((s) => s.origins.includes(origin)).flatMap((s) => s.docCollections));
}

function originOf(url: string): string[] {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? [] : [origin];
  } catch {
    return [];
  }
}
