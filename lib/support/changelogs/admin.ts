/**
 * Managing changelog products (what `understudy changelog` does): creating one, finding one by ID
 * or slug. The slug is the product's URL name (its post_name): WordPress's sanitize_title() of the
 * name unless given, unique among products.
 */
import { sanitizeTitle } from '../../wp/formatting';
import { Site } from '../../wp/site';
import { SourceError, sourceUrl } from './fetch';
import { DEFAULT_PRODUCT_TYPE, Product, SOURCE_KINDS, SourceKind, findProductById, findProductBySlug, listProducts } from './store';
import { insertProduct } from './writes';

/** A refused request, with a message for the person who made it. */
export class ChangelogError extends Error {
  override name = 'ChangelogError';
}

export interface NewProduct {
  name: string;
  slug?: string;
  type?: string;
  url?: string;
  source?: string;
  kind?: string;
}

export async function createProduct(site: Site, input: NewProduct): Promise<Product> {
  const name = input.name.trim();
  if (!name || name.length > 200) throw new ChangelogError('A product needs a name of 1 to 200 characters.');
  const slug = sanitizeTitle(input.slug ?? name);
  if (!slug || slug.length > 200) throw new ChangelogError(`"${input.slug ?? name}" gives no usable slug.`);
  if ((await listProducts(site.db)).some((p) => p.slug === slug)) throw new ChangelogError(`A changelog with the slug '${slug}' exists already.`);
  const type = (input.type ?? DEFAULT_PRODUCT_TYPE).trim();
  if (!/^[a-z0-9_-]{1,40}$/.test(type)) throw new ChangelogError('The type is a short lower-case word (plugin, theme, app …).');
  const id = await insertProduct(site, slug, { name, type, url: checkedUrl(input.url ?? '', 'url'), source: checkedUrl(input.source ?? '', 'source'), sourceKind: kindOf(input.kind) });
  return (await findProductById(site.db, id)) as Product;
}

/** By post ID (digits) or slug; any status by ID, published by slug. */
export async function findProduct(site: Site, idOrSlug: string): Promise<Product> {
  const found = /^\d{1,10}$/.test(idOrSlug) ? await findProductById(site.db, Number(idOrSlug)) : await findProductBySlug(site.db, idOrSlug);
  if (!found) throw new ChangelogError(`Could not find the changelog '${idOrSlug}'.`);
  return found;
}

function checkedUrl(raw: string, what: string): string {
  if (raw === '') return '';
  try {
    return sourceUrl(raw).href;
  } catch (err) {
    if (err instanceof SourceError) throw new ChangelogError(`Invalid ${what}: ${err.message}`);
    throw err;
  }
}

function kindOf(raw: string | undefined): SourceKind {
  if (raw === undefined) return 'auto';
  if (!(SOURCE_KINDS as readonly string[]).includes(raw)) throw new ChangelogError(`The kind is one of ${SOURCE_KINDS.join(', ')}.`);
  return raw as SourceKind;
}
