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
}
