/**
 * A release's rendered view as stored in its `_svc_rendered_notes` meta: JSON `{v, notes, plain,
 * summary, changes, html}`, `notes` the SHA-256 of the notes it was rendered from and `v` the
 * renderer's version. The PHP site edits notes without writing this meta: a view whose hash is not the
 * notes' (or from another renderer version, or not one we wrote) is stale, and read as none.
 */
import { createHash } from 'node:crypto';
import { CHANGE_TYPES } from './parse';
import { RenderedNotes } from './renderer';

/** Raised when what is rendered changes, so that every stored view is rendered again. */
const RENDER_VERSION = 1;

export function notesHash(notes: string): string {
  return createHash('sha256').update(notes).digest('hex');
}

export function encodeRendered(notes: string, view: RenderedNotes): string {
  const { plain, summary, changes, html } = view;
  return JSON.stringify({ v: RENDER_VERSION, notes: notesHash(notes), plain, summary, changes, html });
}

/** The stored view when it was rendered from these notes by this renderer, else null. */
export function currentRendered(raw: string | undefined, notes: string): RenderedNotes | null {
  if (raw === undefined) return null;
  let stored: unknown;
  try {
    stored = JSON.parse(raw);
  } catch {
    return null;
  }
  const s = stored as Record<string, unknown>;
  if (!s || s.v !== RENDER_VERSION || s.notes !== notesHash(notes) || typeof s.summary !== 'string' || typeof s.html !== 'string') return null;
  if (!Array.isArray(s.changes) || !s.changes.every(isChange)) return null;
  return { plain: s.plain === true, summary: s.summary, changes: s.changes, html: s.html };
}

function isChange(c: unknown): c is RenderedNotes['changes'][number] {
  const { type, text } = (c ?? {}) as Record<string, unknown>;
  return typeof text === 'string' && (type === null || (CHANGE_TYPES as readonly unknown[]).includes(type));
}
