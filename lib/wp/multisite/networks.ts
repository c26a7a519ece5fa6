/**
 * The network one site belongs to (one process serving one site of a network, WP_BLOG_ID), read
 * at most once per freshness bound: PHP may change the network's rows at any moment.
 */
import { FRESHNESS_MS, FreshCache } from '../fresh-cache';
import { Network } from './network';
import { MultisiteStore } from './store';

export class BlogNetwork {
  private readonly cache = new FreshCache<'network', Network | null>(FRESHNESS_MS, 1, 'multisite');

  constructor(private readonly store: MultisiteStore, private readonly blogId: number) {}

  get(): Promise<Network | null> {
    return this.cache.get('network', () => this.store.networkOfBlog(this.blogId));
  }

  /**
   * The network's id, whose options (`site_admins`, salts) are the blog's site options. A blog whose
   * network has no row is refused, as WordPress refuses to load it (ms_not_installed()), rather than
   * lent another network's super admins.
   */
  async id(): Promise<number> {
    const network = await this.get();
    if (!network) throw new Error(`Blog ${this.blogId} belongs to no network: its site_id names no row of the network table`);
    return network.id;
  }
}
