/**
 * support/v1 changelogs, public (contract sections 2, 4, 8; docs/changelogs.md):
 * - GET /changelogs: every published product with slug, name, type, url, latest, releases, feed;
 * - GET /changelogs/<product>: its releases newest first by version, `page`, `per_page` (1-50,
 *   default 10), `stable` (true or 1 hides pre-releases), `since` (only newer versions), with
 *   WordPress's collection headers (X-WP-Total, X-WP-TotalPages, Link).
 */
import { ProductView, presentProduct, presentRelease } from '../../lib/support/changelogs/present';
import { productReleases, productSummaries } from '../../lib/support/changelogs/releases';
import { findProductBySlug } from '../../lib/support/changelogs/store';
import { isVersion } from '../../lib/support/changelogs/version';
import { withViews } from '../../lib/support/changelogs/views';
import { WpError } from '../../lib/wp/errors';
import { ArgsParams, operations, publicItemSchema, typedArgs } from '../../lib/wp/rest/item-schema';
import { RestRequest, RestResponse, allowAnyone, endpoint } from '../../lib/wp/rest/route';
import { SUPPORT_SCHEMAS } from '../../schema/support';
import { changelogOperations } from '../../schema/support/changelog-args';
import { changelogSchema } from '../../schema/support/changelog';
import { releaseSchema } from '../../schema/support/release';
import { supportRoute } from './kit';

/** The args of each changelog operation (schema/support/changelog-args.ts), the public ones and the internal ones. */
export const changelogArgs = operations(changelogOperations, SUPPORT_SCHEMAS, ['product', 'id']);

const PRODUCT_SCHEMA = publicItemSchema(changelogSchema);
const RELEASE_SCHEMA = publicItemSchema(releaseSchema);

export const changelogsCollection = supportRoute({
  route: '/changelogs',
  // Public, and posts only: the desk's storage check (its plugin tables, uploads) is not theirs.
  cache: 'public',
  storage: false,
  schema: () => PRODUCT_SCHEMA,
  endpoints: [endpoint({ methods: ['GET'], permission: allowAnyone, args: typedArgs({}), handler: listChangelogs })],
});

export const changelogReleases = supportRoute({
  route: '/changelogs/(?P<product>[^/]+)',
  cache: 'public',
  storage: false,
  schema: () => RELEASE_SCHEMA,
  endpoints: [endpoint({ methods: ['GET'], permission: allowAnyone, args: changelogArgs.releases, handler: listReleases })],
});

async function listChangelogs(req: RestRequest): Promise<ProductView[]> {
  const home = await req.site.homeUrl();
  return (await productSummaries(req.site)).map((s) => presentProduct(s, home));
}

async function listReleases(req: RestRequest<unknown, ArgsParams<typeof changelogArgs.releases>>): Promise<RestResponse> {
  const { product: slug, page, per_page: perPage, stable, since } = req.params;
  if (since !== undefined && !isVersion(since)) {
    throw new WpError('rest_invalid_param', 'Invalid parameter(s): since', 400, { params: { since: 'since is not a version (such as 1.2.0 or 2.0.0-beta.1).' } });
  }
  const product = await findProductBySlug(req.site.db, slug);
  if (!product) throw new WpError('svc_changelog_not_found', 'No changelog has this name.', 404);
  const result = await productReleases(req.site, product, { page, perPage, stable, since });
  // WP: a page past the last one is an error, not an empty list.
  if (page > result.totalPages && result.total > 0) {
    throw new WpError('rest_post_invalid_page_number', 'The page number requested is larger than the number of pages available.', 400);
  }
  const releases = await withViews(req.site, result.releases);
  return new RestResponse(releases.map((r) => presentRelease(r, r.rendered))).paginate(result.total, result.totalPages);
}
