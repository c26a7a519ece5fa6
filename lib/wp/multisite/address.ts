/**
 * A site of the network named by its address, as WP-CLI's `--url` names one (`example.com/two`,
 * `https://two.example.com/`): the address is looked up as a request for it would be (lookup.ts),
 * and must then be the site's own address. WordPress serves `example.com/nosuch/` as a page of the
 * site at `/` (so WP-CLI would act on the main site); a tool that writes must not guess, so here it
 * names no site. Status flags do not matter: a tool may act on an archived site (WP-CLI too).
 */
import { NetworkSite } from './network';
import { NetworkSites } from './sites';

export type SiteAtAddress = { found: true; site: NetworkSite } | { found: false; reason: string };

/** The site whose address `address` is (scheme optional, `http://` assumed; query and fragment ignored). */
export async function siteAtAddress(sites: NetworkSites, address: string): Promise<SiteAtAddress> {
  const url = parseAddress(address);
  if (!url) return { found: false, reason: `'${address}' is not a site address (example.com/path/ or https://example.com/path/)` };
  const path = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  const found = await sites.lookUp({ host: url.host, uri: path, admin: false, secure: url.protocol === 'https:' });
  const shown = `${url.host}${path}`;
  if (found.found === 'redirect') return { found: false, reason: `no site of the network is at ${shown} (WordPress redirects it to ${found.location})` };
  if (found.found === 'none') return { found: false, reason: `no site of any network is at ${shown}` };
  if (found.site.path.toLowerCase() !== path.toLowerCase()) {
    return { found: false, reason: `no site of the network is at ${shown} (WordPress would serve it as a page of blog ${found.site.blogId}, ${found.site.domain}${found.site.path})` };
  }
  return { found: true, site: found.site };
}

function parseAddress(address: string): URL | null {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(address) ? address : `http://${address}`;
  try {
    const url = new URL(withScheme);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname && !url.username && !url.password ? url : null;
  } catch {
    return null;
  }
}
