/**
 * Changelog text → releases, for the three styles projects write (docs/changelogs.md):
 * - WordPress readme.txt: a `== Changelog ==` section with `= 1.2.3 =` headings (a version, maybe a
 *   date: `= 1.2.3 - 2026-01-05 =`), newest or oldest first; a changelog.txt of such headings alone;
 * - Keep a Changelog: `## [1.2.0] - 2026-01-05` with `### Added` … `### Security` sections, the
 *   `[Unreleased]` section skipped, link references (`[1.2.0]: https://…`) as each release's URL;
 * - plain markdown: any heading level whose headings carry versions (`## v1.2.0 (2026-01-05)`,
 *   `### Version 1.2.0`); deeper headings stay in the notes.
 * Each release keeps its notes as written (markdown); ./notes.ts derives what is shown. The releases
 * come back newest first by version; a version written twice keeps its first section.
 */
import { escUrlRaw } from '../../wp/formatting';
import { newestFirst, normalizeVersion } from './version';

export type ChangelogFormat = 'readme' | 'keep-a-changelog' | 'markdown';

export interface ParsedRelease {
  /** Without a `v` prefix, as compared for sameness (`1.2.0`, `2.0.0-beta.2`). */
  version: string;
  /** `YYYY-MM-DD`, or null when the changelog gives none (readme.txt usually does not). */
  date: string | null;
  /** The release's notes, markdown. */
  notes: string;
  /** A link the changelog gives for the release (a link reference, a linked heading), or null. */
  url: string | null;
  /** A source that flags pre-releases itself (GitHub's `prerelease`); otherwise the version says. */
  prerelease?: boolean;
}

export interface ParsedChangelog {
  format: ChangelogFormat;
  releases: ParsedRelease[];
}

/** The six change types of Keep a Changelog, as section headings name them. */
export const CHANGE_TYPES = ['added', 'changed', 'deprecated', 'removed', 'fixed', 'security'] as const;

export function parseChangelog(text: string): ParsedChangelog {
  const lines = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').split('\n');
  const readme = readmeChangelogLines(lines);
  if (readme) return { format: 'readme', releases: newestFirstUnique(sections(readme, readmeHeading)) };
  const releases = newestFirstUnique(sections(lines, markdownHeading(lines)));
  return { format: isKeepAChangelog(lines) ? 'keep-a-changelog' : 'markdown', releases };
}

/** Newest first by version; the first section written for a version wins over later ones. */
export function newestFirstUnique(releases: ParsedRelease[]): ParsedRelease[] {
  const seen = new Set<string>();
  const unique = releases.filter((r) => !seen.has(r.version) && seen.add(r.version));
  return unique.sort((a, b) => newestFirst(a.version, b.version));
}

interface Heading {
  /** A release's version, `unreleased`, or null for a heading that ends the changelog (a higher-level one). */
  kind: 'release' | 'unreleased' | 'end';
  version?: string;
  date?: string | null;
  url?: string | null;
}

/** Classifies a line: a heading that opens (or ends) a release, or undefined for a line of notes. */
type HeadingReader = (line: string) => Heading | undefined;

/** The lines of readme.txt's `== Changelog ==` section; the whole text for a changelog.txt of `= 1.2.3 =` headings; else null. */
function readmeChangelogLines(lines: string[]): string[] | null {
  const start = lines.findIndex((l) => /^\s*==\s*changelog\s*==\s*$/i.test(l));
  if (start >= 0) {
    const after = lines.slice(start + 1);
    const end = after.findIndex((l) => /^\s*==[^=].*==\s*$/.test(l));
    return end >= 0 ? after.slice(0, end) : after;
  }
  return lines.some((l) => equalsHeading(l) !== null && readmeHeading(l)?.kind === 'release') ? lines : null;
}

/**
 * The text of readme.txt's `= 1.2.3 =`, or null: what `^\s*=\s*([^=].*?)\s*=\s*$` matches, without
 * the regex's retries of a long run of spaces from each of its characters (quadratic; the text may
 * come from anyone's sync source).
 */
function equalsHeading(line: string): string | null {
  const t = line.trim();
  if (t.length < 3 || t[0] !== '=' || t[t.length - 1] !== '=') return null;
  const inner = t.slice(1, -1);
  // The text starts with a character that is not `=` (a space before a leading `=` counts).
  if (inner[0] === '=' || /[\u2028\u2029]/.test(inner.trim())) return null;
  return inner.trim();
}

/** readme.txt's `= 1.2.3 =` (and the `#### 1.2.3` some readmes use inside the section). */
function readmeHeading(line: string): Heading | undefined {
  const text = equalsHeading(line) ?? atxHeading(line)?.text;
  return text !== undefined ? headingOf(text) : undefined;
}

/**
 * Markdown headings: the level of the first heading that names a version (or Unreleased) is the
 * release level; headings of that level or above open a release or, naming none, end the changelog.
 */
function markdownHeading(lines: string[]): HeadingReader {
  let level = 0;
  for (const line of outsideFences(lines)) {
    const m = atxHeading(line);
    if (m && headingOf(m.text)) {
      level = m.level;
      break;
    }
  }
  return (line) => {
    const m = atxHeading(line);
    if (!m || !level || m.level > level) return undefined;
    return headingOf(m.text) ?? { kind: 'end' };
  };
}

/**
 * A markdown ATX heading's level and text (without a closing `#` sequence), or null. `\s+(?!\s)` takes
 * the whole run of spaces at once, and the end is trimmed by hand: `(.*?)(?:\s+#+)?\s*$` retries a
 * long run of spaces from each of its characters (quadratic).
 */
function atxHeading(line: string): { level: number; text: string } | null {
  const m = /^ {0,3}(#{1,6})\s+(?!\s)(.*)$/.exec(line);
  if (!m) return null;
  let text = (m[2] as string).trimEnd();
  let hashes = text.length;
  while (hashes > 0 && text[hashes - 1] === '#') hashes--;
  if (hashes < text.length && hashes > 0 && /\s/.test(text[hashes - 1] as string)) text = text.slice(0, hashes).trimEnd();
  return { level: (m[1] as string).length, text };
}

/** Lines outside fenced code blocks (a `## 1.0` inside a code sample is no release). */
function outsideFences(lines: string[]): string[] {
  let fenced = false;
  return lines.filter((line) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    return !fenced;
  });
}

/** A heading's text as a release: `[1.2.0](url) - 2026-01-05`, `v1.2.0 (January 5, 2026)`, `Version 1.2.0`, `Unreleased`. */
function headingOf(text: string): Heading | undefined {
  let rest = text.trim();
  if (/^\[?unreleased\]?/i.test(rest)) return { kind: 'unreleased' };
  let url: string | null = null;
  const linked = /^\[([^\]]+)\](?:\(([^)\s]+)\))?(.*)$/.exec(rest);
  if (linked) {
    url = linked[2] ? releasePage(linked[2]) : null;
    rest = `${linked[1]}${linked[3]}`;
  }
  rest = rest.replace(/^(?:version|release)\s+/i, '');
  const m = VERSION_TOKEN.exec(rest);
  if (!m) return undefined;
  const after = rest.slice(m[0].length);
  // `2026-01-05` alone is a date, not version 2026.
  if (/^\d{4}$/.test(m[0]) && /^[-/]\d/.test(after)) return undefined;
  if (after && !/^[\s\-–—:(,]/.test(after)) return undefined;
  return { kind: 'release', version: normalizeVersion(m[0]), date: dateIn(after), url };
}

/** A version at the start of a heading: numeric parts, a pre-release part starting with a letter, build metadata. */
const VERSION_TOKEN = /^[vV]?\d+(?:\.\d+)*(?:[-.]?[A-Za-z][0-9A-Za-z]*(?:[.-][0-9A-Za-z]+)*)?(?:\+[0-9A-Za-z.-]+)?/;

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** The first date in the text: `2026-01-05`, `2026/01/05`, `January 5, 2026`, `5 Jan 2026`; null if none. */
export function dateIn(text: string): string | null {
  const iso = /(\d{4})[-/](\d{1,2})[-/](\d{1,2})/.exec(text);
  if (iso) return validDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const mdy = /\b([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})/.exec(text);
  if (mdy) return validDate(Number(mdy[3]), monthOf(mdy[1] as string), Number(mdy[2]));
  const dmy = /\b(\d{1,2})(?:st|nd|rd|th)?\s+([A-Za-z]{3,9})\.?,?\s+(\d{4})/.exec(text);
  if (dmy) return validDate(Number(dmy[3]), monthOf(dmy[2] as string), Number(dmy[1]));
  return null;
}

function monthOf(name: string): number {
  return MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;
}

function validDate(y: number, m: number, d: number): string | null {
  const t = new Date(Date.UTC(y, m - 1, d));
  if (m < 1 || t.getUTCFullYear() !== y || t.getUTCMonth() !== m - 1 || t.getUTCDate() !== d) return null;
  return t.toISOString().slice(0, 10);
}

/** Cuts the lines into releases at the reader's headings; link references become the releases' URLs. */
function sections(lines: string[], read: HeadingReader): ParsedRelease[] {
  const refs = linkReferences(lines);
  const releases: ParsedRelease[] = [];
  let current: { heading: Heading; notes: string[] } | null = null;
  let fenced = false;
  const close = () => {
    if (current?.heading.kind === 'release') releases.push(releaseOf(current.heading, current.notes, refs));
    current = null;
  };
  for (const line of lines) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? undefined : read(line);
    if (heading) {
      close();
      if (heading.kind === 'end') continue;
      current = { heading, notes: [] };
    } else if (current && !REFERENCE.test(line)) {
      (current as { notes: string[] }).notes.push(line);
    }
  }
  close();
  return releases;
}

function releaseOf(heading: Heading, notes: string[], refs: Map<string, string>): ParsedRelease {
  const version = heading.version as string;
  return {
    version,
    date: heading.date ?? null,
    notes: notes.join('\n').trim(),
    url: heading.url ?? refs.get(version.toLowerCase()) ?? refs.get(`v${version.toLowerCase()}`) ?? null,
  };
}

const REFERENCE = /^ {0,3}\[([^\]]+)\]:\s*(\S+)/;

/** Markdown link reference definitions, by lower-cased label (`[1.2.0]: https://…/compare/v1.1.0...v1.2.0`). */
function linkReferences(lines: string[]): Map<string, string> {
  const refs = new Map<string, string>();
  for (const line of lines) {
    const m = REFERENCE.exec(line);
    const page = m && releasePage(m[2] as string);
    if (m && page) refs.set((m[1] as string).toLowerCase(), page);
  }
  return refs;
}

/**
 * A release's page kept as WordPress keeps a URL field (esc_url_raw(), http and https only): `"`, `<`,
 * `>`, backticks and whatever else a URL cannot hold dropped; null when it is no http(s) URL.
 */
export function releasePage(raw: string): string | null {
  return /^https?:\/\//i.test(raw) ? escUrlRaw(raw, ['http', 'https']) || null : null;
}

function isKeepAChangelog(lines: string[]): boolean {
  return lines.some((l) => {
    const m = atxHeading(l);
    return !!m && (CHANGE_TYPES as readonly string[]).includes(m.text.trim().toLowerCase());
  });
}
