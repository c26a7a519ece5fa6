/** A docs search hit (its permalink from the site's options) and a recorded vote. */
import { presentDocHits, presentVote } from '../../../lib/support/docs/present';
import { IndexedDoc } from '../../../lib/support/docs/search-index';
import { Site } from '../../../lib/wp/site';
import { docSchema } from '../../../schema/support/doc';
import { docFeedbackSchema } from '../../../schema/support/doc-feedback';
import { Presented } from './presented';

export async function presentDocSchemas(site: Site): Promise<Presented[]> {
  const doc: IndexedDoc = { id: 40, title: 'Safety', excerpt: 'Unplug first.', slug: 'safety', modified: '2026-11-22 12:00:00', foldedTitle: 'safety', foldedText: 'unplug first' };
  const [hit] = await presentDocHits(site, [{ doc, collection: 'shop' }]);
  return [
    { schema: docSchema, value: hit },
    { schema: docFeedbackSchema, value: presentVote(40, true, { replaced: true, day: '2026-11-22' }) },
  ];
}
