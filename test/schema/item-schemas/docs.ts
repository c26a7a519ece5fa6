/** A docs search hit (its permalink from the site's options) and a recorded vote. */
import { presentDocHits, presentVote } from '../../../lib/support/docs/present';
import { IndexedDoc } from '../../../lib/support/docs/search-index';
import { Site } from '../../../lib/wp/site';
import { docSchema } from '../../../schema/support/doc';
import { docFeedbackSchema } from '../../../schema/support/doc-feedback';
import { Presented } from './presented';

export async function presentDocSchemas(site: Site): Promise<Presented[]> {
  const doc = new IndexedDoc(40, 'Safety', 'safety', '2026-11-22 12:00:00');
  const [hit] = await presentDocHits(site, [{ doc, collection: 'shop', excerpt: 'Unplug first.' }]);
  return [
    { schema: docSchema, value: hit },
    { schema: docFeedbackSchema, value: presentVote(40, true, { replaced: true, day: '2026-11-22' }) },
  ];
}
