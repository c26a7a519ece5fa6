/**
 * The sites of a network that one process serves, each opened on its first request and let go once
 * idle, so that memory follows the sites in use rather than the size of the network. A site in use
 * (a request, a stream or a job holding a lease) is never let go; an idle one goes after `idleMs`, or
 * sooner, least recently used first, when more than `maxOpen` are open.
 *
 * Generic over what an open site carries (its Site, app, job worker): the opener and closer say.
 */

export interface SitePoolOptions<T> {
  open(blogId: number): Promise<T>;
  close(opened: T, blogId: number): Promise<void>;
  /** Whether an open site is at work without a lease (a job running): it is kept until it is not. */
  busy?(opened: T): boolean;
  /** An unused site is let go after this long. */
  idleMs: number;
  /** Open sites kept at most (those in use are never let go, so a busy moment may hold more). */
  maxOpen: number;
  /** Told when a site could not be closed cleanly (its resources are dropped all the same). */
  onCloseError?(blogId: number, err: unknown): void;
}

/** A hold on an open site: it stays open until every lease on it is released. */
export interface SiteLease<T> {
  blogId: number;
  opened: T;
  /** Releases the hold; a second call does nothing. */
  release(): void;
}

interface Entry<T> {
  opening: Promise<T>;
  opened?: T;
  leases: number;
  lastUsed: number;
}

export class SitePool<T> {
  /** In the order of last use, oldest first (a Map keeps insertion order; each use moves its entry to the end). */
  private readonly entries = new Map<number, Entry<T>>();
  private readonly sweeper: NodeJS.Timeout;
  private closing: Promise<void> | null = null;

  constructor(private readonly options: SitePoolOptions<T>) {
    this.sweeper = setInterval(() => void this.sweep(), Math.max(1000, Math.floor(options.idleMs / 2)));
    this.sweeper.unref();
  }

  /** A lease on blog `blogId`, opening it when it is not open (one opening at a time per site). */
  async lease(blogId: number): Promise<SiteLease<T>> {
    if (this.closing) throw new Error('The site pool is closed.');
    const entry = this.touch(blogId);
    entry.leases += 1;
    try {
      const opened = await entry.opening;
      let released = false;
      return {
        blogId, opened, release: () => {
          if (released) return;
          released = true;
          entry.leases -= 1;
          entry.lastUsed = Date.now();
        },
      };
    } catch (err) {
      entry.leases -= 1;
      // A site that failed to open is tried again by the next request.
      if (this.entries.get(blogId) === entry) this.entries.delete(blogId);
      throw err;
    }
  }

  /** Runs `work` with a lease on the site, released when it settles. */
  async with<R>(blogId: number, work: (opened: T) => Promise<R>): Promise<R> {
    const lease = await this.lease(blogId);
    try {
      return await work(lease.opened);
    } finally {
      lease.release();
    }
  }

  /** What is open now, by blog ID (for metrics and readiness). */
  openSites(): Array<{ blogId: number; opened: T; inUse: boolean }> {
    return [...this.entries].filter(([, e]) => e.opened !== undefined).map(([blogId, e]) => ({ blogId, opened: e.opened as T, inUse: e.leases > 0 }));
  }

  /** Lets go of every site, waiting for none of their leases (the server has drained its requests first). */
  close(): Promise<void> {
    clearInterval(this.sweeper);
    this.closing ??= Promise.all([...this.entries.keys()].map((blogId) => this.letGo(blogId))).then(() => undefined);
    return this.closing;
  }

  private touch(blogId: number): Entry<T> {
    let entry = this.entries.get(blogId);
    if (entry) {
      this.entries.delete(blogId);
    } else {
      const made = { leases: 0, lastUsed: Date.now() } as Entry<T>;
      made.opening = this.options.open(blogId).then((opened) => (made.opened = opened));
      entry = made;
      this.makeRoom();
    }
    this.entries.set(blogId, entry);
    entry.lastUsed = Date.now();
    return entry;
  }

  /** Over the bound: the least recently used idle sites go. */
  private makeRoom(): void {
    let excess = this.entries.size + 1 - this.options.maxOpen;
    for (const [blogId, entry] of this.entries) {
      if (excess <= 0) break;
      if (!this.idle(entry)) continue;
      excess -= 1;
      void this.letGo(blogId);
    }
  }

  private sweep(): void {
    const idleSince = Date.now() - this.options.idleMs;
    for (const [blogId, entry] of this.entries) {
      if (this.idle(entry) && entry.lastUsed <= idleSince) void this.letGo(blogId);
    }
  }

  private idle(entry: Entry<T>): boolean {
    return entry.leases === 0 && entry.opened !== undefined && !this.options.busy?.(entry.opened);
  }

  private async letGo(blogId: number): Promise<void> {
    const entry = this.entries.get(blogId);
    if (!entry) return;
    this.entries.delete(blogId);
    try {
      await this.options.close(await entry.opening, blogId);
    } catch (err) {
      this.options.onCloseError?.(blogId, err);
    }
  }
}
