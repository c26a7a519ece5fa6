/**
 * POST /docs/<id>/feedback (docs/docs.md, "Feedback"): one vote per doc, visitor and day (the site's
 * local date); a second vote that day replaces the first, comment included. Votes live in
 * {p}svc_doc_votes; after each one the doc's totals are counted again and written to its postmeta
 * (FEEDBACK_META), where agents' screens read them, in the same transaction.
 */
import { Knex } from 'knex';
import { WpError } from '../../wp/errors';
import { Database } from '../../wp/db/database';
import { updatePostMeta } from '../../wp/posts';
import { Site } from '../../wp/site';
import { writeSupport } from '../write';
import { isPublishedDoc } from './store';
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

export interface FeedbackCounts {
  helpful: number;
  notHelpful: number;
  comments: number;
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
  const votes = site.db.tables.svc('doc_votes');
  return writeSupport(site, {}, async (ctx) => {
    if (!(await isPublishedDoc(site.db, docId, ctx.trx))) throw docNotFound();
    const day = ctx.dates.local.slice(0, 10);
    const key = { doc_id: docId, visitor: visitor.hash, vote_day: day };
    const replaced = (await ctx.trx(votes).where(key).first('id')) !== undefined;
    const vote = { helpful: feedback.helpful ? 1 : 0, comment: feedback.comment, voted_at: ctx.nowSeconds };
    // A concurrent first vote of the same visitor lands on the unique key and becomes a replacement.
    await ctx.trx(votes).insert({ ...key, ...vote }).onConflict(['doc_id', 'visitor', 'vote_day']).merge(vote);
    const counts = await countFeedback(ctx.trx, site.db, docId);
    await updatePostMeta(ctx.trx, ctx.tables, docId, FEEDBACK_META.helpful, counts.helpful);
    await updatePostMeta(ctx.trx, ctx.tables, docId, FEEDBACK_META.notHelpful, counts.notHelpful);
    await updatePostMeta(ctx.trx, ctx.tables, docId, FEEDBACK_META.comments, counts.comments);
    return { replaced, day };
  });
}

/** One doc's totals, counted from its votes. */
async function countFeedback(knex: Knex | Knex.Transaction, db: Database, docId: number): Promise<FeedbackCounts> {
  const [counts] = await feedbackTotals(knex, db, [docId]);
  return counts ?? { helpful: 0, notHelpful: 0, comments: 0 };
}

export interface DocFeedbackTotals extends FeedbackCounts {
  docId: number;
}

/** Totals per doc that has votes (all docs, or those of `docIds`), by doc ID. */
export async function feedbackTotals(knex: Knex | Knex.Transaction, db: Database, docIds?: readonly number[]): Promise<DocFeedbackTotals[]> {
  const query = knex(db.tables.svc('doc_votes'))
    .select('doc_id')
    .sum({ helpful: 'helpful' })
    .count({ votes: '*' })
    .select(knex.raw("SUM(CASE WHEN comment <> '' THEN 1 ELSE 0 END) AS comments"))
    .groupBy('doc_id')
    .orderBy('doc_id');
  if (docIds) query.whereIn('doc_id', docIds);
  const rows = await query;
  return rows.map((r: Record<string, unknown>) => ({
    docId: Number(r.doc_id),
    helpful: Number(r.helpful ?? 0),
    notHelpful: Number(r.votes ?? 0) - Number(r.helpful ?? 0),
    comments: Number(r.comments ?? 0),
  }));
}

export interface DocComment {
  docId: number;
  /** The site-local date of the vote, `YYYY-MM-DD`. */
  day: string;
  helpful: boolean;
  comment: string;
}

/** The newest `limit` comments (votes with one), of every doc or of `docId`, newest first. */
export async function latestComments(db: Database, limit: number, docId?: number): Promise<DocComment[]> {
  const query = db.knex(db.tables.svc('doc_votes')).where('comment', '<>', '')
    .orderBy('voted_at', 'desc').orderBy('id', 'desc').limit(limit)
    .select('doc_id', 'vote_day', 'helpful', 'comment');
  if (docId !== undefined) query.where({ doc_id: docId });
  const rows = await query;
  return rows.map((r: Record<string, unknown>) => ({
    docId: Number(r.doc_id), day: String(r.vote_day), helpful: Number(r.helpful) === 1, comment: String(r.comment),
  }));
}
