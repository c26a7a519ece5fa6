/**
 * Where the public chat routes may be called from in a browser (docs/chat.md, "Origins"): this site's
 * own pages and the listed addresses of every connected site, read within the freshness bound (a
 * changed address list is honoured within a second, in every process).
 */
import { FRESHNESS_MS, FreshCache } from '../../wp/fresh-cache';
import { Site } from '../../wp/site';
import { listSites } from '../sites/store';

const cached = new WeakMap<Site, FreshCache<'all', string[]>>();

export function chatOrigins(site: Site): Promise<string[]> {
  let cache = cached.get(site);
  if (!cache) {
    cache = new FreshCache<'all', string[]>(FRESHNESS_MS, 1);
    cached.set(site, cache);
  }
  return cache.get('all', async () => {
    const own = [await site.homeUrl(), String(await site.options.get('siteurl', ''))].flatMap(originOf);
    const listed = (await listSites(site.db)).flatMap((s) => s.origins);
    return [...new Set([...own, ...listed])];
  });
}

function originOf(url: string): string[] {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? [] : [origin];
  } catch {
    return [];
  }
}
