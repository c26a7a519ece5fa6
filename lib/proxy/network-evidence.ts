/**
 * Shadow evidence of a proxy in front of a whole network: each site's counts and differences go to
 * that site's own tables (`{prefix}{blog_id}_svc_shadow_counts`, `…_diffs`), where a proxy for that
 * site alone (WP_BLOG_ID) would keep them and where `understudy shadow report` with its WP_BLOG_ID
 * reads them. Each site's writes are made while it is held open, so its tables exist (a site's
 * migrations run when it opens).
 */
import type { Logger } from '../logger';
import type { Database } from '../wp/db/database';
import type { ShadowEvidence } from './server';
import type { ShadowDifference } from './shadow-queue';
import { ShadowStore, ShadowStoreOptions } from './shadow-store';
import type { Counter } from './stats';

export interface NetworkEvidenceOptions extends Omit<ShadowStoreOptions, 'flushMs'> {
  /** The site counted when no blog is named (the network's main site). */
  mainBlogId: number;
  databaseOf(blogId: number): Database;
  /** Runs `write` while the site is held open. */
  withSite(blogId: number, write: () => Promise<void>): Promise<void>;
  logger: Logger;
  /** How often gathered evidence is written (5 s). */
  flushMs?: number;
}

export class NetworkShadowEvidence implements ShadowEvidence {
  /** One store per site that has evidence, for the life of the proxy. */
  private readonly stores = new Map<number, ShadowStore>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly options: NetworkEvidenceOptions) {}

  count(route: string, counter: Counter, blogId = this.options.mainBlogId): void {
    this.storeOf(blogId).count(route, counter);
  }

  difference(difference: ShadowDifference): void {
    this.storeOf(difference.blogId ?? this.options.mainBlogId).difference(difference);
  }

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.options.flushMs ?? 5_000);
    this.timer.unref();
  }

  /** Writes every site's gathered evidence, one site at a time; a site that cannot be opened keeps its evidence for the next round. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writeAll());
    return this.flushing;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  private async writeAll(): Promise<void> {
    for (const [blogId, store] of this.stores) {
      await this.options.withSite(blogId, () => store.flush()).catch((err) => {
        this.options.logger.warn('shadow: evidence of a site not written; retrying', { blog_id: blogId, error: err instanceof Error ? err.message : String(err) });
      });
    }
  }

  private storeOf(blogId: number): ShadowStore {
    let store = this.stores.get(blogId);
    if (!store) this.stores.set(blogId, (store = new ShadowStore(this.options.databaseOf(blogId), this.options)));
    return store;
  }
}
