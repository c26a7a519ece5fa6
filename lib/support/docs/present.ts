/**
 * What the docs routes show: a search hit (schema/support/doc.ts), an allowlist of plain-text fields,
 * and a recorded vote (schema/support/doc-feedback.ts).
 */
import { Site } from '../../wp/site';
import { RecordedVote } from './feedback';
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

/** POST /docs/<id>/feedback: the vote as stored. */
export function presentVote(docId: number, helpful: boolean, vote: RecordedVote) {
  return { id: docId, helpful, replaced: vote.replaced, day: vote.day };
}
