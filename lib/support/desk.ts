/**
 * The support desk of one site in this process: the one owner of the desk's per-site state (the
 * ticket lists, the docs search index and its sites' collections, the chat passage index and callers,
 * the storage recheck, the mail opening batches). Each area declares its piece as a DeskPart beside
 * the class that holds it; the desk makes each piece on first use and tells those made what every
 * committed write of this process changed (writeSupport() in ./write.ts), so no caller names the
 * caches its write makes stale. The desk imports no area: every area can import it without a circle.
 *
 * A server warms the pieces that are slow to make at start (warmUp()): each loads in the background,
 * and until it has, its area answers from SQL; nothing waits for a load.
 *
 * Nothing it holds needs closing: pieces are memory only (no timers, threads or connections), and go
 * with the Site when it is dropped.
 */
import { performance } from 'node:perf_hooks';
import { Site } from '../wp/site';

/** What a committed write of this process changed, as the desk's pieces need it. */
export interface DeskWrite {
  /** Tickets the write inserted or touched. */
  tickets?: ReadonlySet<number>;
  /** Docs the write inserted or changed (their posts or collections). */
  docs?: ReadonlySet<number>;
}

/** One area's piece of the desk: how it is made, and how it follows this process's writes. */
export interface DeskPart<S> {
  /** How logs name the piece. */
  name: string;
  make(site: Site, desk: SupportDesk): S;
  /** Told after each committed write, before the write answers. */
  afterWrite?(state: S, written: DeskWrite): void | Promise<void>;
  /**
   * A piece slow to make (an index of every ticket or doc): starts loading it, or joins the load
   * under way; a load that failed starts again on the next call. Resolves once loaded.
   */
  load?(state: S): Promise<void>;
  /** Whether the piece's load has completed. */
  loaded?(state: S): boolean;
}

/** Tests hold every load here to see what is answered meanwhile (test/lib/support/warm-up.test.ts); production never sets it. */
export const loadGate = { wait: (_part: string): Promise<void> => Promise.resolve() };

export class SupportDesk {
  private readonly states = new Map<DeskPart<unknown>, unknown>();
  /** Loads whose failure is logged already (warmUp() is called again while one runs). */
  private readonly watched = new WeakSet<Promise<void>>();

  constructor(private readonly site: Site) {}

  /** The site's state of `part`, made on first use. */
  get<S>(part: DeskPart<S>): S {
    if (!this.states.has(part)) this.states.set(part, part.make(this.site, this));
    return this.states.get(part) as S;
  }

  /**
   * Starts loading each of `parts` not loaded yet, in the background (one that failed starts again);
   * the names of those still loading. Called at start, and by readiness while it waits for them.
   */
  warmUp(parts: ReadonlyArray<DeskPart<unknown>>): string[] {
    const cold: string[] = [];
    for (const part of parts) {
      const state = this.get(part);
      if (!part.load || part.loaded?.(state)) continue;
      cold.push(part.name);
      const loading = part.load(state);
      if (this.watched.has(loading)) continue;
      this.watched.add(loading);
      const started = performance.now();
      loading.then(
        () => this.site.logger.info('support desk: a cache has loaded', { cache: part.name, ms: Math.round(performance.now() - started) }),
        (err) => this.site.logger.warn('support desk: a cache could not load', { cache: part.name, error: String(err) }),
      );
    }
    return cold;
  }

  /**
   * After a write of this process committed: every state made so far follows it. One that fails
   * is logged and left to its own freshness bound; the write is stored and must still be answered.
   */
  async afterWrite(written: DeskWrite): Promise<void> {
    for (const [part, state] of [...this.states]) {
      try {
        await part.afterWrite?.(state, written);
      } catch (err) {
        this.site.logger.warn('support desk: a cache could not follow a write', { cache: part.name, error: String(err) });
      }
    }
  }

  /** Drops every state: each is made again, from the database, on its next use. */
  reset(): void {
    this.states.clear();
  }
}

const desks = new WeakMap<Site, SupportDesk>();

/** The site's support desk in this process. */
export function deskOf(site: Site): SupportDesk {
  let desk = desks.get(site);
  if (!desk) desks.set(site, (desk = new SupportDesk(site)));
  return desk;
}
