/**
 * Reading changelogs for the public routes and the feeds: products with their release counts and
 * latest versions, and one product's releases newest first by version, filtered and paged. Releases
 * are read from the tables on every call (a handful of rows per product: the sort by version is done
 * here, since SQL cannot order versions), so a release the PHP site adds shows on the next request.
 */
import { Site } from '../../wp/site';
import { Product, ReleaseHead, StoredRelease, listProducts, releaseHeads, releasesOf } from './store';
import { compareVersions, newestFirst } from './version';

export interface ProductSummary {
  product: Product;
  latest: string | null;
  releases: number;
}

export async function productSummaries(site: Site): Promise<ProductSummary[]> {
  const products = await listProducts(site.db);
  const heads = await releaseHeads(site.db, products.map((p) => p.postId));
  return products.map((product) => {
    const own = heads.filter((h) => h.productId === product.postId);
    return { product, latest: latestVersion(own), releases: own.length };
  });
}

/** The newest stable release's version, else the newest release's, else null. */
function latestVersion(heads: ReleaseHead[]): string | null {
  const newest = (list: ReleaseHead[]) => list.map((h) => h.version).sort(newestFirst)[0] ?? null;
  return newest(heads.filter((h) => h.stability === 'stable')) ?? newest(heads);
}

export interface ReleaseQuery {
  page: number;
  perPage: number;
  /** Leave pre-releases out. */
  stable: boolean;
  /** Only versions newer than this one. */
  since?: string;
}

export interface ReleasePage {
  releases: StoredRelease[];
  total: number;
  totalPages: number;
}

export async function productReleases(site: Site, product: Product, query: ReleaseQuery): Promise<ReleasePage> {
  let heads = await releaseHeads(site.db, [product.postId]);
  if (query.stable) heads = heads.filter((h) => h.stability === 'stable');
  if (query.since !== undefined) heads = heads.filter((h) => compareVersions(h.version, query.since as string) > 0);
  heads.sort((a, b) => newestFirst(a.version, b.version) || b.postId - a.postId);
  const first = (query.page - 1) * query.perPage;
  return {
    releases: await releasesOf(site.db, heads.slice(first, first + query.perPage)),
    total: heads.length,
    totalPages: Math.ceil(heads.length / query.perPage),
  };
}
