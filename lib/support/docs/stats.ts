/** What `understudy doc stats` shows: each doc's votes counted from {p}svc_doc_votes, with its title. */
import { Site } from '../../wp/site';
import { plainText } from './text';
import { FeedbackCounts, docTitleRows, feedbackTotals } from './store';

export interface DocStats extends FeedbackCounts {
  id: number;
  title: string;
  /** post_status: a doc unpublished since keeps its votes. */
  status: string;
}

/** One doc's totals (zeros when it has no votes), or null when `id` is no doc. */
export async function docStats(site: Site, id: number): Promise<DocStats | null> {
  const [doc] = await docsWithTitles(site, [id]);
  if (!doc) return null;
  const [totals] = await feedbackTotals(site.db, [id]);
  return { ...doc, helpful: totals?.helpful ?? 0, notHelpful: totals?.notHelpful ?? 0, comments: totals?.comments ?? 0 };
}

/** Every doc that has votes, by ID. */
export async function allDocStats(site: Site): Promise<DocStats[]> {
  const totals = await feedbackTotals(site.db);
  const docs = new Map((await docsWithTitles(site, totals.map((t) => t.docId))).map((d) => [d.id, d]));
  return totals.flatMap((t) => {
    const doc = docs.get(t.docId);
    return doc ? [{ ...doc, helpful: t.helpful, notHelpful: t.notHelpful, comments: t.comments }] : [];
  });
}

async function docsWithTitles(site: Site, ids: readonly number[]): Promise<Array<{ id: number; title: string; status: string }>> {
  return (await docTitleRows(site.db, ids)).map((doc) => ({ ...doc, title: plainText(doc.title) }));
}
