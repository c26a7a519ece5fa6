/**
 * Version order as real projects number their releases: any number of numeric parts (`1.10` after
 * `1.9`, WordPress's four-part `6.4.3.1`, `1.0` equal to `1.0.0`), an optional `v` prefix, and
 * pre-releases before their release (`2.0.0-beta.2` < `2.0.0`), ordered dev < alpha < beta <
 * pre/preview < rc, their numbers compared as numbers (`beta.2` < `beta.10`). semver alone would
 * refuse `6.4.3.1` and `1.0`; PHP's version_compare() gets `v` prefixes and `beta.10` wrong.
 */

export interface ParsedVersion {
  /** The numeric parts, trailing zeros kept as written (`1.0` → [1, 0]). */
  release: number[];
  /** Pre-release identifiers (`beta.2` → ['beta', 2], `RC1` → ['rc', 1]); empty for a release. */
  pre: Array<string | number>;
}

/** A version: optional `v`, numeric parts, then an optional pre-release part (`-beta.2`, `beta2`, ` RC 1`), then optional `+build`. */
const VERSION = /^[vV]?(\d+(?:\.\d+)*)(?:[-._ ]?([0-9A-Za-z]+(?:[-._ ][0-9A-Za-z]+)*))?(?:\+[0-9A-Za-z.-]+)?$/;

/** Pre-release labels by rank; a label not listed ranks with `dev`, and such labels compare alphabetically. */
const LABEL_RANK: Readonly<Record<string, number>> = { dev: 0, alpha: 1, a: 1, beta: 2, b: 2, pre: 3, preview: 3, rc: 4 };

/**
 * The longest text read as a version. VERSION retries a long failing text from each of its splits
 * between numbers and pre-release part (quadratic), and a stored title may be anything the PHP site wrote.
 */
export const MAX_VERSION_CHARS = 100;

/** The version's parts, or null when it is no version (no leading number, or longer than MAX_VERSION_CHARS). */
export function parseVersion(raw: string): ParsedVersion | null {
  const trimmed = raw.trim();
  if (trimmed.length > MAX_VERSION_CHARS) return null;
  const m = VERSION.exec(trimmed);
  if (!m) return null;
  const release = (m[1] as string).split('.').map(Number);
  const pre = m[2] ? preIdentifiers(m[2]) : [];
  return { release, pre };
}

export function isVersion(raw: string): boolean {
  return parseVersion(raw) !== null;
}

/** Whether the version names a pre-release (it has a pre-release part). */
export function isPrerelease(raw: string): boolean {
  return (parseVersion(raw)?.pre.length ?? 0) > 0;
}

/** The version as stored and compared for sameness: trimmed, without a `v` prefix. */
export function normalizeVersion(raw: string): string {
  return raw.trim().replace(/^[vV](?=\d)/, '');
}

/** Negative when a comes before b, positive after, 0 when they are the same version. Non-versions sort before versions, alphabetically. */
export function compareVersions(a: string, b: string): number {
  const pa = parseVersion(a);
  const pb = parseVersion(b);
  if (!pa || !pb) return pa ? 1 : pb ? -1 : a < b ? -1 : a > b ? 1 : 0;
  return compareRelease(pa.release, pb.release) || comparePre(pa.pre, pb.pre);
}

/** Newest first, for lists of releases. */
export function newestFirst(a: string, b: string): number {
  return compareVersions(b, a);
}

function compareRelease(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d) return Math.sign(d);
  }
  return 0;
}

/** A release comes after its pre-releases; otherwise identifier by identifier, and more identifiers after fewer (semver §11). */
function comparePre(a: Array<string | number>, b: Array<string | number>): number {
  if (!a.length || !b.length) return !a.length && !b.length ? 0 : a.length ? -1 : 1;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = compareIdentifier(a[i] as string | number, b[i] as string | number);
    if (d) return d;
  }
  return Math.sign(a.length - b.length);
}

/** Numbers as numbers and before labels (semver §11); labels by rank, then alphabetically. */
function compareIdentifier(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return Math.sign(a - b);
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  const d = (LABEL_RANK[a] ?? 0) - (LABEL_RANK[b] ?? 0);
  if (d) return Math.sign(d);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `beta.2`, `beta2`, `RC-1`, `alpha 3` → ['beta', 2] …: split on separators and between letters and digits, labels lower-cased. */
function preIdentifiers(text: string): Array<string | number> {
  return (text.toLowerCase().match(/[a-z]+|\d+/g) ?? []).map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}
