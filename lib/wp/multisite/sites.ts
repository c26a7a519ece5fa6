/**
 * Which site of the network a request is for (lookup.ts), with the rows it compares read at most
 * once per request and kept for the freshness bound: PHP may add, move or archive a site at any
 * moment. Entries are keyed by the host and the leading path segments that can count, so every URL of
 * one site shares an entry. A site is also found by its blog ID (a mail route's key names one).
 */
import { FRESHNESS_MS, FreshCache } from '../fresh-cache';
import { NetworkDirectory, NetworkInstall, SiteLookup, SiteRequest, candidateDomains, candidatePaths, deepestSegments, lookUpSite, requestAddress } from './lookup';
import { NetworkSite } from './network';
import { MultisiteStore } from './store';

export class NetworkSites {
  private readonly directories = new FreshCache<string, NetworkDirectory>(FRESHNESS_MS, 10_000, 'multisite');
  private readonly byIds = new FreshCache<number, NetworkSite | null>(FRESHNESS_MS, 10_000, 'multisite');
  /** Segments deep enough for every network path seen so far. */
  private segments: number;

  constructor(private readonly store: MultisiteStore, private readonly install: NetworkInstall) {
    this.segments = deepestSegments(install, []);
  }

  /** WP: ms_load_current_site_and_network() for this request. One query at most. */
  async lookUp(request: SiteRequest): Promise<SiteLookup> {
    let directory = await this.directoryFor(request);
    const needed = deepestSegments(this.install, directory.networks);
    if (needed > this.segments) {
      // A network deeper than any seen before: its sites can sit deeper too. Once per process.
      this.segments = needed;
      directory = await this.directoryFor(request);
    }
    return lookUpSite(request, this.install, directory);
  }

  /**
   * WP: get_site($blogId): the site of one blog ID on any network, whatever its state, or null; read
   * at most once per freshness bound (PHP may archive or delete it at any moment).
   */
  byId(blogId: number): Promise<NetworkSite | null> {
    return this.byIds.get(blogId, () => this.store.siteById(blogId));
  }

  private directoryFor(request: SiteRequest): Promise<NetworkDirectory> {
    const { domain, path } = requestAddress(request);
    const domains = candidateDomains(domain);
    const paths = candidatePaths(path, this.segments);
    return this.directories.get(`${domains.join(' ')}\n${paths.join(' ')}`, () => this.store.directory(domains, paths));
  }
}
