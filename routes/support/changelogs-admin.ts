/**
 * support/v1 changelogs, internal (contract section 4; docs/changelogs.md):
 * - POST /changelogs/admin/parse `{text}` → `{format, releases}`: what the editor shows for pasted text;
 * - POST /changelogs/admin/probe `{url, kind?}` → what the source holds (`ok`, `count`, `newest`),
 *   or why it cannot be read (`ok: false`, `error`), saving nothing;
 * - POST /changelogs/admin/<id>/sync: reads the product's source now and upserts its releases.
 * parse and probe need the svc_doc type's edit_posts, sync edit_post on that svc_changelog post
 * (lib/support/changelogs/policy.ts).
 */
import { SourceError, sourceUrl } from '../../lib/support/changelogs/fetch';
import { NotesView } from '../../lib/support/changelogs/notes';
import { parseChangelog } from '../../lib/support/changelogs/parse';
import { canEditChangelog, canEditDocs } from '../../lib/support/changelogs/policy';
import { presentParsedRelease } from '../../lib/support/changelogs/present';
import { PreviewRefused, previewViews } from '../../lib/support/changelogs/preview';
import { findProductById } from '../../lib/support/changelogs/store';
import { probeSource, syncProduct } from '../../lib/support/changelogs/sync';
import { WpError } from '../../lib/wp/errors';
import { ArgsParams } from '../../lib/wp/rest/item-schema';
import { RestRequest, endpoint } from '../../lib/wp/rest/route';
import { changelogArgs } from './changelogs';
import { supportRoute } from './kit';

/** Pasted changelogs may be long; as large as a source sync reads, plus JSON's escaping. */
const PARSE_MAX_BODY_BYTES = 3 * 1024 * 1024;

export const changelogParse = supportRoute({
  route: '/changelogs/admin/parse',
  // Changelogs are posts: the desk's storage check (its plugin tables, uploads) is not theirs.
  storage: false,
  endpoints: [endpoint({ methods: ['POST'], permission: (req) => canEditDocs(req.user), args: changelogArgs.parse, maxBodyBytes: PARSE_MAX_BODY_BYTES, handler: parse })],
});

export const changelogProbe = supportRoute({
  route: '/changelogs/admin/probe',
  storage: false,
  endpoints: [endpoint({ methods: ['POST'], permission: (req) => canEditDocs(req.user), args: changelogArgs.probe, handler: probe })],
});

export const changelogSync = supportRoute({
  route: '/changelogs/admin/(?P<id>[\\d]+)/sync',
  storage: false,
  endpoints: [endpoint({ methods: ['POST'], permission: maySync, args: changelogArgs.sync, handler: sync })],
});

async function parse(req: RestRequest<unknown, ArgsParams<typeof changelogArgs.parse>>): Promise<unknown> {
  const { format, releases } = parseChangelog(req.params.text);
  try {
    const views = await previewViews(releases);
    return { format, releases: releases.map((r, i) => presentParsedRelease(r, views[i] as NotesView)) };
  } catch (err) {
    if (!(err instanceof PreviewRefused)) throw err;
    if (err.reason === 'too_long') throw new WpError('rest_invalid_param', 'Invalid parameter(s): text', 400, { params: { text: err.message } });
    throw new WpError('svc_changelog_notes_too_complex', err.message, 400);
  }
}

async function probe(req: RestRequest<unknown, ArgsParams<typeof changelogArgs.probe>>): Promise<unknown> {
  const { url, kind } = req.params;
  try {
    sourceUrl(url);
  } catch (err) {
    if (!(err instanceof SourceError)) throw err;
    throw new WpError('rest_invalid_param', 'Invalid parameter(s): url', 400, { params: { url: err.message } });
  }
  return probeSource(req.site, url, kind);
}

/** WP: a post that does not exist is a 404 before any capability is asked (rest_post_invalid_id). */
async function maySync(req: RestRequest<unknown, ArgsParams<typeof changelogArgs.sync>>): Promise<boolean | WpError> {
  const product = await findProductById(req.site.db, req.params.id);
  if (!product) return new WpError('rest_post_invalid_id', 'Invalid post ID.', 404);
  return canEditChangelog(req.user, product);
}

async function sync(req: RestRequest<unknown, ArgsParams<typeof changelogArgs.sync>>): Promise<unknown> {
  const product = await findProductById(req.site.db, req.params.id);
  if (!product) throw new WpError('rest_post_invalid_id', 'Invalid post ID.', 404);
  const { reason, transient: _transient, ...outcome } = await syncProduct(req.site, product);
  if (reason === 'no_source') throw new WpError('svc_changelog_no_source', 'This changelog has no sync source.', 400);
  if (reason) throw new WpError('svc_changelog_source_failed', outcome.message, 502, { reason, last_sync: outcome });
  return outcome;
}
