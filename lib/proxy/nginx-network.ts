/**
 * What `understudy nginx --network` adds for a WordPress network (multisite): the names nginx answers
 * for, and the path before a site's `/wp-json/` and `/wp-admin/`.
 * - A subdirectory network: a site is its network's path plus one segment (`/two/`), as WordPress's
 *   lookup allows and as WordPress's own nginx rules for such networks rewrite (`^(/[^/]+)?(/wp-.*)`),
 *   so a site added later is covered without a new configuration. Understudy looks the site up as
 *   WordPress does, so a first segment that names no site is the main site there too.
 * - A subdomain install: the network's path alone, on `*.<network domain>`.
 * - Every site's own domain (a mapped one too) is a server name; a port is not part of one.
 */
import { NetworkInstall } from '../wp/multisite/lookup';
import { Network, NetworkSite } from '../wp/multisite/network';

export interface NetworkRouting {
  /** server_name's values: the networks' domains, `*.<domain>` on a subdomain install, then each site's domain. */
  serverNames: string[];
  /** A regex for the path before a site's `/wp-json/` or `/wp-admin/`, without its last slash (`(?:/[^/]+)?`). */
  sitePath: string;
}

const LABEL = '[a-z0-9](?:[a-z0-9-]*[a-z0-9])?';
const HOST_NAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
/** Paths nginx can hold in an unquoted regex: no space, `;`, `{`, `}`, quote or control character. */
const SAFE_PATH = /^\/(?:[A-Za-z0-9._~-]+\/)*$/;

export function networkRouting(install: NetworkInstall, networks: Network[], sites: NetworkSite[]): NetworkRouting {
  const all = install.current ? [...networks, { domain: install.current.domain, path: install.current.path, id: install.current.networkId }] : networks;
  if (!all.length) throw new Error('The network tables hold no network ({prefix}site is empty)');
  const names: string[] = [];
  for (const network of all) {
    names.push(serverName(network.domain, `network ${network.id}`));
    if (install.subdomainInstall) names.push(`*.${serverName(network.domain, `network ${network.id}`)}`);
  }
  for (const site of sites) names.push(serverName(site.domain, `blog ${site.blogId}`));
  const bases = [...new Set(all.map((network) => safePath(network.path, `network ${network.id}`).replace(/\/$/, '')))].map(escapeRegex);
  const paths = bases.map((base) => (install.subdomainInstall ? base : `${base}(?:/[^/]+)?`));
  return { serverNames: [...new Set(names)], sitePath: paths.length === 1 ? paths[0] as string : `(?:${paths.join('|')})` };
}

/** A domain as nginx's server_name takes it: lowercase, without a port; anything else refused (it is written into the configuration). */
function serverName(domain: string, owner: string): string {
  const name = domain.toLowerCase().replace(/:\d+$/, '');
  if (!HOST_NAME.test(name)) throw new Error(`The domain of ${owner}, ${JSON.stringify(domain)}, cannot be an nginx server name`);
  return name;
}

function safePath(path: string, owner: string): string {
  if (!SAFE_PATH.test(path)) throw new Error(`The path of ${owner}, ${JSON.stringify(path)}, cannot go into an nginx location`);
  return path;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
