/**
 * Sync: a product's source read and its releases upserted by version (./writes.ts), now (the admin
 * route, the CLI) or on the schedule (the `changelog_sync` job). A source that fails (unreachable,
 * timeout, an HTTP error, too large, no release in it) changes no release; the outcome, good or bad,
 * is kept in the product's `_svc_last_sync` for the CLI and the admin screens. Probe reads a source
 * the same way and saves nothing.
 */
import { mysqlDateTime } from '../../wp/dates';
import { NO_ALLOWANCE } from '../../wp/http/outgoing-allow';
import { Site } from '../../wp/site';
import { FetchLimits, SOURCE_LIMITS, SourceError, SourceFailure, SourceFetch } from './fetch';
import { newestVersions, readSource } from './sources';
import { MAX_NOTES_CHARS } from './notes';
import { ParsedRelease } from './parse';
import { Product, SourceKind, SyncStatus, releaseHeads, releasesOf } from './store';
import { storeViews } from './views';
import { recordSyncStatus, upsertReleases } from './writes';

export interface SyncOutcome extends SyncStatus {
  /** Why it failed, when it did; `no_source` for a product without one. */
  reason?: SourceFailure | 'no_source';
  /** Worth retrying later (the source was away or slow). */
  transient?: boolean;
}

export async function syncProduct(site: Site, product: Product, limits: FetchLimits = SOURCE_LIMITS): Promise<SyncOutcome> {
  const at = mysqlDateTime(site.clock.now());
  if (!product.source) return { at, ok: false, message: 'The product has no sync source.', found: 0, added: 0, updated: 0, reason: 'no_source' };
  let outcome: SyncOutcome;
  try {
    const read = await readSource(product.source, product.sourceKind, sourceFetch(site), limits);
    const { added, updated } = await upsertReleases(site, product.postId, read.releases);
    await renderReleases(site, product);
    const message = `Read ${read.releases.length} releases (${read.format}): ${added} added, ${updated} updated.${cutNotice(read.releases)}`;
    outcome = { at, ok: true, message, found: read.releases.length, added, updated };
  } catch (err) {
    if (!(err instanceof SourceError)) throw err;
    outcome = { at, ok: false, message: err.message, found: 0, added: 0, updated: 0, reason: err.reason, transient: err.transient };
  }
  const { reason: _reason, transient: _transient, ...status } = outcome;
  await recordSyncStatus(site, product.postId, status);
  return outcome;
}

/** Renders and stores the views of the product's releases that have none from their notes, so that no read renders. */
async function renderReleases(site: Site, product: Product): Promise<void> {
  const heads = await releaseHeads(site.db, [product.postId], true);
  await storeViews(site, await releasesOf(site.db, heads));
}

/** Notes over MAX_NOTES_CHARS are stored whole and shown cut: the report says which. */
function cutNotice(releases: ParsedRelease[]): string {
  const long = releases.filter((r) => r.notes.length > MAX_NOTES_CHARS).map((r) => r.version);
  if (!long.length) return '';
  return ` The notes of ${long.join(', ')} are longer than ${MAX_NOTES_CHARS.toLocaleString('en')} characters: only their beginning is shown.`;
}

export type ProbeResult =
  | { ok: true; url: string; kind: Exclude<SourceKind, 'auto'>; format: string; count: number; newest: string[] }
  | { ok: false; url: string; error: { code: SourceFailure; message: string; status?: number } };

/** What a source holds, without saving anything: its kind, format, how many releases and the newest five. */
export async function probeSource(site: Site, url: string, kind: SourceKind, limits: FetchLimits = SOURCE_LIMITS): Promise<ProbeResult> {
  try {
    const read = await readSource(url, kind, sourceFetch(site), limits);
    return { ok: true, url: read.url, kind: read.kind, format: read.format, count: read.releases.length, newest: newestVersions(read.releases, 5) };
  } catch (err) {
    if (!(err instanceof SourceError)) throw err;
    const error = { code: err.reason, message: err.message, ...(err.httpStatus ? { status: err.httpStatus } : {}) };
    return { ok: false, url, error };
  }
}

/** The site's OUTGOING_ALLOW, and its log for the reasons a source gave no answer. */
function sourceFetch(site: Site): SourceFetch {
  return { allow: site.config.outgoingAllow ?? NO_ALLOWANCE, logger: site.logger };
}
