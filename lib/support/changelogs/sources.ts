/**
 * A sync source read into releases: a readme.txt (its `== Changelog ==`), a CHANGELOG.md (Keep a
 * Changelog or plain markdown headings), or GitHub-releases-style JSON (an array of `{tag_name, name,
 * body, published_at, prerelease, draft, html_url}`, as `GET /repos/<o>/<r>/releases` answers; drafts
 * skipped). `auto` takes JSON for GitHub releases and any other text for a changelog. A source in which
 * no release is found is bad content.
 */
import { FetchLimits, SOURCE_LIMITS, SourceError, SourceFetch, fetchSource } from './fetch';
import { ChangelogFormat, ParsedRelease, dateIn, newestFirstUnique, parseChangelog, releasePage } from './parse';
import { SourceKind } from './store';
import { MAX_VERSION_CHARS, compareVersions, isPrerelease, normalizeVersion, parseVersion } from './version';

export interface ReadSource {
  url: string;
  kind: Exclude<SourceKind, 'auto'>;
  format: ChangelogFormat | 'github-releases';
  releases: ParsedRelease[];
}

export async function readSource(url: string, kind: SourceKind, via: SourceFetch, limits: FetchLimits = SOURCE_LIMITS): Promise<ReadSource> {
  const fetched = await fetchSource(url, via, limits);
  const read = releasesIn(fetched.text, fetched.contentType, kind);
  if (!read.releases.length) throw new SourceError('bad_content', `No release was found in the source (read as ${read.format}).`);
  return { url: fetched.url, ...read };
}

function releasesIn(text: string, contentType: string, kind: SourceKind): Omit<ReadSource, 'url'> {
  const json = kind === 'github' || (kind === 'auto' && (/json/i.test(contentType) || /^\s*[[{]/.test(text)));
  if (json) return { kind: 'github', format: 'github-releases', releases: githubReleases(text) };
  const parsed = parseChangelog(text);
  if (kind === 'readme' && parsed.format !== 'readme') throw new SourceError('bad_content', 'The source has no readme.txt "== Changelog ==" section.');
  return { kind: parsed.format === 'readme' ? 'readme' : 'changelog', format: parsed.format, releases: parsed.releases };
}

interface GithubRelease {
  tag_name?: unknown;
  name?: unknown;
  body?: unknown;
  published_at?: unknown;
  created_at?: unknown;
  prerelease?: unknown;
  draft?: unknown;
  html_url?: unknown;
}

function githubReleases(text: string): ParsedRelease[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new SourceError('bad_content', 'The source is not valid JSON.');
  }
  if (!Array.isArray(data)) throw new SourceError('bad_content', 'The JSON is not a list of releases (GitHub-releases style).');
  const releases: ParsedRelease[] = [];
  for (const item of data as GithubRelease[]) {
    if (!item || typeof item !== 'object' || item.draft === true) continue;
    const version = versionOfTag(item.tag_name) ?? versionOfTag(item.name);
    if (!version) continue;
    const published = typeof item.published_at === 'string' ? item.published_at : typeof item.created_at === 'string' ? item.created_at : '';
    releases.push({
      version,
      date: dateIn(published),
      notes: typeof item.body === 'string' ? item.body.replace(/\r\n?/g, '\n').trim() : '',
      url: typeof item.html_url === 'string' ? releasePage(item.html_url) : null,
      // A release GitHub calls a pre-release is one, whatever its tag; so is a tag that says so.
      prerelease: item.prerelease === true || isPrerelease(version),
    });
  }
  return newestFirstUnique(releases);
}

/** `v1.2.0`, `1.2.0`, `release-1.2.0`, `my-plugin@1.2.0` → `1.2.0`; null when no version is in it. */
function versionOfTag(tag: unknown): string | null {
  // The regex below retries a long tag from each of its digits (quadratic); no version is that long.
  if (typeof tag !== 'string' || tag.length > MAX_VERSION_CHARS * 2) return null;
  const m = /[vV]?\d+(?:\.\d+)*(?:-[0-9A-Za-z.-]+)?$/.exec(tag.trim());
  return m && parseVersion(m[0]) ? normalizeVersion(m[0]) : null;
}

/** The newest versions first, for the probe's answer. */
export function newestVersions(releases: ParsedRelease[], count: number): string[] {
  return releases.map((r) => r.version).sort((a, b) => compareVersions(b, a)).slice(0, count);
}
