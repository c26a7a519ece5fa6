/**
 * WP: which site of a network a request is for, decided as ms-settings.php and
 * ms_load_current_site_and_network() decide it, from the Host header and the request URI alone.
 * Pure: the caller hands over the networks and the candidate sites (lookup-query.ts says which).
 *
 * - The host is lowercased and loses only `:80` or `:443`; any other port stays part of the domain.
 * - An admin request (a script under wp-admin/, admin-ajax.php included) is looked up by the path
 *   before its last `/wp-admin/`; the query string never counts.
 * - A site matches when its domain is the host (or the host without `www.`) and its path is `/` or
 *   a leading run of the request's path segments; the longest domain, then the longest path, wins.
 *   So `/two/wp-json/…` is blog 2 and `/nosuch/` is the site at `/`: the main site.
 * - How many segments may count depends on the install: the network's path plus one.
 * - No site: a redirect to the network (a subdomain install's sign-up form, or NOBLOGREDIRECT), or
 *   "not installed" (a 500) when the host is the network's own domain or no network matches.
 */
import { Network, NetworkSite } from './network';

/** How the network is installed: wp-config.php's constants. */
export interface NetworkInstall {
  /** SUBDOMAIN_INSTALL (or the older VHOST 'yes'). */
  subdomainInstall: boolean;
  /** DOMAIN_CURRENT_SITE and PATH_CURRENT_SITE (both defined), with SITE_ID_CURRENT_SITE (default 1) and BLOG_ID_CURRENT_SITE. */
  current?: { domain: string; path: string; networkId: number; mainSiteId?: number };
  /** NOBLOGREDIRECT: where a subdomain install sends an address that names no site (`%siteurl%`: the network). */
  noBlogRedirect?: string;
}

export interface SiteRequest {
  /** The Host header as sent. */
  host: string;
  /** The request URI as sent (path and query, not decoded). */
  uri: string;
  /** True for WordPress's admin scripts (wp-admin/*.php, admin-ajax.php): WP_ADMIN is defined. */
  admin: boolean;
  /** is_ssl(): the scheme of a redirect to the network. */
  secure: boolean;
}

/** What the lookup reads: every network, and the sites that could match the request (any others are ignored). */
export interface NetworkDirectory {
  networks: Network[];
  sites: NetworkSite[];
}

export type SiteLookup =
  | { found: 'site'; site: NetworkSite; network: Network }
  /** ms_site_not_found: PHP answers 302 to this address. */
  | { found: 'redirect'; location: string; network: Network }
  /** ms_not_installed(): PHP answers 500 ("Error establishing a database connection"). */
  | { found: 'none' };

/** The domain and path WordPress looks a request up by (ms-settings.php). */
export function requestAddress(request: Pick<SiteRequest, 'host' | 'uri' | 'admin'>): { domain: string; path: string } {
  let domain = stripslashes(request.host).toLowerCase();
  if (domain.endsWith(':80')) domain = domain.slice(0, -3);
  else if (domain.endsWith(':443')) domain = domain.slice(0, -4);
  let path = stripslashes(request.uri);
  // As PHP does, on the whole URI: a `/wp-admin/` in the query string can be the last one.
  if (request.admin) path = path.replace(/^(.*)\/wp-admin\/.*$/, '$1/');
  return { domain, path: path.split('?')[0] ?? '' };
}

/** WP: get_site_by_path()'s candidate paths: each leading run of at most `segments` segments, longest first, then `/`. */
export function candidatePaths(path: string, segments: number | null): string[] {
  // PHP's array_filter() drops empty segments and "0".
  let parts = path.replace(/^\/+|\/+$/g, '').split('/').filter((part) => part !== '' && part !== '0');
  if (segments !== null && parts.length > segments) parts = parts.slice(0, segments);
  const paths: string[] = [];
  for (let n = parts.length; n > 0; n--) paths.push(`/${parts.slice(0, n).join('/')}/`);
  paths.push('/');
  return paths;
}

/** The domains get_site_by_path() accepts for a host: itself, and without `www.` when it has one. */
export function candidateDomains(domain: string): string[] {
  return domain.startsWith('www.') ? [domain, domain.slice(4)] : [domain];
}

/** The most path segments any lookup of this install may compare (the store fetches candidates that deep). */
export function deepestSegments(install: NetworkInstall, networks: Network[]): number {
  const depth = (path: string) => path.split('/').filter((part) => part !== '').length;
  const paths = networks.map((n) => n.path).concat(install.current ? [install.current.path] : []);
  return 1 + Math.max(0, ...paths.map(depth));
}

/** WP: ms_load_current_site_and_network(). */
export function lookUpSite(request: SiteRequest, install: NetworkInstall, directory: NetworkDirectory): SiteLookup {
  const { domain, path } = requestAddress(request);
  const byPath = (segments: number | null) => siteByPath(directory.sites, domain, path, segments);
  let network: Network | null;
  let site: NetworkSite | null;

  if (install.current) {
    const current = install.current;
    network = constantNetwork(current, directory.networks);
    const sameDomain = sameText(current.domain, domain);
    if (sameDomain && sameText(current.path, path)) site = byPath(null);
    else if (current.path !== '/' && sameDomain && path.toLowerCase().startsWith(current.path.toLowerCase())) {
      site = byPath(1 + current.path.replace(/^\/+|\/+$/g, '').split('/').length);
    } else site = byPath(1);
  } else if (!install.subdomainInstall) {
    if (directory.networks.length === 0) return { found: 'none' };
    network = directory.networks.length === 1 ? directory.networks[0] ?? null : networkByPath(directory.networks, domain, path, 1);
    if (!network) return { found: 'none' };
    site = path === network.path ? byPath(null) : byPath(network.path.split('/').length - 1);
  } else {
    site = byPath(1);
    network = site ? networkById(directory.networks, site.networkId || 1) : networkByPath(directory.networks, domain, path, 1);
  }

  // The network the site names wins over the constants.
  if (site && network && site.networkId !== network.id) network = networkById(directory.networks, site.networkId);
  if (!network) return { found: 'none' };
  if (site) return { found: 'site', site, network };
  return notFound(request, install, network, domain);
}

/** ms_site_not_found: where PHP sends an address that names no site, or 'none' (not installed). */
function notFound(request: SiteRequest, install: NetworkInstall, network: Network, domain: string): SiteLookup {
  let location = `${request.secure ? 'https' : 'http'}://${network.domain}${network.path}`;
  if (install.subdomainInstall && install.noBlogRedirect === undefined) {
    location += `wp-signup.php?new=${domain.split(`.${network.domain}`).join('')}`;
  } else if (install.subdomainInstall) {
    if (install.noBlogRedirect !== '%siteurl%') location = install.noBlogRedirect as string;
  } else if (sameText(network.domain, domain)) {
    // Redirecting to itself would loop: WordPress calls the network not installed.
    return { found: 'none' };
  }
  return { found: 'redirect', location, network };
}

/**
 * WP: get_site_by_path(): among sites on the host (or the host without `www.`) at one of the
 * candidate paths, the longest domain, then the longest path; compared case-insensitively, as
 * MySQL's `_ci` collations compare them. Equal rows: the lowest blog ID.
 */
export function siteByPath(sites: NetworkSite[], domain: string, path: string, segments: number | null): NetworkSite | null {
  const domains = candidateDomains(domain);
  const paths = candidatePaths(path, segments).map((p) => p.toLowerCase());
  const matching = sites.filter((s) => domains.includes(s.domain.toLowerCase()) && paths.includes(s.path.toLowerCase()));
  matching.sort((a, b) => b.domain.length - a.domain.length || b.path.length - a.path.length || a.blogId - b.blogId);
  return matching[0] ?? null;
}

/**
 * WP: WP_Network::get_by_path(): networks on the host or a parent domain at one of the candidate
 * paths, longest domain then path first; the first on the host itself (or its `www.`) at such a path,
 * or the first at `/`, is the one.
 */
export function networkByPath(networks: Network[], domain: string, path: string, segments: number | null): Network | null {
  const domains = [domain];
  const pieces = domain.split('.');
  // PHP's `while ( array_shift( $pieces ) )` stops at an empty or "0" label.
  for (let label = pieces.shift(); label && label !== '0'; label = pieces.shift()) {
    if (pieces.length) domains.push(pieces.join('.'));
  }
  const paths = candidatePaths(path, segments);
  const matching = networks
    .filter((n) => domains.includes(n.domain.toLowerCase()) && paths.some((p) => sameText(p, n.path)))
    .sort((a, b) => b.domain.length - a.domain.length || b.path.length - a.path.length || a.id - b.id);
  return matching.find((n) => ((n.domain === domain || `www.${n.domain}` === domain) && paths.includes(n.path)) || n.path === '/') ?? null;
}

/** The network the constants describe: their domain, path and main site, with what the tables hold of it (siteurl, main site). */
function constantNetwork(current: NonNullable<NetworkInstall['current']>, networks: Network[]): Network {
  const stored = networkById(networks, current.networkId);
  return {
    id: current.networkId, domain: current.domain, path: current.path, siteUrl: stored?.siteUrl ?? null,
    mainSiteId: current.mainSiteId ?? stored?.mainSiteId ?? null,
  };
}

function networkById(networks: Network[], id: number): Network | null {
  return networks.find((n) => n.id === id) ?? null;
}

function sameText(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** PHP's stripslashes(): a backslash escapes the next character, a doubled one stays one. */
function stripslashes(text: string): string {
  return text.replace(/\\(.?)/gs, '$1');
}
