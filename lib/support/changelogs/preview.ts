/**
 * admin/parse's views of pasted releases, rendered in the worker thread (./renderer.ts). Refused, so
 * that the editor says why instead of showing what the site would not: a release whose notes are
 * longer than MAX_NOTES_CHARS (before anything is rendered), and notes that cannot all be rendered
 * within PREVIEW_BUDGET_MS (markdown built to be slow: deep lists, long runs of emphasis markers).
 */
import { performance } from 'node:perf_hooks';
import { MAX_NOTES_CHARS, NotesView } from './notes';
import { ParsedRelease } from './parse';
import { RENDER_LIMIT_MS, renderNotes } from './renderer';

export const PREVIEW_BUDGET_MS = 5_000;

export class PreviewRefused extends Error {
  override name = 'PreviewRefused';
  constructor(readonly reason: 'too_long' | 'too_slow', message: string) {
    super(message);
  }
}

/** The releases' views, in their order, or a PreviewRefused. */
export async function previewViews(releases: ParsedRelease[], budgetMs = PREVIEW_BUDGET_MS): Promise<NotesView[]> {
  const long = releases.find((r) => r.notes.length > MAX_NOTES_CHARS);
  if (long) {
    throw new PreviewRefused('too_long', `The notes of ${long.version} are ${long.notes.length.toLocaleString('en')} characters long; a release's notes may have at most ${MAX_NOTES_CHARS.toLocaleString('en')}.`);
  }
  const deadline = performance.now() + budgetMs;
  const views: NotesView[] = [];
  for (const release of releases) {
    const rendered = await renderNotes(release.notes, deadline);
    if (!rendered || rendered.plain) {
      throw new PreviewRefused('too_slow', `The notes of ${release.version} could not be rendered in time (${RENDER_LIMIT_MS / 1000} s for one release's notes, `
        + `${budgetMs / 1000} s for all): simplify their markdown (deeply nested lists, long runs of * or _).`);
    }
    const { plain: _plain, ...view } = rendered;
    views.push(view);
  }
  return views;
}
