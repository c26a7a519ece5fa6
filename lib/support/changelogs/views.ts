/**
 * Releases with their notes' views, for the routes, the feeds and sync: a release's stored view when
 * it is current (sync stores one for every release it writes); otherwise, for a release the PHP site
 * wrote or edited (or one a sync is still rendering), the notes are rendered in the worker thread
 * within its time limit (./renderer.ts) and the view stored for the next read, as WordPress stores an
 * oEmbed on the first read of a post. Reads never render on the main thread, and never wait for the
 * worker more than READ_WAIT_MS: past it they answer with the plain view, stored by no one, while the
 * render goes on and stores its view when done.
 */
import { Site } from '../../wp/site';
import { DeskPart, deskOf } from '../desk';
import { RenderedNotes, plainRendered, renderNotes } from './renderer';
import { notesHash } from './rendered';
import { StoredRelease } from './store';
import { storeRenderedNotes } from './writes';

export type RenderedRelease = StoredRelease & { rendered: RenderedNotes };

/**
 * How long a public read waits for the views it lacks, its turn in the worker included: a sync may
 * have queued many notes of up to RENDER_LIMIT_MS each, and no read is to be held by them.
 */
export const READ_WAIT_MS = 250;

/**
 * Renders (and stores) of one release's notes under way on the site, so that concurrent reads and
 * syncs share one. The site's own: posts are numbered per site, and each render stores to its site.
 */
const rendersUnderWay: DeskPart<Map<string, Promise<RenderedNotes | null>>> = {
  name: 'release renders under way',
  make: () => new Map(),
};

/**
 * The releases, in their order, each with its view: stored, rendered within READ_WAIT_MS, or else the
 * plain view for this answer only (the render goes on and stores the view for the next read).
 */
export async function withViews(site: Site, releases: StoredRelease[]): Promise<RenderedRelease[]> {
  const missing = releases.filter((r) => !r.rendered);
  if (!missing.length) return releases as RenderedRelease[];
  const rendered = await within(READ_WAIT_MS, missing.map((r) => renderAndStore(site, r)));
  const byId = new Map(missing.map((r, i) => [r.postId, { ...r, rendered: rendered[i] ?? plainRendered(r.notes) }]));
  return releases.map((r) => byId.get(r.postId) ?? (r as RenderedRelease));
}

/** Renders and stores the views the releases lack, however long that takes (sync, before it answers). */
export async function storeViews(site: Site, releases: StoredRelease[]): Promise<void> {
  await Promise.all(releases.filter((r) => !r.rendered).map((r) => renderAndStore(site, r)));
}

/** What each promise gave within `ms`, null for those still pending then (they go on). */
async function within<T>(ms: number, pending: Array<Promise<T>>): Promise<Array<T | null>> {
  let timer: NodeJS.Timeout | undefined;
  const timeUp = new Promise<null>((resolve) => { timer = setTimeout(resolve, ms, null); });
  try {
    return await Promise.all(pending.map((p) => Promise.race([p, timeUp])));
  } finally {
    clearTimeout(timer);
  }
}

/** The release's view, rendered once however many wait for it, and stored when it was rendered (or was too slow to be). */
function renderAndStore(site: Site, release: StoredRelease): Promise<RenderedNotes | null> {
  const underWay = deskOf(site).get(rendersUnderWay);
  const key = `${release.postId}:${notesHash(release.notes)}`;
  let render = underWay.get(key);
  if (!render) {
    render = renderNotes(release.notes).then((view) => store(site, release, view)).finally(() => underWay.delete(key));
    underWay.set(key, render);
  }
  return render;
}

async function store(site: Site, release: StoredRelease, view: RenderedNotes | null): Promise<RenderedNotes | null> {
  // No view: no worker could start, which says nothing of the notes; the next read tries again.
  if (!view) return null;
  try {
    await storeRenderedNotes(site, [{ postId: release.postId, notes: release.notes, rendered: view }]);
  } catch (err) {
    // The answer does not depend on the store: the next read renders again.
    site.logger.warn('changelogs: a rendered release view could not be stored', { error: String(err) });
  }
  return view;
}
