/**
 * What a release's notes (markdown, as the changelog or the PHP site wrote them) become in answers:
 * - `changes`: each top-level list item, `{type, text}`: `type` the Keep a Changelog section it sits
 *   in (`added` … `security`) or null, `text` the item in plain text (inline markdown rendered, HTML
 *   tags and their script/style contents removed, continuation lines and sub-items joined);
 * - `summary`: the first paragraph that is not a list or heading, else the first change, in plain
 *   words, at most SUMMARY_MAX characters;
 * - `html`: the notes rendered by marked, then through wp_kses with RELEASE_NOTE_TAGS (markdown's
 *   own elements, as WordPress's post allowlist has them): raw HTML in a note keeps only those tags
 *   and attributes, so no script, event handler or javascript: URL ever reaches a page or a feed.
 * marked's cost grows faster than the notes on some inputs (runs of `_a`, deep lists), so notesView()
 * runs in a worker thread with a time limit (./renderer.ts), and plainNotesView() is the linear
 * stand-in when it runs out. Either sees at most MAX_NOTES_CHARS of the notes (cappedNotes()).
 */
import { markedModule } from './esm';
import { AllowedHtml, escHtml, kses, removeScriptsAndStyles, stripAllTags } from '../../wp/formatting';
import { CHANGE_TYPES } from './parse';

export type ChangeType = (typeof CHANGE_TYPES)[number];

export interface Change {
  type: ChangeType | null;
  text: string;
}

export const SUMMARY_MAX = 280;

/** What answers show of a release's notes, rendered once and stored (./rendered.ts). */
export interface NotesView {
  summary: string;
  changes: Change[];
  html: string;
}

/**
 * The longest notes rendered: 64 KiB, ten times the longest release notes of WordPress core or of
 * the plugins we looked at, half of GitHub's release body limit (125,000 characters).
 */
export const MAX_NOTES_CHARS = 65_536;

const CUT_MARKER = '\n\n*[The rest of these notes is longer than 65,536 characters and is not shown.]*';

/** The notes, cut at the last line break before MAX_NOTES_CHARS (with a line saying so) when longer. */
export function cappedNotes(notes: string): string {
  if (notes.length <= MAX_NOTES_CHARS) return notes;
  const lineEnd = notes.lastIndexOf('\n', MAX_NOTES_CHARS);
  let cut = lineEnd > 0 ? lineEnd : MAX_NOTES_CHARS;
  // Never half of a surrogate pair.
  if (/[\uD800-\uDBFF]/.test(notes[cut - 1] as string)) cut--;
  return `${notes.slice(0, cut).trimEnd()}${CUT_MARKER}`;
}

/** summary, changes and html, rendered by marked (superlinear on some inputs: run it in the worker). */
export function notesView(notes: string): NotesView {
  const changes = notesChanges(notes);
  return { summary: notesSummary(notes, changes), changes, html: notesHtml(notes) };
}

/**
 * The view without markdown, in linear time, for notes that could not be rendered within the time
 * limit: the text escaped in paragraphs (split at blank lines), the list items and first paragraph as
 * written, whitespace collapsed.
 */
export function plainNotesView(notes: string): NotesView {
  const changes = listItems(notes).map((c) => ({ type: c.type, text: collapsed(c.text) })).filter((c) => c.text !== '');
  const paragraph = collapsed(firstParagraph(notes));
  const paragraphs = blocksOf(notes).map((block) => `<p>${escHtml(block)}</p>`);
  return { summary: cutSummary(paragraph || (changes[0]?.text ?? '')), changes, html: paragraphs.join('\n') };
}

function blocksOf(notes: string): string[] {
  const blocks: string[] = [];
  let lines: string[] = [];
  for (const line of notes.split('\n')) {
    if (line.trim()) lines.push(line.trim());
    else if (lines.length) [blocks[blocks.length], lines] = [lines.join('\n'), []];
  }
  if (lines.length) blocks.push(lines.join('\n'));
  return blocks;
}

function collapsed(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** WP: $allowedposttags, the elements and attributes markdown produces (and nothing that runs). */
export const RELEASE_NOTE_TAGS: AllowedHtml = {
  a: ['href', 'title', 'rel'], abbr: ['title'], b: [], blockquote: ['cite'], br: [], cite: [], code: [], del: ['datetime'],
  em: [], h1: [], h2: [], h3: [], h4: [], h5: [], h6: [], hr: [], i: [], img: ['src', 'alt', 'title', 'width', 'height'],
  ins: ['datetime'], kbd: [], li: [], ol: ['start'], p: [], pre: [], s: [], strong: [], sub: [], sup: [],
  table: [], thead: [], tbody: [], tr: [], th: ['align'], td: ['align'], ul: [],
};

/** The notes as sanitized HTML. */
export function notesHtml(notes: string): string {
  const rendered = markedModule().marked.parse(notes, { async: false, gfm: true });
  // kses keeps the text of a tag it removes; a script's or style's text is code, not words: it goes too.
  return kses(removeScriptsAndStyles(rendered, /<(script|style)\b/gi, (name) => new RegExp(`</${name}\\s*>`, 'gi')), RELEASE_NOTE_TAGS).trim();
}

/** The top-level list items of the notes, each under the Keep a Changelog section it sits in. */
export function notesChanges(notes: string): Change[] {
  return listItems(notes).map((c) => ({ type: c.type, text: plainWords(c.text) })).filter((c) => c.text !== '');
}

/** The top-level list items as written (markdown), continuation lines joined. Linear: no regex here backtracks over a line twice. */
function listItems(notes: string): Change[] {
  const changes: Change[] = [];
  let type: ChangeType | null = null;
  let open: Change | null = null;
  for (const line of notes.split('\n')) {
    // `\s+(?!\s)` and the trimmed line: a lazy group before `\s*$` would retry a long run of spaces from each of its characters.
    const heading = /^\s{0,3}(?:#{1,6}(?:\s+(?!\s)|$)|\*\*)(.*?)(?:\*\*)?:?$/.exec(line.trimEnd());
    const item = /^\s{0,1}(?:[*+-]|\d+[.)])\s+(.*)$/.exec(line);
    if (item) {
      open = { type, text: item[1] as string };
      changes.push(open);
    } else if (heading && !/^\s*\*\*.*\*\*\s*\S/.test(line)) {
      const named = (heading[1] as string).trim().toLowerCase();
      type = (CHANGE_TYPES as readonly string[]).includes(named) ? (named as ChangeType) : null;
      open = null;
    } else if (open && line.trim() && /^\s/.test(line)) {
      open.text = `${open.text} ${line.replace(/^\s*(?:[*+-]|\d+[.)])\s+/, '').trim()}`;
    } else if (!line.trim() || !/^\s/.test(line)) {
      if (line.trim()) open = null;
    }
  }
  return changes;
}

/** The first paragraph in plain words, else the first change; at most SUMMARY_MAX characters, cut at a word. */
export function notesSummary(notes: string, changes: Change[]): string {
  const paragraph = firstParagraph(notes);
  return cutSummary(paragraph ? plainWords(paragraph) : plainWords(changes[0]?.text ?? ''));
}

function cutSummary(text: string): string {
  if (text.length <= SUMMARY_MAX) return text;
  const cut = text.slice(0, SUMMARY_MAX - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), SUMMARY_MAX / 2)).trimEnd()}…`;
}

function firstParagraph(notes: string): string {
  const lines: string[] = [];
  for (const line of notes.split('\n')) {
    const blank = !line.trim();
    const block = /^\s*(?:[*+-]\s|\d+[.)]\s|#|>|```|~~~|\||\*\*.*\*\*:?\s*$)/.test(line);
    if (lines.length && (blank || block)) break;
    if (!blank && !block) lines.push(line.trim());
  }
  return lines.join(' ');
}

/**
 * Plain text: the markdown rendered inline, its tags removed (WP: wp_strip_all_tags, which drops a
 * script's or style's contents too), entities decoded. It is text: whoever puts it in HTML escapes it.
 */
function plainWords(markdown: string): string {
  const html = markedModule().marked.parseInline(markdown, { async: false, gfm: true });
  return decodeEntities(stripAllTags(html, true)).replace(/\s+/g, ' ').trim();
}

/** The entities marked and kses write (named for markup characters, and numeric ones). */
function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d{1,7});/g, (entity, n: string) => codePoint(Number(n), entity))
    .replace(/&#x([0-9a-f]{1,6});/gi, (entity, n: string) => codePoint(parseInt(n, 16), entity))
    .replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

function codePoint(n: number, entity: string): string {
  return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : entity;
}
