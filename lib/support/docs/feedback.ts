/**
 * POST /docs/<id>/feedback (docs/docs.md, "Feedback"): one vote per doc, visitor and day (the site's
 * local date); a second vote that day replaces the first, comment included. Votes live in
 * {p}svc_doc_votes; after each one the doc's totals are counted again and written to its postmeta
 * (FEEDBACK_META), where agents' screens read them, in the same transaction.
 */
import { WpError } from '../../wp/errors';
import { Database } from '../../wp/db/database';
import { updatePostMeta } from '../../wp/posts';
import { Site } from '../../wp/site';
import { WriteContext, writeSupport } from '../write';
import { FeedbackCounts, feedbackTotals, isPublishedDoc, replaceDocVote } from './store';
import { DocVisitor } from './visitor';

/** The longest comment, in characters (code points). */
export const MAX_COMMENT_CHARS = 1000;
/** Votes per visitor address and hour, over every doc. */
export const VOTES_PER_HOUR = 20;

/** The doc's totals in its postmeta (each a whole number as a string). */
export const FEEDBACK_META = {
  helpful: '_svc_helpful_count',
  notHelpful: '_svc_not_helpful_count',
  comments: '_svc_comment_count',
} as const;

export interface Feedback {
  helpful: boolean;
  /** Plain text; '' for none. */
  comment: string;
}

export interface RecordedVote {
  /** The visitor had voted on this doc today: that vote was replaced. */
  replaced: boolean;
  /** The site-local date the vote counts for, `YYYY-MM-DD`. */
  day: string;
}

export function docNotFound(): WpError {
  return new WpError('svc_doc_not_found', 'No published doc has that ID.', 404);
}

export async function recordFeedback(site: Site, docId: number, visitor: DocVisitor, feedback: Feedback): Promise<RecordedVote> {
  return writeSupport(site, {}, async (ctx) => {
    if (!(await isPublishedDoc(site.db, docId, ctx.trx))) throw docNotFound();
    const day = ctx.dates.local.slice(0, 10);
    const replaced = await replaceDocVote(ctx, { docId, visitorHash: visitor.hash, day, ...feedback });
    const counts = await countFeedback(ctx, site.db, docId);
    await updatePostMeta(ctx.trx, ctx.tables, docId, FEEDBACK_META.helpful, counts.helpful);
    await updatePostMeta(ctx.trx, ctx.tables, docId, FEEDBACK_META.notHelpful, counts.notHelpful);
    await updatePostMeta(ctx.trx, ctx.tables, docId, FEEDBACK_META.comments, counts.comments);
    return { replaced, day };
  });
}

/** One doc's totals, counted from its votes. */
async function countFeedback(ctx: WriteContext, db: Database, docId: number): Promise<FeedbackCounts> {
  const [counts] = await feedbackTotals(db, [docId], ctx.trx);
  return counts ?? { helpful: 0, notHelpful: 0, comments: 0 };
}
