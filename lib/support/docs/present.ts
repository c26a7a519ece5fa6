/** A search hit as GET /docs/search shows it (schema/support/doc.ts): an allowlist of plain-text fields. */
import { Site } from '../../wp/site';
import { docPermalink } from './store';
import { DocHit } from './search';

export interface DocResult {
  id: number;
  title: string;
  excerpt: string;
  url: string;
  collection: string | null;
}

export async function presentDocHits(site: Site, hits: readonly DocHit[]): Promise<DocResult[]> {
  const home = await site.homeUrl();
  const structure = String((await site.options.get('permalink_structure', '')) || '');
  return hits.map(({ doc, collection, excerpt }) => ({
    id: doc.id, title: doc.title, excerpt, url: docPermalink(home, structure, doc), collection,
  }));
}
