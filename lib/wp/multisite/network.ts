/**
 * WP: a network (WP_Network, a row of `{prefix}site`) and a site of it (WP_Site, a row of
 * `{prefix}blogs`), as the rest of Understudy needs them: plain values, no database.
 */

export interface Network {
  id: number;
  domain: string;
  path: string;
  /**
   * The network option `siteurl` (`{prefix}sitemeta`), as populate_network() stored it: the main
   * site's address with a trailing slash. COOKIEHASH is its md5; null when the row is missing.
   */
  siteUrl: string | null;
  /** The network option `main_site`, when stored. */
  mainSiteId: number | null;
}

export interface NetworkSite {
  blogId: number;
  networkId: number;
  domain: string;
  path: string;
  public: boolean;
  archived: boolean;
  mature: boolean;
  spam: boolean;
  /** 0: live; 1: deleted; 2: not activated yet (wpmu_activate_signup() has not run). */
  deleted: number;
}

/** WP: WP_Network::_set_cookie_domain(): the network's domain without a leading `www.`. */
export function cookieDomainOf(network: Pick<Network, 'domain'>): string {
  return network.domain.startsWith('www.') ? network.domain.slice(4) : network.domain;
}
