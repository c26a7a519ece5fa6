/** What `understudy doc stats` shows: each doc's votes counted from {p}svc_doc_votes, with its title. */
import { Site } from '../../wp/site';
import { plainText } from './text';
import { DOC_POST_TYPE } from './store';
import { FeedbackCounts, feedbackTotals } from './feedback';

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
  const [totals] = await feedbackTotals(site.db.knex, site.db, [id]);
  return { ...doc, helpful: totals?.helpful ?? 0, notHelpful: totals?.notHelpful ?? 0, comments: totals?.comments ?? 0 };
}

/** Every doc that has votes, by ID. */
export async function allDocStats(site: Site): Promise<DocStats[]> {
  const totals = await feedbackTotals(site.db.knex, site.db);
  const docs = new Map((await docsWithTitles(site, totals.map((t) => t.docId))).map((d) => [d.id, d]));
  return totals.flatMap((t) => {
    const doc = docs.get(t.docId);
    return doc ? [{ ...doc, helpful: t.helpful, notHelpful: t.notHelpful, comments: t.comments }] : [];
  });
}

async function docsWithTitles(site: Site, ids: readonly number[]): Promise<Array<{ id: number; title: string; status: string }>> {
  const out: Array<{ id: number; title: string; status: string }> = [];
  for (let start = 0; start < ids.length; start += 900) {
    const rows = await site.db.knex(site.db.tables.posts).where({ post_type: DOC_POST_TYPE }).whereIn('ID', ids.slice(start, start + 900))
      .orderBy('ID').select('ID', 'post_title', 'post_status');
    out.push(...rows.map((r: { ID: number | string; post_title: string; post_status: string }) => ({ id: Number(r.ID), title: plainText(String(r.post_title)), status: String(r.post_status) })));
  }
  return out;
}
