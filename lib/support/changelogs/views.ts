/**
 * Releases with their notes' views, for the routes and the feeds: a release's stored view when it is
 * current (sync stores one for every release it writes); otherwise, for a release the PHP site wrote
 * or edited, the notes are rendered now in the worker thread within its time limit (./renderer.ts)
 * and the view stored for the next read, as WordPress stores an oEmbed on the first read of a post.
 * Reads never render on the main thread.
 */
import { Site } from '../../wp/site';
import { RenderedNotes, renderNotes } from './renderer';
import { notesHash } from './rendered';
import { StoredRelease } from './store';
import { storeRenderedNotes } from './writes';

export type RenderedRelease = StoredRelease & { rendered: RenderedNotes };

/** Renders of one release's notes under way, so that concurrent reads of it share one. */
const underWay = new Map<string, Promise<RenderedNotes>>();

/** The releases, in their order, each with its view (rendered and stored first where there was none). */
export async function withViews(site: Site, releases: StoredRelease[]): Promise<RenderedRelease[]> {
  const missing = releases.filter((r) => !r.rendered);
  if (!missing.length) return releases as RenderedRelease[];
  const rendered = await Promise.all(missing.map(renderShared));
  const byId = new Map(missing.map((r, i) => [r.postId, { ...r, rendered: rendered[i] as RenderedNotes }]));
  try {
    await storeRenderedNotes(site, [...byId.values()]);
  } catch (err) {
    // The answer does not depend on the store: the next read renders again.
    site.logger.warn('changelogs: a rendered release view could not be stored', { error: String(err) });
  }
  return releases.map((r) => byId.get(r.postId) ?? (r as RenderedRelease));
}

function renderShared(release: StoredRelease): Promise<RenderedNotes> {
  const key = `${release.postId}:${notesHash(release.notes)}`;
  let render = underWay.get(key);
  if (!render) {
    render = renderNotes(release.notes).finally(() => underWay.delete(key));
    underWay.set(key, render);
  }
  return render;
}
